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
        // Xvfb picks a display number no other server holds and writes it to its output
        // (-displayfd), so that displays started at once by parallel tests never collide.
        let numberOut = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = numberOut
        process.standardError = FileHandle.nullDevice
        try process.run()
        let told = DisplayNumber()
        let reader = numberOut.fileHandleForReading
        Thread {
            var text = ""
            while !text.contains("\n") {
                let data = reader.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            told.set(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }.start()
        guard told.wait(seconds: 10), let number = told.value, process.isRunning,
            FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
        else {
            process.terminate()
            name = ""
            throw Failure(description: "Xvfb did not start")
        }
        name = ":\(number)"
    }

    /// The display number Xvfb writes, handed from the thread that reads it.
    private final class DisplayNumber: @unchecked Sendable {
        private let told = DispatchSemaphore(value: 0)
        private(set) var value: Int?
        func set(_ number: Int?) {
            value = number
            told.signal()
        }
        func wait(seconds: Double) -> Bool { told.wait(timeout: .now() + seconds) == .success }
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
