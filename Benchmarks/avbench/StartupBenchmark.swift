import Foundation
import FrameProcessing

/// Start-up, timed from outside: `avcapture scan --image` reading one QR code picture against
/// zbarimg reading the same picture, and `avcapture --help`, each a whole process, run in turn
/// (interleaved, so that the machine's noise falls on both alike), median and best of each; then
/// the peak resident size of `avcapture --help` and `avcapture devices` against
/// `gst-launch-1.0 --help`'s, as the kernel counts it for each whole process, with the floor any
/// Swift command line of ArgumentParser and Foundation starts from (`avbench-floor`) and the one of
/// ArgumentParser alone (`avbench-floor-parser`), and
/// `avcapture devices` against GStreamer's own device listing, `gst-device-monitor-1.0`.
enum StartupBenchmark {
    static func run(runs: Int = 100) throws {
        print("== Start-up: one picture, one process each (\(runs) runs, interleaved) ==")
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture").path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            print("  (avcapture is not built beside avbench: swift build -c release --product avcapture)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-startup-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard
            let picture = try ScanCorpusBenchmark.makeCorpus(in: folder).first(where: {
                $0.symbology == .qr && $0.url.lastPathComponent.hasSuffix("-plain.pgm")
            })?.url.path
        else { return print("  (no QR code picture was made)") }
        let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var commands: [(String, [String])] = [
            ("avcapture scan --image", [tool, "scan", "--image", picture, "--raw"]), ("avcapture --help", [tool, "--help"]),
        ]
        if let zbarimg { commands.append(("zbarimg", [zbarimg, "--raw", "-q", picture])) }
        var times = [String: [Double]]()
        for _ in 0..<runs {
            for (name, command) in commands {
                let started = now()
                spawnAndWait(command)
                times[name, default: []].append((now() - started) * 1000)
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        for (name, _) in commands {
            let values = times[name] ?? []
            print(
                "  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) median \(String(format: "%5.1f", median(values))) ms  best \(String(format: "%5.1f", values.min() ?? 0)) ms"
            )
        }
        if let ours = times["avcapture scan --image"], let peer = times["zbarimg"] {
            print(String(format: "  avcapture/zbarimg: %.2fx median, %.2fx best (target: within 1.5x)", median(ours) / median(peer), ours.min()! / peer.min()!))
        } else {
            print("  (zbarimg is not installed: apt-get install zbar-tools)")
        }
        residentSizes(tool: tool, folder: folder)
    }

    /// Prints the median peak resident size of a few whole processes of each command, and the
    /// ratio to GStreamer's command line printing its help. Each is started by `/usr/bin/time`, a
    /// small process: a child started from this one would count this process's size as its peak.
    private static func residentSizes(tool: String, folder: URL) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return print("  (/usr/bin/time is not installed: apt-get install time)") }
        let gstreamer = ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var commands = [("avcapture --help", [tool, "--help"]), ("avcapture devices", [tool, "devices"])]
        // The floor: ArgumentParser and Foundation alone, linked as avcapture is (scripts/bench.sh builds it).
        let floor = URL(fileURLWithPath: tool).deletingLastPathComponent().appendingPathComponent("avbench-floor").path
        let hasFloor = FileManager.default.isExecutableFile(atPath: floor)
        if hasFloor { commands.append(("Swift floor --help", [floor, "--help"])) }
        // The floor without Foundation: ArgumentParser alone (it brings only FoundationEssentials).
        let parserFloor = floor + "-parser"
        let hasParserFloor = FileManager.default.isExecutableFile(atPath: parserFloor)
        if hasParserFloor { commands.append(("parser floor --help", [parserFloor, "--help"])) }
        if let gstreamer { commands.append(("gst-launch-1.0 --help", [gstreamer, "--help"])) }
        // The same work as `devices`: every camera and microphone the machine's servers and devices list.
        let monitor = ["/usr/bin/gst-device-monitor-1.0", "/usr/local/bin/gst-device-monitor-1.0"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let monitor { commands.append(("gst-device-monitor-1.0", [monitor])) }
        let report = folder.appendingPathComponent("resident").path
        var sizes = [String: [Double]]()
        for _ in 0..<9 {
            for (name, command) in commands {
                spawnAndWait(["/usr/bin/time", "-f", "%M", "-o", report] + command)
                // The last line: a command that fails has a line about its status first.
                guard let text = try? String(contentsOfFile: report, encoding: .utf8), let kilobytes = text.split(separator: "\n").last.flatMap({ Double($0) })
                else { return print("  (/usr/bin/time reported nothing for \(name))") }
                sizes[name, default: []].append(kilobytes / 1024)
            }
        }
        func median(_ name: String) -> Double { sizes[name].map { $0.sorted()[$0.count / 2] } ?? 0 }
        for (name, _) in commands {
            print("  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) resident \(String(format: "%5.1f", median(name))) MB (median of 9)")
        }
        guard gstreamer != nil else { return print("  (gst-launch-1.0 is not installed: apt-get install gstreamer1.0-tools)") }
        let peer = median("gst-launch-1.0 --help")
        print(
            String(
                format: "  avcapture/gst-launch-1.0 resident: --help %.2fx, devices %.2fx (target: within 2x)", median("avcapture --help") / peer,
                median("avcapture devices") / peer))
        if monitor != nil {
            let ratio = median("avcapture devices") / median("gst-device-monitor-1.0")
            print(String(format: "  avcapture devices/gst-device-monitor-1.0 resident (both list the devices): %.2fx", ratio))
        } else {
            print("  (gst-device-monitor-1.0 is not installed: apt-get install gstreamer1.0-plugins-base-apps)")
        }
        guard hasFloor else { return print("  (avbench-floor is not built beside avbench: swift build -c release --product avbench-floor)") }
        print(
            String(
                format: "  the Swift floor (ArgumentParser and Foundation alone, linked as avcapture is) is %.2fx gst-launch-1.0 --help; "
                    + "avcapture --help is %.2fx the floor",
                median("Swift floor --help") / peer, median("avcapture --help") / median("Swift floor --help")))
        guard hasParserFloor else {
            return print("  (avbench-floor-parser is not built beside avbench: swift build -c release --product avbench-floor-parser)")
        }
        print(
            String(
                format: "  without Foundation (ArgumentParser alone, linked as avcapture is) the floor is %.2fx gst-launch-1.0 --help",
                median("parser floor --help") / peer))
    }

    /// Runs a command with its output to /dev/null and waits for it: posix_spawn and waitpid,
    /// nothing between (Foundation's Process adds tens of milliseconds of its own).
    private static func spawnAndWait(_ command: [String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, command[0], &actions, nil, arguments, environ) == 0 else { return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
