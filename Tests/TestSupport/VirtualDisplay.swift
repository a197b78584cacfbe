import Foundation

/// An X server with no screen of its own (Xvfb), for screen capture tests: a display of a given
/// size on a free display number, painted and pointed at with xsetroot and xdotool.
public final class VirtualDisplay {
    /// The display's name, such as ":93".
    public let name: String
    private let process: Process

    /// Why the display could not start.
    public struct Failure: Error, CustomStringConvertible {
        /// A sentence for the test's skip or failure message.
        public var description: String
    }

    /// Starts Xvfb with one `width` x `height` 24-bit screen, waiting up to 10 s for its socket.
    public init(width: Int = 640, height: Int = 480) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            throw Failure(description: "Xvfb is not installed: scripts/install-deps.sh --with-servers")
        }
        // A display number no other server holds.
        var number = 90 + Int(getpid() % 400)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            number += 1
        }
        name = ":\(number)"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = [name, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"), Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard process.isRunning, FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") else {
            process.terminate()
            throw Failure(description: "Xvfb did not start on \(name)")
        }
    }

    deinit { stop() }

    /// Stops the server.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Paints the whole screen one colour, such as "#3060c0"; returns whether xsetroot did.
    @discardableResult
    public func paint(_ colour: String) -> Bool { runTool("/usr/bin/xsetroot", ["-display", name, "-solid", colour]) != nil }

    /// Runs xdotool with `arguments` on this display (such as `mousemove 100 100`); returns whether it did.
    @discardableResult
    public func pointer(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        process.environment = ["DISPLAY": name]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
