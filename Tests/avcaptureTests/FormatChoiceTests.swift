import XCTest
import Foundation

/// `--format WxH@FPS` picks, among the camera's formats of that size and rate, the one that needs
/// no conversion: the pixel format `--pixel-format` asks for, or what the encoders take. Checked
/// on a real PipeWire camera (a private PipeWire stack's test camera offers RGB and UYVY at
/// every size, RGB first).
final class FormatChoiceTests: XCTestCase {
    private var folder: URL!
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        folder = AVCaptureTool.folder("pipewire")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/servers/pipewire.sh")
        let (status, text) = Self.spawn(["/bin/bash", script.path, "start", folder.path])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("CI runs every real-server test: \(text)") }
            throw XCTSkip("the private PipeWire stack did not start: \(text)")
        }
        for line in text.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            environment[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
    }

    override func tearDown() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/servers/pipewire.sh")
        _ = Self.spawn(["/bin/bash", script.path, "stop", folder.path])
        super.tearDown()
    }

    func testThePixelFormatAskedForIsTakenFromTheCameraWhenItOffersIt() throws {
        let uyvy = try AVCaptureTool.run(["monitor", "--device", "pipewire:test-camera", "--format", "1280x720@30", "--pixel-format", "2vuy",
                                          "--seconds", "0.5", "--no-audio"], environment: environment)
        XCTAssertEqual(uyvy.status, 0, uyvy.output)
        XCTAssertTrue(uyvy.standardOutput.contains("the camera's format: '2vuy' 1280x720"), "2vuy, not the RGB listed first: \(uyvy.output)")
        let plain = try AVCaptureTool.run(["monitor", "--device", "pipewire:test-camera", "--format", "1280x720@30", "--seconds", "0.5", "--no-audio"],
                                          environment: environment)
        XCTAssertTrue(plain.standardOutput.contains("the camera's format: '24' 1280x720"), "no preference: the camera's order: \(plain.output)")
    }

    /// Runs a command that may leave daemons behind with its output in a file, and waits for it
    /// with waitpid (Foundation's `Process` can miss the exit of a child whose children live on).
    static func spawn(_ command: [String]) -> (status: Int32, text: String) {
        let log = NSTemporaryDirectory() + "spawn-\(UUID().uuidString).log"
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
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : -1, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
}
