import CPipeWire
import CoreMedia
import Foundation
import Synchronization

/// Finds a PipeWire server's cameras and follows them as they come and go.
///
/// One connection watches the server's registry; a camera keeps its backend object across
/// leaving and returning (matched by node name), so that `AVCaptureDevice` objects stay the
/// same. When the server goes away its cameras are disconnected, and the connection is tried
/// again once a second, so that cameras return with their server; a lookup tries at most once
/// a second too. Cameras the server
/// reads from a V4L2 node this process lists directly are left out: the V4L2 device is the
/// same camera, with its controls. Thread-safe.
package enum PipeWireDiscovery {
    private struct State {
        var monitor: MonitorConnection?
        var lastAttempt: Int64?
        var known: [PipeWireCamera] = []
        var retryScheduled = false
        var everConnected = false
    }
    private static let state = LockedValue(State())
    private static let listeners = LockedValue<[@Sendable () -> Void]>([])
    /// How long a first connection may take before the server counts as absent.
    static let connectTimeoutMilliseconds: Int32 = 500

    /// Every PipeWire camera seen so far, the connected ones first.
    package static func cameras() -> [PipeWireCamera] {
        LibraryLog.installed
        let now = CMClock.hostTimeNanoseconds()
        var retired: MonitorConnection?
        var snapshot: [cpw_camera]?
        state.withLock { state in
            if state.monitor == nil, state.lastAttempt.map({ now - $0 > 1_000_000_000 }) ?? true {
                state.lastAttempt = now
                var error: Int32 = 0
                state.monitor = cpw_monitor_new(monitorChanged, nil, connectTimeoutMilliseconds, &error).map(MonitorConnection.init)
                if state.monitor != nil { state.everConnected = true }
            }
            guard let monitor = state.monitor else { return }
            var cameras = [cpw_camera](repeating: cpw_camera(), count: Int(CPW_MAX_CAMERAS))
            let count = cpw_monitor_cameras(monitor.pointer, &cameras, Int32(CPW_MAX_CAMERAS))
            if count < 0 {
                // The server went away; the next lookup a second from now tries again.
                retired = monitor
                state.monitor = nil
                state.lastAttempt = now
            } else {
                snapshot = Array(cameras.prefix(Int(count)))
            }
        }
        // Released outside the lock: closing waits for the monitor's thread, whose callback takes the lock.
        withExtendedLifetime(retired) {}
        let direct = Set(V4L2Discovery.nodePaths())
        let offered = (snapshot ?? []).filter { $0.n_formats > 0 && !direct.contains(V4L2Node.string($0.v4l2_path)) }
        var appeared: [PipeWireCamera] = []
        var vanished: [PipeWireCamera] = []
        let result = state.withLock { state -> [PipeWireCamera] in
            var present: [PipeWireCamera] = []
            for camera in offered {
                let name = V4L2Node.string(camera.name)
                if let existing = state.known.first(where: { $0.nodeName == name }) {
                    present.append(existing)
                } else {
                    let new = PipeWireCamera(camera: camera)
                    state.known.append(new)
                    present.append(new)
                }
            }
            appeared = present.filter { !$0.isConnected }
            vanished = state.known.filter { camera in camera.isConnected && !present.contains { $0 === camera } }
            // A server that went away is looked for again until it returns, so that its cameras do.
            if snapshot == nil, state.everConnected, !state.retryScheduled, !listeners.withLock({ $0.isEmpty }) {
                state.retryScheduled = true
                DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
                    PipeWireDiscovery.state.withLock { $0.retryScheduled = false }
                    refreshAndNotify()
                }
            }
            return present + state.known.filter { camera in !present.contains { $0 === camera } }
        }
        // A server shutting down removes its nodes before it closes the connection: a camera that
        // left is a camera unplugged only if the server still answers.
        var serverGone = snapshot == nil
        if !serverGone, !vanished.isEmpty, let monitor = state.withLock({ $0.monitor }) {
            serverGone = cpw_monitor_ping(monitor.pointer, 300) != 0
        }
        for camera in vanished {
            if serverGone { camera.serverWentAway() } else { camera.setConnected(false) }
        }
        for camera in appeared { camera.setConnected(true) }
        return result
    }

    /// Whether the server offers a camera named `name` now.
    package static func isPresent(_ name: String) -> Bool {
        cameras().contains { $0.nodeName == name && $0.isConnected }
    }

    /// Calls `listener` after cameras appear or disappear.
    package static func addListener(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
        _ = cameras()
    }

    /// Looks again and tells the listeners.
    static func refreshAndNotify() {
        _ = cameras()
        for listener in listeners.withLock({ $0 }) { listener() }
    }

    /// Whether a look after a change is already due. Not under the state lock: the monitor's
    /// callback runs with libpipewire's loop lock held, and a lookup holds the state lock while it
    /// waits for the loop lock, so taking the state lock there would deadlock.
    private static let refreshPending = Atomic<Bool>(false)

    /// The monitor saw a change: look again soon, on another thread, once for a burst of changes.
    fileprivate static func scheduleRefresh() {
        guard refreshPending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            refreshPending.store(false, ordering: .releasing)
            state.withLock { if $0.monitor == nil { $0.lastAttempt = nil } }
            refreshAndNotify()
        }
    }

    /// Forgets the connection, so that the next lookup connects again (to the server the environment names now).
    package static func reset() {
        let monitor = state.withLock { state -> MonitorConnection? in
            defer { state.monitor = nil; state.lastAttempt = nil }
            return state.monitor
        }
        withExtendedLifetime(monitor) {}
    }
}

/// The monitor's connection, closed when the last holder lets go: a lookup that pings the
/// server holds it while another lookup or a reset retires it. Never released on the monitor's
/// own thread: its `changed` callback only schedules work.
final class MonitorConnection: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { cpw_monitor_free(pointer) }
}

/// Called by libpipewire on the monitor's thread.
private let monitorChanged: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
    PipeWireDiscovery.scheduleRefresh()
}
