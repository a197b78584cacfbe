import AVFoundation
import Foundation

/// Reading and exporting a 1080p30 movie, next to the ffmpeg command doing the same work on the
/// same file in the same run: decoding (`-f null`), passthrough (`-c copy`) and encoding again
/// (libx264 with the same preset, tuning and bit rate).
enum ExportBenchmark {
    static let width = 1920, height = 1080, seconds = 10

    static func run() throws {
        print("")
        print("Reading and exporting \(seconds) s of \(width)x\(height) 30 fps H.264 with AAC:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("  ffmpeg not available: install ffmpeg for this comparison")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-export-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let source = makeSource(in: folder) else { print("  could not make the movie"); return }
        let frames = seconds * 30

        // Decoding: every picture into '420v' buffers, against ffmpeg decoding to nothing.
        let (decodeSeconds, decodeCPU) = try EncodeBenchmark.measure { try decode(source) }
        let (ffmpegDecodeSeconds, ffmpegDecodeCPU) = try EncodeBenchmark.measure {
            guard shell(["/usr/bin/ffmpeg", "-v", "error", "-i", source.path, "-map", "0:v", "-f", "null", "-"]).status == 0 else {
                throw CocoaError(.fileReadUnknown)
            }
        }
        report(
            "decode", ours: ("AVAssetReader to '420v'", decodeSeconds, decodeCPU), theirs: ("ffmpeg -f null", ffmpegDecodeSeconds, ffmpegDecodeCPU),
            frames: frames)

        // Passthrough: in this process, and as the avcapture command from outside.
        let copy = folder.appendingPathComponent("copy.mov")
        let (passSeconds, passCPU) = try EncodeBenchmark.measure { try export(source, to: copy, preset: AVAssetExportPresetPassthrough) }
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture")
        var toolFigures: (String, Double, Double)?
        if FileManager.default.isExecutableFile(atPath: tool.path) {
            let toolCopy = folder.appendingPathComponent("tool-copy.mov")
            let (s, c) = try EncodeBenchmark.measure {
                guard shell([tool.path, "export", source.path, toolCopy.path]).status == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
            toolFigures = ("avcapture export (process)", s, c)
        }
        let ffmpegCopy = folder.appendingPathComponent("ffmpeg-copy.mov")
        let (ffmpegPassSeconds, ffmpegPassCPU) = try EncodeBenchmark.measure {
            guard shell(["/usr/bin/ffmpeg", "-v", "error", "-i", source.path, "-c", "copy", "-y", ffmpegCopy.path]).status == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        report(
            "passthrough", ours: ("AVAssetExportSession", passSeconds, passCPU), theirs: ("ffmpeg -c copy", ffmpegPassSeconds, ffmpegPassCPU), frames: frames)
        if let toolFigures {
            report("passthrough", ours: toolFigures, theirs: ("ffmpeg -c copy", ffmpegPassSeconds, ffmpegPassCPU), frames: frames)
        }

        // Encoding again at the same size: the preset's H.264 settings given to ffmpeg too.
        let bitRate = Int(Double(width * height) * 30 * 0.38)
        let encoded = folder.appendingPathComponent("encoded.mp4")
        let (encodeSeconds, encodeCPU) = try EncodeBenchmark.measure { try export(source, to: encoded, preset: AVAssetExportPreset1920x1080) }
        let ffmpegEncoded = folder.appendingPathComponent("ffmpeg-encoded.mp4")
        let (ffmpegEncodeSeconds, ffmpegEncodeCPU) = try EncodeBenchmark.measure {
            guard
                shell([
                    "/usr/bin/ffmpeg", "-v", "error", "-i", source.path, "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
                    "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0",
                    "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-y", ffmpegEncoded.path,
                ]).status == 0
            else { throw CocoaError(.fileWriteUnknown) }
        }
        report(
            "encode", ours: ("AVAssetExportSession 1920x1080", encodeSeconds, encodeCPU),
            theirs: ("ffmpeg libx264 veryfast", ffmpegEncodeSeconds, ffmpegEncodeCPU), frames: frames)
        print(String(format: "  files: ours %.2f MB, ffmpeg's %.2f MB", EncodeBenchmark.size(encoded) / 1e6, EncodeBenchmark.size(ffmpegEncoded) / 1e6))
    }

    /// Ten seconds of 1080p30 H.264 (veryfast, 8 Mbit/s, B-frames) with a 1 kHz stereo tone in AAC, made by ffmpeg in `folder`.
    static func makeSource(in folder: URL) -> URL? {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("source.mp4")
        let made = shell([
            "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=\(seconds)", "-ac", "2",
            "-c:v", "libx264", "-preset", "veryfast", "-b:v", "8M", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k", "-shortest", "-y", source.path,
        ])
        return made.status == 0 ? source : nil
    }

    static func report(_ name: String, ours: (String, Double, Double), theirs: (String, Double, Double), frames: Int) {
        let oursRate = Double(frames) / ours.1, theirsRate = Double(frames) / theirs.1
        print(
            String(
                format: "  %@: %@ %.0f frames/s (%.2f s, CPU %.2f s); %@ %.0f frames/s (%.2f s, CPU %.2f s); ratio %.2fx throughput, %.2fx CPU",
                name, ours.0, oursRate, ours.1, ours.2, theirs.0, theirsRate, theirs.1, theirs.2, oursRate / theirsRate, ours.2 / theirs.2))
    }

    static func decode(_ url: URL) throws {
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .video)[0],
            outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        reader.startReading()
        var count = 0
        while output.copyNextSampleBuffer() != nil { count += 1 }
        guard reader.status == .completed, count == seconds * 30 else { throw reader.error ?? CocoaError(.fileReadUnknown) }
    }

    static func export(_ source: URL, to destination: URL, preset: String) throws {
        guard let session = AVAssetExportSession(asset: AVURLAsset(url: source), presetName: preset) else { throw CocoaError(.featureUnsupported) }
        session.outputURL = destination
        session.outputFileType = destination.pathExtension == "mov" ? .mov : .mp4
        let done = DispatchSemaphore(value: 0)
        session.exportAsynchronously { done.signal() }
        done.wait()
        guard session.status == .completed else { throw session.error ?? CocoaError(.fileWriteUnknown) }
    }
}
