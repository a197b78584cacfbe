import Foundation
import FrameProcessing

/// Start-up, timed from outside: `avcapture scan --image` reading one QR code picture against
/// zbarimg reading the same picture, and `avcapture --help`, each a whole process, run in turn
/// (interleaved, so that the machine's noise falls on both alike), median and best of each.
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
