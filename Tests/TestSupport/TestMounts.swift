import Foundation

/// Mounting scratch file systems for fault tests (a full disk, a read-only one); needs root.
public enum TestMounts {
    /// Runs `mount` with `arguments`; whether it succeeded.
    public static func mount(_ arguments: [String]) -> Bool { run("/bin/mount", arguments) }
    /// Unmounts `path`, lazily, so that a file still open does not keep it.
    public static func unmount(_ path: String) { _ = run("/bin/umount", ["-l", path]) }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
