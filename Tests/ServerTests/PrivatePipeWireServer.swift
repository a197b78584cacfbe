import TestSupport
import XCTest
@testable import CaptureDevices

/// A private PipeWire stack for tests, made this process's server: its clients find it through
/// `PIPEWIRE_RUNTIME_DIR` and `PULSE_SERVER`, and the device directories look again.
final class PrivatePipeWireServer {
    private let stack: PipeWireStack
    var folder: URL { stack.folder }

    /// Starts the stack; nil when PipeWire is not installed or did not start (the reason is in `failure`).
    init?(failure: inout String) {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pipewire-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            stack = try PipeWireStack(folder: folder)
        } catch {
            failure = "\(error)"
            return nil
        }
        for (name, value) in stack.environment { setenv(name, value, 1) }
        PipeWireDiscovery.reset()
        PulseDiscovery.refresh()
    }

    /// Hot-plugs another test camera named `name`.
    func addCamera(_ name: String) { XCTAssertTrue(stack.addCamera(name)) }

    /// Unplugs the camera named `name`.
    func removeCamera(_ name: String) { XCTAssertTrue(stack.removeCamera(name)) }

    /// Kills the server as a crash does; clients see it go away with its nodes still there.
    func kill() { stack.crash() }

    /// Stops the daemons and forgets the server.
    func stop() {
        stack.stop()
        for name in stack.environment.keys { unsetenv(name) }
        PipeWireDiscovery.reset()
        PulseDiscovery.refresh()
        try? FileManager.default.removeItem(at: folder)
    }
}
