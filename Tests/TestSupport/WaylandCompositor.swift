import Foundation

/// A Wayland compositor of a test's own (Debian's weston), in a runtime folder of its own: nested
/// in an X server (weston's X11 backend, whose seat is the X server's keyboard and pointer), with
/// the kiosk shell, which gives every window the whole output; or headless, with no input devices
/// and so no seat. Clients reach it through `environment`.
public final class WaylandCompositor {
    /// How the compositor runs.
    public enum Kind {
        /// Inside `display`'s X server, with a seat; screenshots allowed.
        case nested(in: VirtualDisplay)
        /// With no output window and no input devices: a compositor without a seat.
        case headless
    }

    /// Why the compositor could not start.
    public struct Failure: Error, CustomStringConvertible {
        /// A sentence for the test's skip or failure message.
        public var description: String
    }

    /// The output's size in pixels.
    public let width: Int, height: Int
    /// The folder that holds the compositor's socket (its `XDG_RUNTIME_DIR`).
    public let runtime: URL
    /// The socket's name, `WAYLAND_DISPLAY` for its clients.
    public let socket: String
    private let process: Process

    /// What a client's environment needs to reach this compositor and nothing else: `DISPLAY`
    /// empty, so that SDL opens its window on Wayland.
    public var environment: [String: String] { ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime.path, "DISPLAY": ""] }

    /// Starts weston with one `width` x `height` output, waiting up to 10 s for its socket.
    public init(_ kind: Kind, width: Int = 640, height: Int = 480) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/weston") else {
            throw Failure(description: "weston is not installed: scripts/install-deps.sh --with-servers")
        }
        self.width = width
        self.height = height
        runtime = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        socket = "wayland-test"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        var arguments = ["--socket=\(socket)", "--width=\(width)", "--height=\(height)", "--idle-time=0", "--use-pixman"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["WAYLAND_DISPLAY"] = nil
        switch kind {
        case .nested(let display):
            // --debug allows the screenshooter protocol.
            arguments += ["--backend=x11-backend.so", "--shell=kiosk-shell.so", "--debug"]
            environment["DISPLAY"] = display.name
        case .headless:
            arguments += ["--backend=headless-backend.so"]
            environment["DISPLAY"] = nil
        }
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.currentDirectoryURL = runtime
        try process.run()
        let socketPath = runtime.appendingPathComponent(socket).path
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath), process.isRunning, Date() < deadline { usleep(20_000) }
        guard FileManager.default.fileExists(atPath: socketPath), process.isRunning else {
            stop()
            throw Failure(description: "weston did not start")
        }
    }

    deinit { stop() }

    /// Stops the compositor and removes its folder.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtime)
    }

    /// The output as the compositor composes it: R, G, B, A, row after row (weston-screenshooter's
    /// picture, decoded by FFmpeg); nil when it could not be taken.
    public func screenshot() -> [UInt8]? {
        let folder = runtime.appendingPathComponent("shots-\(UUID().uuidString.prefix(8))")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        defer { try? FileManager.default.removeItem(at: folder) }
        let shooter = Process()
        shooter.executableURL = URL(fileURLWithPath: "/usr/bin/weston-screenshooter")
        shooter.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        shooter.currentDirectoryURL = folder
        shooter.standardOutput = FileHandle.nullDevice
        shooter.standardError = FileHandle.nullDevice
        guard (try? shooter.run()) != nil else { return nil }
        shooter.waitUntilExit()
        guard shooter.terminationStatus == 0,
            let name = try? FileManager.default.contentsOfDirectory(atPath: folder.path).first(where: { $0.hasSuffix(".png") }),
            let pixels = runTool(
                "/usr/bin/ffmpeg", ["-v", "error", "-i", folder.appendingPathComponent(name).path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]),
            pixels.count == width * height * 4
        else { return nil }
        return [UInt8](pixels)
    }
}
