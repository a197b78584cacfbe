import XCTest
@testable import CaptureDevices

/// A private PipeWire stack for tests (`scripts/servers/pipewire.sh`): pipewire, wireplumber and
/// pipewire-pulse with a test camera, a test tone and a test microphone. This process's clients
/// find it through `PIPEWIRE_RUNTIME_DIR` and `PULSE_SERVER`.
final class PrivatePipeWireServer {
    let folder: URL
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/servers/pipewire.sh")

    /// Starts the stack; nil when PipeWire is not installed or did not start (the reason is in `failure`).
    init?(failure: inout String) {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pipewire-\(getpid())-\(UUID().uuidString.prefix(8))")
        let output = Self.run(["start", folder.path])
        guard output.status == 0 else {
            failure = output.status == 3 ? "PipeWire is not installed: scripts/install-deps.sh --with-servers" : "the PipeWire stack did not start: \(output.text)"
            return nil
        }
        for line in output.text.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            setenv(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]), 1)
        }
        PipeWireDiscovery.reset()
        PulseDiscovery.refresh()
    }

    /// Hot-plugs another test camera named `name`.
    func addCamera(_ name: String) { XCTAssertEqual(Self.run(["add-camera", folder.path, name]).status, 0) }

    /// Unplugs the camera named `name`.
    func removeCamera(_ name: String) { XCTAssertEqual(Self.run(["remove-camera", folder.path, name]).status, 0) }

    /// Stops the daemons; clients see the server go away.
    func kill() { _ = Self.run(["stop", folder.path]) }

    /// Stops the daemons and forgets the server.
    func stop() {
        kill()
        unsetenv("PIPEWIRE_RUNTIME_DIR")
        unsetenv("PULSE_SERVER")
        PipeWireDiscovery.reset()
        PulseDiscovery.refresh()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func run(_ arguments: [String]) -> (status: Int32, text: String) {
        runCommand(["/bin/bash", script.path] + arguments)
    }
}

/// Runs a command with its output in a file (daemons it starts keep inherited pipes open) and
/// waits with waitpid: Foundation's `Process` misses the exit of a child whose own children live on.
func runCommand(_ command: [String]) -> (status: Int32, text: String) {
    let log = NSTemporaryDirectory() + "command-\(UUID().uuidString).log"
    defer { unlink(log) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else { return (-1, "") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exited = status & 0x7f == 0
    return (exited ? (status >> 8) & 0xff : -1, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
}

extension XCTestCase {
    /// Skips a test that needs a real server on a machine without one, except under CI, where its absence fails.
    func skipOrFail(_ reason: String) throws -> Never {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("CI runs every real-server test: \(reason)")
        }
        throw XCTSkip(reason)
    }
}
