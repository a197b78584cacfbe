import AVFoundation
import CBenchmarkSupport
import Foundation
import LinuxAVFoundationWindow

/// A 1080p60 movie played in a window, as whole processes side by side in one run on an X server of
/// their own (Xvfb, drawn by the CPU as on a machine without a GPU): `avcapture play` (AVPlayer, the
/// player layer and LinuxVideoWindow through SDL), `ffplay` (FFmpeg's player, SDL) and `mpv
/// --vo=x11` (XShm). The figures: CPU a picture shown, and pictures dropped, without sound; then each
/// player's sound offset from its pictures, with the sound to a private PulseAudio server
/// (WindowSyncBenchmark).
enum WindowBenchmark {
    static let seconds = 10, rate = 60

    static func run() throws {
        print("")
        print("A \(seconds) s 1920x1080 \(rate) fps H.264 movie played in a window on Xvfb, whole processes:")
        for tool in ["/usr/bin/ffmpeg", "/usr/bin/Xvfb"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return print("  \(tool) is not installed: scripts/install-deps.sh --with-servers")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-window-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("movie.mp4")
        guard
            shell([
                "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=\(rate):duration=\(seconds)", "-c:v", "libx264", "-preset",
                "veryfast", "-g", "60", "-pix_fmt", "yuv420p", "-y", movie.path,
            ]).status == 0
        else { return print("  could not make the movie") }
        guard let display = startXvfb() else { return print("  Xvfb did not start") }
        defer {
            display.process.terminate()
            display.process.waitUntilExit()
        }
        let frames = seconds * rate
        let environment = ["DISPLAY": display.name, "WAYLAND_DISPLAY": ""]

        var results: [(name: String, cpu: Double, wall: Double, shown: Int, dropped: Int)] = []
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture")
        if FileManager.default.isExecutableFile(atPath: tool.path) {
            var output = ""
            let (wall, cpu) = try EncodeBenchmark.measure { output = run([tool.path, "play", movie.path], environment: environment) }
            // "...; N pictures (S shown in the window, D dropped); ..."
            let words = output.split(whereSeparator: { " ();,".contains($0) }).map(String.init)
            let shown = words.firstIndex(of: "shown").flatMap { Int(words[$0 - 1]) } ?? 0
            results.append(("avcapture play", cpu, wall, shown, frames - shown))
        } else {
            print("  avcapture is not built beside avbench: swift build -c release --product avcapture")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffplay") {
            var output = ""
            let (wall, cpu) = try EncodeBenchmark.measure {
                output = run(["/usr/bin/ffplay", "-autoexit", "-an", "-loglevel", "error", "-stats", movie.path], environment: environment)
            }
            // The status line's last "fd=" (frames dropped).
            let dropped = output.components(separatedBy: "fd=").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) } ?? 0
            results.append(("ffplay", cpu, wall, frames - dropped, dropped))
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv") {
            let script = folder.appendingPathComponent("drops.lua")
            try """
            local drops = 0
            mp.observe_property("frame-drop-count", "number", function(_, v) if v then drops = v end end)
            mp.register_event("shutdown", function() io.stderr:write("dropped " .. drops .. "\\n") end)
            """.write(to: script, atomically: true, encoding: .utf8)
            var output = ""
            let (wall, cpu) = try EncodeBenchmark.measure {
                output = run(
                    ["/usr/bin/mpv", "--vo=x11", "--no-audio", "--no-config", "--really-quiet", "--script=\(script.path)", movie.path], environment: environment
                )
            }
            let dropped = output.components(separatedBy: "dropped ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
            results.append(("mpv --vo=x11", cpu, wall, frames - dropped, dropped))
        } else {
            print("  mpv is not installed (scripts/install-deps.sh --with-peers): its comparison is left out")
        }
        for result in results {
            print(
                String(
                    format: "  %-15@ %.2f s, CPU %.2f s, %d of %d pictures shown (%d dropped), %.2f ms CPU a picture shown", result.name as NSString,
                    result.wall, result.cpu, result.shown, frames, result.dropped, result.shown > 0 ? result.cpu / Double(result.shown) * 1000 : .nan))
        }
        if let ours = results.first(where: { $0.name == "avcapture play" }), ours.shown > 0 {
            for peer in results where peer.name != ours.name && peer.shown > 0 {
                let ratio = (ours.cpu / Double(ours.shown)) / (peer.cpu / Double(peer.shown))
                print(String(format: "  ratio (avcapture play / %@): %.2fx CPU a picture shown", peer.name, ratio))
            }
        }
        try WindowSyncBenchmark.run(display: display.name, folder: folder, avcapture: FileManager.default.isExecutableFile(atPath: tool.path) ? tool : nil)
        try measureAllocations(display: display.name)
    }

    /// The allocation count alone, on an Xvfb of its own (`avbench window-allocations`).
    static func runAllocations() throws {
        print("")
        print("A camera shown in a window on Xvfb, heap allocations:")
        guard let display = startXvfb() else { return print("  Xvfb did not start") }
        defer {
            display.process.terminate()
            display.process.waitUntilExit()
        }
        try measureAllocations(display: display.name)
    }

    /// Heap allocations a picture shown in steady state, in this process: a virtual camera's 1280x720
    /// 30 fps session, its preview layer, and a LinuxVideoWindow showing it; against the same session
    /// delivering to a video data output alone (the frame path without the layer and the window).
    private static func measureAllocations(display: String) throws {
        setenv("DISPLAY", display, 1)
        unsetenv("WAYLAND_DISPLAY")
        let camera = virtualCamera
        guard LinuxVideoWindow.hasDisplay,
            let format = camera.formats.first(where: { $0.formatDescription.dimensions.width == 1280 && $0.formatDescription.dimensions.height == 720 })
        else { return print("  the allocation count needs the virtual camera's 1280x720 format and the display") }
        let seconds = 4.0
        let alone = try measureCamera(camera, format: format, delivered: kCVPixelFormatType_32BGRA, framesPerSecond: 30, seconds: seconds)

        let session = AVCaptureSession()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        try camera.lockForConfiguration()
        camera.activeFormat = format
        camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
        camera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
        camera.unlockForConfiguration()
        session.commitConfiguration()
        let layer = AVCaptureVideoPreviewLayer(session: session)
        let window = try LinuxVideoWindow(title: "avbench", width: 1280, height: 720)
        window.show(layer)
        session.startRunning()
        Thread.sleep(forTimeInterval: 1.5)
        let shown0 = window.statistics.shown, allocations0 = avbench_allocation_count()
        Thread.sleep(forTimeInterval: seconds)
        let allocations = avbench_allocation_count() - allocations0
        let shown = window.statistics.shown - shown0
        session.stopRunning()
        window.close()
        print(
            String(
                format:
                    "  in this process, a 1280x720 30 fps camera: %.1f heap allocations a picture shown in a window through its preview layer (%d shown in %.0f s); %.1f a frame to a video data output alone",
                Double(allocations) / Double(max(1, shown)), shown, seconds, alone.allocationsPerFrame))
    }

    /// Runs a command with more environment; what it wrote to standard output and error.
    static func run(_ command: [String], environment: [String: String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// An Xvfb of a 1920x1080 screen on a display number it picks.
    private static func startXvfb() -> (process: Process, name: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = ["-displayfd", "1", "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        var text = ""
        while !text.contains("\n") {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            return nil
        }
        return (process, ":\(number)")
    }
}
