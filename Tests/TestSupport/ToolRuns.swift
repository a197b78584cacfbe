import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command-line tool and returns its standard output, or nil when it fails.
public func runTool(_ tool: String, _ arguments: [String]) -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? data : nil
}

/// Runs a command with its output in a file (daemons it starts keep inherited pipes open) and
/// waits with waitpid: Foundation's `Process` misses the exit of a child whose own children live on.
///
/// The status is the exit status, or -1 when the command could not start or ended by a signal;
/// the text is standard output and standard error together.
public func runCommand(_ command: [String]) -> (status: Int32, text: String) {
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

/// Whether the program at `path` is installed and executable.
public func isInstalled(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

/// The package's root folder, found from this file's place in it.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
