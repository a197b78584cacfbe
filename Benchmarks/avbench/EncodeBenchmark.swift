import AVFoundation
import Foundation

/// The same raw 1920x1080 frames encoded by AVAssetWriter and by the ffmpeg command, side by side.
enum EncodeBenchmark {
    static let width = 1920, height = 1080, frames = 600, distinct = 60, bitRate = 8_000_000

    static func run() throws {
        print("")
        print(
            "Encoding \(frames) raw \(width)x\(height) NV12 frames to H.264 (libx264 veryfast, zerolatency, \(bitRate / 1_000_000) Mbit/s, keyframe every 30):")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("  ffmpeg not available: install ffmpeg for this comparison")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frames.nv12")
        guard
            shell([
                "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30", "-frames:v", "\(distinct)",
                "-pix_fmt", "nv12", "-f", "rawvideo", "-y", raw.path,
            ]).status == 0
        else { print("  could not make the frames"); return }
        let buffers = try load(raw)

        let ours = folder.appendingPathComponent("ours.mp4")
        let (oursSeconds, oursCPU) = try measure { try encodeWithAssetWriter(buffers, to: ours) }
        let theirs = folder.appendingPathComponent("ffmpeg.mp4")
        let (ffmpegSeconds, ffmpegCPU) = try measure {
            let result = shell([
                "/usr/bin/ffmpeg", "-v", "error", "-stream_loop", "\(frames / distinct - 1)", "-f", "rawvideo", "-pix_fmt", "nv12",
                "-s", "\(width)x\(height)", "-r", "30", "-i", raw.path, "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
                "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0",
                "-movflags", "+faststart", "-y", theirs.path,
            ])
            guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        let oursFPS = Double(frames) / oursSeconds, ffmpegFPS = Double(frames) / ffmpegSeconds
        print(String(format: "  AVAssetWriter: %.1f frames/s (%.2f s, CPU %.2f s), file %.2f MB", oursFPS, oursSeconds, oursCPU, size(ours) / 1e6))
        print(String(format: "  ffmpeg:        %.1f frames/s (%.2f s, CPU %.2f s), file %.2f MB", ffmpegFPS, ffmpegSeconds, ffmpegCPU, size(theirs) / 1e6))
        print(String(format: "  ratio (AVAssetWriter / ffmpeg): %.2fx throughput", oursFPS / ffmpegFPS))
    }

    /// `count` raw NV12 frames of `width` x `height` from a file, as pixel buffers.
    static func load(_ url: URL, width: Int = width, height: Int = height, count: Int = distinct) throws -> [CVPixelBuffer] {
        let data = try Data(contentsOf: url)
        let frameBytes = width * height * 3 / 2
        return (0..<count).map { index in
            var buffer: CVPixelBuffer?
            _ = CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
            CVPixelBufferLockBaseAddress(buffer!, [])
            data.withUnsafeBytes { raw in
                let frame = raw.baseAddress! + index * frameBytes
                let y = CVPixelBufferGetBaseAddressOfPlane(buffer!, 0)!, uv = CVPixelBufferGetBaseAddressOfPlane(buffer!, 1)!
                let yStride = CVPixelBufferGetBytesPerRowOfPlane(buffer!, 0), uvStride = CVPixelBufferGetBytesPerRowOfPlane(buffer!, 1)
                for row in 0..<height { (y + row * yStride).copyMemory(from: frame + row * width, byteCount: width) }
                for row in 0..<height / 2 { (uv + row * uvStride).copyMemory(from: frame + width * height + row * width, byteCount: width) }
            }
            CVPixelBufferUnlockBaseAddress(buffer!, [])
            return buffer!
        }
    }

    static func encodeWithAssetWriter(_ buffers: [CVPixelBuffer], to url: URL) throws {
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        try write(buffers, frames: frames, with: writer, input: h264Input(width: width, height: height, bitRate: bitRate))
    }

    /// An H.264 input with the comparison's settings: a bit rate, 30 fps, a keyframe every 30.
    static func h264Input(width: Int, height: Int, bitRate: Int) -> AVAssetWriterInput {
        AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: width, AVVideoHeightKey: height,
                AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: bitRate, AVVideoMaxKeyFrameIntervalKey: 30, AVVideoExpectedSourceFrameRateKey: 30],
            ])
    }

    /// Writes `frames` frames at 30 fps through `input`, cycling through `buffers`, and waits for the writer to finish.
    static func write(_ buffers: [CVPixelBuffer], frames: Int, with writer: AVAssetWriter, input: AVAssetWriterInput) throws {
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for index in 0..<frames {
            adaptor.append(buffers[index % buffers.count], withPresentationTime: CMTime(value: CMTimeValue(index), timescale: 30))
        }
        input.markAsFinished()
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        done.wait()
        guard writer.status == .completed else { throw writer.error ?? CocoaError(.fileWriteUnknown) }
    }

    static func measure(_ body: () throws -> Void) throws -> (seconds: Double, cpu: Double) {
        let cpu0 = cpuSeconds() + childCPUSeconds(), start = now()
        try body()
        return (now() - start, cpuSeconds() + childCPUSeconds() - cpu0)
    }

    static func size(_ url: URL) -> Double {
        Double((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0)
    }
}

func childCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Runs a command to its end and returns its status and everything it wrote; with a time limit,
/// a command still running when it passes is killed (its status is then the signal's).
@discardableResult
func shell(_ command: [String], timeLimit: Double? = nil) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    guard (try? process.run()) != nil else { return (-1, "") }
    let pid = process.processIdentifier
    let watchdog = timeLimit.map { limit in
        let item = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: item)
        return item
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    watchdog?.cancel()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
