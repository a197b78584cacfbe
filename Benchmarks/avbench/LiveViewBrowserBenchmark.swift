import Foundation

/// The live view as a browser sees it: `avcapture preview` (release) on the virtual camera, its
/// page in Debian's headless Chromium (Tests/Browser/live_view_page.py), the frames the canvas
/// draws a second and the capture-to-canvas latency at the 95th percentile. The whole server next
/// to ustreamer is `scripts/bench-preview.sh`'s (in the VM, on vivid).
enum LiveViewBrowserBenchmark {
    static func run(seconds: Double) {
        print("")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let tool = root.appendingPathComponent(".build/release/avcapture"), script = root.appendingPathComponent("Tests/Browser/live_view_page.py")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), FileManager.default.isExecutableFile(atPath: tool.path) else {
            print("Live view in a browser: chromium or the release avcapture is missing (scripts/bench.sh builds it)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, tool.path, "--seconds", String(Int(max(4, seconds)))]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("Live view in a browser: \(error)")
            return
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let results = try? JSONSerialization.jsonObject(with: printed) as? [String: Any], let fps = results["fps"] as? Double,
            let latency = results["latencyP95"] as? Double
        else {
            print("Live view in a browser: the page's script failed")
            return
        }
        print(
            String(
                format: "Live view in a browser (Chromium, 30 fps camera): %.1f frames drawn a second, %.0f ms capture to canvas at the 95th percentile", fps,
                latency))
    }
}
