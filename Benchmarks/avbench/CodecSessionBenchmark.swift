import CBenchmarkSupport
import Foundation
import MovieEngine
import VideoToolbox

/// Video Toolbox's codec sessions next to the ffmpeg command doing the same work in the same run:
/// 600 raw 1920x1080 frames compressed to H.264 (libx264 veryfast, zerolatency, 8 Mbit/s, a
/// keyframe every 30) by a `VTCompressionSession` and by `ffmpeg -c:v libx264 -f null`; then that
/// stream decoded to '420v' by a `VTDecompressionSession` and by `ffmpeg -pix_fmt nv12 -f null`.
enum CodecSessionBenchmark {
    static let width = EncodeBenchmark.width, height = EncodeBenchmark.height, frames = EncodeBenchmark.frames, bitRate = EncodeBenchmark.bitRate

    /// The sample buffers a session made, kept in order from any thread.
    private final class Samples: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var all: [CMSampleBuffer] = []
        func append(_ sample: CMSampleBuffer) { lock.withLock { all.append(sample) } }
        var count: Int { lock.withLock { all.count } }
    }

    static func run() throws {
        print("")
        print(
            "Codec sessions: \(frames) raw \(width)x\(height) NV12 frames, H.264 (libx264 veryfast, zerolatency, \(bitRate / 1_000_000) Mbit/s, keyframe every 30):"
        )
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("  ffmpeg not available: install ffmpeg for this comparison")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-codec-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("frames.nv12")
        guard
            shell([
                "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30", "-frames:v", "\(EncodeBenchmark.distinct)",
                "-pix_fmt", "nv12", "-f", "rawvideo", "-y", raw.path,
            ]).status == 0
        else { print("  could not make the frames"); return }
        let buffers = try EncodeBenchmark.load(raw)

        // Compression.
        var made: VTCompressionSession?
        guard
            VTCompressionSessionCreate(
                allocator: nil, width: Int32(width), height: Int32(height), codecType: kCMVideoCodecType_H264, encoderSpecification: nil,
                imageBufferAttributes: nil, compressedDataAllocator: nil, outputCallback: nil, refcon: nil, compressionSessionOut: &made) == noErr,
            let session = made
        else { print("  no H.264 compression session"); return }
        for (key, value) in [
            (kVTCompressionPropertyKey_RealTime, true as CFBoolean), (kVTCompressionPropertyKey_AllowFrameReordering, false as CFBoolean),
            (kVTCompressionPropertyKey_AverageBitRate, bitRate as CFNumber), (kVTCompressionPropertyKey_MaxKeyFrameInterval, 30 as CFNumber),
            (kVTCompressionPropertyKey_ExpectedFrameRate, 30 as CFNumber),
        ] as [(CFString, CFTypeRef)] {
            _ = VTSessionSetProperty(session, key: key, value: value)
        }
        _ = VTCompressionSessionPrepareToEncodeFrames(session)
        let samples = Samples()
        let (encodeSeconds, encodeCPU) = try EncodeBenchmark.measure {
            for index in 0..<frames {
                _ = VTCompressionSessionEncodeFrame(
                    session, imageBuffer: buffers[index % buffers.count], presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30),
                    duration: CMTime(value: 1, timescale: 30), frameProperties: nil, infoFlagsOut: nil
                ) { _, _, sample in if let sample { samples.append(sample) } }
            }
            _ = VTCompressionSessionCompleteFrames(session, untilPresentationTimeStamp: .invalid)
        }
        VTCompressionSessionInvalidate(session)
        let bytes = samples.all.reduce(0) { $0 + CMSampleBufferGetTotalSampleSize($1) }
        let (ffmpegSeconds, ffmpegCPU) = try EncodeBenchmark.measure {
            let result = shell([
                "/usr/bin/ffmpeg", "-v", "error", "-stream_loop", "\(frames / EncodeBenchmark.distinct - 1)", "-f", "rawvideo", "-pix_fmt", "nv12",
                "-s", "\(width)x\(height)", "-r", "30", "-i", raw.path, "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
                "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0", "-f", "null", "-",
            ])
            guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        let oursFPS = Double(samples.count) / encodeSeconds, ffmpegFPS = Double(frames) / ffmpegSeconds
        print(
            String(
                format: "  VTCompressionSession: %.1f frames/s (%.2f s, CPU %.2f s), %.2f Mbit/s", oursFPS, encodeSeconds, encodeCPU,
                Double(bytes * 8) / (Double(frames) / 30) / 1e6))
        print(String(format: "  ffmpeg -c:v libx264:  %.1f frames/s (%.2f s, CPU %.2f s)", ffmpegFPS, ffmpegSeconds, ffmpegCPU))
        let (encodeTotal, encodeFFmpeg) = (sessionAllocations(buffers), try encoderAllocations(buffers))
        print(
            String(
                format:
                    "  heap allocations a frame in steady state, a client that lets each sample buffer go (the callback form): %.1f: FFmpeg's libx264 wrapper %.1f, the session's own %.1f",
                encodeTotal, encodeFFmpeg, encodeTotal - encodeFFmpeg))
        print(String(format: "  ratio (VTCompressionSession / ffmpeg): %.2fx throughput", oursFPS / ffmpegFPS))

        // Decompression of that stream; ffmpeg reads it as an Annex B file.
        guard let description = samples.all.first.flatMap({ CMSampleBufferGetFormatDescription($0) }) else { return }
        let stream = folder.appendingPathComponent("stream.h264")
        try annexB(samples.all, description: description).write(to: stream)
        var decoder: VTDecompressionSession?
        guard
            VTDecompressionSessionCreate(
                allocator: nil, formatDescription: description, decoderSpecification: nil, imageBufferAttributes: nil, decompressionSessionOut: &decoder)
                == noErr,
            let decoder
        else { print("  no H.264 decompression session"); return }
        let decoded = Samples()
        let pictures = LockedCounter()
        let (decodeSeconds, decodeCPU) = try EncodeBenchmark.measure {
            for sample in samples.all {
                _ = VTDecompressionSessionDecodeFrame(decoder, sampleBuffer: sample, flags: [._EnableAsynchronousDecompression], infoFlagsOut: nil) {
                    _, _, image, _, _ in
                    if image != nil { pictures.increment() }
                }
            }
            _ = VTDecompressionSessionWaitForAsynchronousFrames(decoder)
        }
        _ = decoded
        VTDecompressionSessionInvalidate(decoder)
        let (ffmpegDecodeSeconds, ffmpegDecodeCPU) = try EncodeBenchmark.measure {
            let result = shell(["/usr/bin/ffmpeg", "-v", "error", "-f", "h264", "-i", stream.path, "-pix_fmt", "nv12", "-f", "null", "-"])
            guard result.status == 0 else { throw CocoaError(.fileReadUnknown) }
        }
        let oursDecodeFPS = Double(pictures.value) / decodeSeconds, ffmpegDecodeFPS = Double(samples.count) / ffmpegDecodeSeconds
        print(
            String(format: "  VTDecompressionSession: %.1f frames/s (%d pictures, %.2f s, CPU %.2f s)", oursDecodeFPS, pictures.value, decodeSeconds, decodeCPU)
        )
        print(String(format: "  ffmpeg -f null:         %.1f frames/s (%.2f s, CPU %.2f s)", ffmpegDecodeFPS, ffmpegDecodeSeconds, ffmpegDecodeCPU))
        print(String(format: "  ratio (VTDecompressionSession / ffmpeg): %.2fx throughput", oursDecodeFPS / ffmpegDecodeFPS))
        let (decodeTotal, decodeFFmpeg) = (
            decodeAllocations(samples.all, description: description), try decoderAllocations(samples.all, description: description)
        )
        print(
            String(
                format:
                    "  heap allocations a frame in steady state, decoding synchronously for a client that lets each picture go (the callback form): %.1f: FFmpeg's decoder and converter %.1f, the session's own %.1f",
                decodeTotal, decodeFFmpeg, decodeTotal - decodeFFmpeg))
    }

    /// Heap allocations a frame of a session whose callback counts the bytes and lets each sample buffer go, in steady state.
    private static func sessionAllocations(_ buffers: [CVPixelBuffer]) -> Double {
        let counted = LockedCounter()
        var made: VTCompressionSession?
        VTCompressionSessionCreate(
            allocator: nil, width: Int32(width), height: Int32(height), codecType: kCMVideoCodecType_H264, encoderSpecification: nil,
            imageBufferAttributes: nil, compressedDataAllocator: nil,
            outputCallback: { refcon, _, _, _, sample in
                guard let refcon, let sample else { return }
                Unmanaged<LockedCounter>.fromOpaque(refcon).takeUnretainedValue().add(CMSampleBufferGetTotalSampleSize(sample))
            }, refcon: Unmanaged.passUnretained(counted).toOpaque(), compressionSessionOut: &made)
        guard let session = made else { return .nan }
        defer { VTCompressionSessionInvalidate(session) }
        for (key, value) in [
            (kVTCompressionPropertyKey_RealTime, true as CFBoolean), (kVTCompressionPropertyKey_AllowFrameReordering, false as CFBoolean),
            (kVTCompressionPropertyKey_AverageBitRate, bitRate as CFNumber), (kVTCompressionPropertyKey_MaxKeyFrameInterval, 30 as CFNumber),
        ] as [(CFString, CFTypeRef)] {
            VTSessionSetProperty(session, key: key, value: value)
        }
        var allocations0: UInt64 = 0
        let count = 120
        for index in 0..<count {
            if index == count / 2 { allocations0 = avbench_allocation_count() }
            VTCompressionSessionEncodeFrame(
                session, imageBuffer: buffers[index % buffers.count], presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30),
                duration: CMTime(value: 1, timescale: 30), frameProperties: nil, sourceFrameRefcon: nil, infoFlagsOut: nil)
        }
        return Double(avbench_allocation_count() - allocations0) / Double(count - count / 2)
    }

    /// Heap allocations a frame of a decompression session whose callback counts the pictures and lets each go, in steady state.
    private static func decodeAllocations(_ samples: [CMSampleBuffer], description: CMFormatDescription) -> Double {
        let counted = LockedCounter()
        var record = VTDecompressionOutputCallbackRecord(
            decompressionOutputCallback: { refcon, _, _, _, image, _, _ in
                guard let refcon, image != nil else { return }
                Unmanaged<LockedCounter>.fromOpaque(refcon).takeUnretainedValue().increment()
            }, decompressionOutputRefCon: Unmanaged.passUnretained(counted).toOpaque())
        var made: VTDecompressionSession?
        VTDecompressionSessionCreate(
            allocator: nil, formatDescription: description, decoderSpecification: nil, imageBufferAttributes: nil, outputCallback: &record,
            decompressionSessionOut: &made)
        guard let session = made else { return .nan }
        defer { VTDecompressionSessionInvalidate(session) }
        let count = min(240, samples.count)
        var allocations0: UInt64 = 0
        for index in 0..<count {
            if index == count / 2 { allocations0 = avbench_allocation_count() }
            VTDecompressionSessionDecodeFrame(session, sampleBuffer: samples[index], flags: [], frameRefcon: nil, infoFlagsOut: nil)
        }
        return Double(avbench_allocation_count() - allocations0) / Double(count - count / 2)
    }

    /// Heap allocations a frame of the movie engine's decoder alone, converting each picture into one buffer, in steady state.
    private static func decoderAllocations(_ samples: [CMSampleBuffer], description: CMFormatDescription) throws -> Double {
        let configuration = description.extensionAtoms["avcC"] ?? Data()
        let decoder = try MovieDecoder(codecName: "h264", configuration: configuration, width: width, height: height, frameThreads: false)
        guard let picture = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange) else { return .nan }
        let count = min(240, samples.count)
        var allocations0: UInt64 = 0
        for index in 0..<count {
            if index == count / 2 { allocations0 = avbench_allocation_count() }
            guard let block = samples[index].dataBuffer else { continue }
            _ = decoder.send(bytes: UnsafeRawBufferPointer(start: block.bytes, count: block.length), microseconds: Int64(index) * 33_333, keyFrame: false)
            while case .frame = decoder.receive() { _ = decoder.convertPicture(into: picture, format: .nv12VideoRange) }
        }
        return Double(avbench_allocation_count() - allocations0) / Double(count - count / 2)
    }

    /// Heap allocations a frame of the movie engine's encoder alone, on the same frames and settings, in steady state.
    private static func encoderAllocations(_ buffers: [CVPixelBuffer]) throws -> Double {
        var settings = VideoFrameEncoder.Settings(width: width, height: height)
        (settings.bitRate, settings.maxBitRate, settings.bufferBits, settings.keyframeInterval, settings.expectedFrameRate) =
            (bitRate, bitRate * 3 / 2, bitRate, 30, 30)
        let encoder = try VideoFrameEncoder(settings: settings)
        var allocations0: UInt64 = 0
        let count = 120
        for index in 0..<count {
            if index == count / 2 { allocations0 = avbench_allocation_count() }
            try encoder.send(buffers[index % buffers.count], microseconds: Int64(index) * 33_333, keyFrame: false)
            try encoder.receive { _ in }
        }
        return Double(avbench_allocation_count() - allocations0) / Double(count - count / 2)
    }

    /// The samples as an Annex B byte stream, the parameter sets first.
    private static func annexB(_ samples: [CMSampleBuffer], description: CMFormatDescription) -> Data {
        var stream = Data()
        let startCode: [UInt8] = [0, 0, 0, 1]
        var count = 0
        _ = CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
            description, parameterSetIndex: 0, parameterSetPointerOut: nil, parameterSetSizeOut: nil, parameterSetCountOut: &count, nalUnitHeaderLengthOut: nil)
        for index in 0..<count {
            var pointer: UnsafePointer<UInt8>?
            var size = 0
            _ = CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
                description, parameterSetIndex: index, parameterSetPointerOut: &pointer, parameterSetSizeOut: &size, parameterSetCountOut: nil,
                nalUnitHeaderLengthOut: nil)
            if let pointer {
                stream.append(contentsOf: startCode)
                stream.append(pointer, count: size)
            }
        }
        for sample in samples {
            guard let bytes = try? CMSampleBufferGetDataBuffer(sample)?.dataBytes() else { continue }
            var at = bytes.startIndex
            while at + 4 <= bytes.endIndex {
                let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                stream.append(contentsOf: startCode)
                stream.append(bytes[(at + 4)..<min(bytes.endIndex, at + 4 + length)])
                at += 4 + length
            }
        }
        return stream
    }
}

/// A count kept from any thread.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    func add(_ amount: Int) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}
