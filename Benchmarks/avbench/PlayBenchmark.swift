import AVFoundation
import Foundation

/// Playing a 1080p30 movie in real time: AVPlayer with an AVPlayerItemVideoOutput asked for
/// pictures as a 60 Hz display asks, in this process and as `avcapture play` from outside, next
/// to `ffmpeg -re` decoding the same file at its own pace to nothing, in the same run. The
/// figure that matters is CPU for the same ten seconds of pictures; pictures shown tells
/// whether playback kept up.
enum PlayBenchmark {
    static let width = 1920, height = 1080, seconds = 10

    static func run() throws {
        print("")
        print("Playing \(seconds) s of \(width)x\(height) 30 fps H.264 in real time:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("  ffmpeg not available: install ffmpeg for this comparison")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-play-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.mp4")
        guard shell(["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30:duration=\(seconds)",
                     "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=\(seconds)", "-ac", "2",
                     "-c:v", "libx264", "-preset", "veryfast", "-b:v", "8M", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p",
                     "-c:a", "aac", "-b:a", "128k", "-shortest", "-y", source.path]).status == 0 else { print("  could not make the movie"); return }
        let sound = AVPlayer.playsSound(atRate: 1, algorithm: .spectral) && AVPlayer.soundProblem == nil

        var shown = 0
        let (playSeconds, playCPU) = try EncodeBenchmark.measure { shown = try play(source) }
        let peer = ["/usr/bin/ffmpeg", "-v", "error", "-re", "-i", source.path, "-map", "0:v", "-f", "null", "-"]
        let (peerSeconds, peerCPU) = try EncodeBenchmark.measure {
            guard shell(peer).status == 0 else { throw CocoaError(.fileReadUnknown) }
        }
        print(String(format: "  AVPlayer + video output: %.2f s, CPU %.2f s, %d of %d pictures shown%@",
                     playSeconds, playCPU, shown, seconds * 30, sound ? "" : " (no sound server: pictures only)"))
        print(String(format: "  ffmpeg -re -f null (pictures): %.2f s, CPU %.2f s", peerSeconds, peerCPU))
        print(String(format: "  ratio: %.2fx CPU", playCPU / peerCPU))

        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture")
        if FileManager.default.isExecutableFile(atPath: tool.path) {
            var line = ""
            let (toolSeconds, toolCPU) = try EncodeBenchmark.measure {
                let result = shell([tool.path, "play", source.path])
                guard result.status == 0 else { throw CocoaError(.fileReadUnknown) }
                line = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            print(String(format: "  avcapture play (whole process): %.2f s, CPU %.2f s; ratio %.2fx CPU of ffmpeg -re", toolSeconds, toolCPU, toolCPU / peerCPU))
            print("    \(line)")
        }
    }

    /// Plays the movie through, asking for pictures at 60 Hz; how many were shown.
    static func play(_ url: URL) throws -> Int {
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        item.add(output)
        let player = AVPlayer(playerItem: item)
        while item.status == .unknown { usleep(1000) }
        guard item.status == .readyToPlay else { throw item.error ?? CocoaError(.fileReadUnknown) }
        let ended = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: nil) { _ in ended.signal() }
        defer { NotificationCenter.default.removeObserver(observer) }
        player.play()
        var shown = 0
        while ended.wait(timeout: .now() + .microseconds(16_667)) == .timedOut {
            let now = output.itemTime(forHostTime: CACurrentMediaTime())
            if output.hasNewPixelBuffer(forItemTime: now), output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: nil) != nil { shown += 1 }
        }
        let last = output.itemTime(forHostTime: CACurrentMediaTime())
        if output.copyPixelBuffer(forItemTime: last, itemTimeForDisplay: nil) != nil { shown += 1 }
        return shown
    }
}
