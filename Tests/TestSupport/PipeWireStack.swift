import Foundation

/// A private PipeWire stack (`scripts/servers/pipewire.sh`): pipewire, wireplumber and
/// pipewire-pulse with a test camera, a test tone and a test microphone, in a folder of its own.
///
/// Clients find it through the variables in `environment`; nothing here changes this process's.
public final class PipeWireStack {
    /// The folder the daemons keep their sockets, state and logs in.
    public let folder: URL
    /// The variables that lead clients to this stack (`PIPEWIRE_RUNTIME_DIR`, `PULSE_SERVER`).
    public let environment: [String: String]

    /// The script that starts and stops the daemons.
    public static let script = packageRoot.appendingPathComponent("scripts/servers/pipewire.sh")

    /// Starts the stack in `folder`; throws `PipeWireStack.Failure` when PipeWire is not installed or did not start.
    public init(folder: URL) throws {
        self.folder = folder
        let output = Self.run(["start", folder.path])
        guard output.status == 0 else {
            throw Failure(
                reason: output.status == 3
                    ? "PipeWire is not installed: scripts/install-deps.sh --with-servers"
                    : "the PipeWire stack did not start: \(output.text)")
        }
        var environment: [String: String] = [:]
        for line in output.text.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            environment[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        self.environment = environment
    }

    /// Why the stack could not start.
    public struct Failure: Error, CustomStringConvertible {
        /// A sentence for the test's skip or failure message.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// Hot-plugs another test camera named `name`; returns whether the script succeeded.
    @discardableResult
    public func addCamera(_ name: String) -> Bool { Self.run(["add-camera", folder.path, name]).status == 0 }

    /// Unplugs the camera named `name`; returns whether the script succeeded.
    @discardableResult
    public func removeCamera(_ name: String) -> Bool { Self.run(["remove-camera", folder.path, name]).status == 0 }

    /// Stops the daemons; clients see the server go away. The folder is kept.
    public func stop() { _ = Self.run(["stop", folder.path]) }

    /// Kills the server as a crash does (its nodes still there as its clients' connections close), then stops the rest.
    public func crash() { _ = Self.run(["crash", folder.path]) }

    private static func run(_ arguments: [String]) -> (status: Int32, text: String) {
        runCommand(["/bin/bash", script.path] + arguments)
    }
}
