import AVFoundation
import Foundation

/// Playing a 1080p30 movie in real time: AVPlayer with an AVPlayerItemVideoOutput asked for
/// pictures as a 60 Hz display asks, in this process and as `avcapture play` from outside, next
/// to `ffmpeg -re` decoding the same file at its own pace, in the same run: pictures to nothing,
/// and, when PulseAudio is installed, with the sound played to a private server's null sink
/// (ffmpeg through its pulse output). The figure that matters is CPU for the same ten seconds;
/// pictures shown tells whether playback kept up.
enum PlayBenchmark {
    static func run() throws {
        print("")
        print("Playing \(ExportBenchmark.seconds) s of \(ExportBenchmark.width)x\(ExportBenchmark.height) 30 fps H.264 in real time:")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("  ffmpeg not available: install ffmpeg for this comparison")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-play-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let source = ExportBenchmark.makeSource(in: folder) else { print("  could not make the movie"); return }

        unsetenv("PULSE_SERVER")
        try compare(source, peer: ["-map", "0:v", "-f", "null", "-"], title: "pictures, no sound server")
        guard let server = BenchmarkPulseServer(folder: folder.appendingPathComponent("pulse")) else {
            print("  pulseaudio not installed: the comparison with sound is left out")
            return
        }
        defer { server.stop() }
        try compare(source, peer: ["-map", "0:v", "-f", "null", "-", "-map", "0:a", "-f", "pulse", "default"], title: "pictures and sound to PulseAudio")
    }

    private static func compare(_ source: URL, peer: [String], title: String) throws {
        print("  \(title):")
        var shown = 0
        let (playSeconds, playCPU) = try EncodeBenchmark.measure { shown = try play(source) }
        let sound = AVPlayer.soundProblem.map { "sound: \($0)" } ?? "sound played"
        let (peerSeconds, peerCPU) = try EncodeBenchmark.measure {
            let result = shell(["/usr/bin/ffmpeg", "-v", "error", "-re", "-i", source.path] + peer)
            guard result.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: result.output]) }
        }
        print(
            String(
                format: "    AVPlayer + video output: %.2f s, CPU %.2f s, %d of %d pictures shown, %@",
                playSeconds, playCPU, shown, ExportBenchmark.seconds * 30, sound))
        print(String(format: "    ffmpeg -re: %.2f s, CPU %.2f s; ratio %.2fx CPU", peerSeconds, peerCPU, playCPU / peerCPU))
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { return }
        var line = ""
        let (toolSeconds, toolCPU) = try EncodeBenchmark.measure {
            let result = shell([tool.path, "play", source.path])
            guard result.status == 0 else { throw CocoaError(.fileReadUnknown) }
            line = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        print(String(format: "    avcapture play (whole process): %.2f s, CPU %.2f s; ratio %.2fx CPU of ffmpeg -re", toolSeconds, toolCPU, toolCPU / peerCPU))
        print("      \(line)")
    }

    /// Plays the movie through, asking for pictures at 60 Hz; how many were shown.
    static func play(_ url: URL) throws -> Int {
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        ])
        item.add(output)
        let player = AVPlayer(playerItem: item)
        while item.status == .unknown { usleep(1000) }
        guard item.status == .readyToPlay else { throw item.error ?? CocoaError(.fileReadUnknown) }
        let ended = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: nil) { _ in
            ended.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        player.play()
        var shown = 0
        while ended.wait(timeout: .now() + .microseconds(16_667)) == .timedOut {
            let now = output.itemTime(forHostTime: CACurrentMediaTime())
            if output.hasNewPixelBuffer(forItemTime: now), output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: nil) != nil { shown += 1 }
        }
        let last = output.itemTime(forHostTime: CACurrentMediaTime())
        if output.copyPixelBuffer(forItemTime: last, itemTimeForDisplay: nil) != nil { shown += 1 }
        usleep(200_000)  // the sound's last writes drain
        return shown
    }
}

/// A private PulseAudio server with a null sink, for the benchmark's own process and its children.
/// It runs as a daemon (Foundation's Process waits for its children one at a time, so a child
/// that stays would keep later commands from being seen to end).
final class BenchmarkPulseServer {
    private let runtime: URL

    init?(folder: URL) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else { return nil }
        runtime = folder.appendingPathComponent("runtime")
        try? FileManager.default.createDirectory(at: runtime.appendingPathComponent("pulse"), withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        let socket = runtime.appendingPathComponent("pulse/native").path
        let script =
            "load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)\nload-module module-null-sink sink_name=bench rate=48000 channels=2 norewinds=1\nset-default-sink bench\n"
        try? script.write(to: folder.appendingPathComponent("bench.pa"), atomically: true, encoding: .utf8)
        let started = shell([
            "/usr/bin/env", "HOME=\(folder.path)", "XDG_RUNTIME_DIR=\(runtime.path)", "/usr/bin/pulseaudio", "-n",
            "-F", folder.appendingPathComponent("bench.pa").path, "--daemonize=yes", "--exit-idle-time=-1", "--realtime=no",
            "--high-priority=no", "--use-pid-file=yes", "--log-target=file:\(folder.path)/pulse.log",
        ])
        let deadline = Date().addingTimeInterval(10)
        while started.status == 0, !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
        guard FileManager.default.fileExists(atPath: socket) else { stop(); return nil }
        setenv("PULSE_SERVER", "unix:\(socket)", 1)
    }

    func stop() {
        unsetenv("PULSE_SERVER")
        let pidFile = runtime.appendingPathComponent("pulse/pid")
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
        }
    }
}
