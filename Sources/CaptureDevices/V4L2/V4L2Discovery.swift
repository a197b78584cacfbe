import CoreMedia
import CoreVideo
import Foundation

/// Finds V4L2 capture nodes under /dev and follows them as they come and go.
///
/// A camera keeps its backend object across unplugging and plugging in again (matched by
/// its unique ID), so that `AVCaptureDevice` objects stay the same. Thread-safe.
package enum V4L2Discovery {
    private static let known = LockedValue<[V4L2Camera]>([])
    /// Cameras that went away and whose node has since been seen gone, by unique ID.
    private static let seenGone = LockedValue<Set<String>>([])
    /// How long a camera that failed with ENODEV stays away while its node is still listed: the
    /// driver unregisters it a moment after failing, and opening it in between still works.
    static let settleNanoseconds: Int64 = 1_000_000_000
    private static let watching = LockedValue(false)
    private static let listeners = LockedValue<[@Sendable () -> Void]>([])

    /// Every V4L2 camera seen so far, connected or not, in /dev order.
    package static func cameras() -> [V4L2Camera] {
        let paths = nodePaths()
        let now = CMClock.hostTimeNanoseconds()
        var changes: [(V4L2Camera, Bool)] = []
        let result = known.withLock { known -> [V4L2Camera] in
            for camera in known where !camera.isConnected && !paths.contains(camera.path) {
                _ = seenGone.withLock { $0.insert(camera.descriptor.uniqueID) }
            }
            for path in paths where !known.contains(where: { $0.path == path && $0.isConnected }) {
                guard let camera = V4L2Camera(path: path) else { continue }
                if let returning = known.firstIndex(where: { $0.descriptor.uniqueID == camera.descriptor.uniqueID }) {
                    if !known[returning].isConnected {
                        let id = camera.descriptor.uniqueID
                        let settled =
                            seenGone.withLock { $0.contains(id) } || known[returning].path != path
                            || now - known[returning].disconnectedAt > settleNanoseconds
                        guard settled else { continue }
                        _ = seenGone.withLock { $0.remove(id) }
                        changes.append((known[returning], true))
                    }
                    if known[returning].path != path { known[returning] = camera }
                } else {
                    known.append(camera)
                }
            }
            for camera in known where camera.isConnected && !paths.contains(camera.path) {
                changes.append((camera, false))
            }
            return known
        }
        for (camera, connected) in changes { camera.setConnected(connected) }
        return result
    }

    /// The /dev/video nodes, in number order.
    static func nodePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return names.filter { $0.hasPrefix("video") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            .map { "/dev/" + $0 }
    }

    /// Calls `listener` after cameras appear or disappear; starts watching /dev on first use.
    package static func addListener(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
        let start = watching.withLock { watching -> Bool in
            defer { watching = true }
            return !watching
        }
        guard start else { return }
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, "/dev", UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) >= 0 else { return }
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { if errno == EINTR { continue }; break }
                // Several events come together as a node appears; let them settle, then look again.
                usleep(50_000)
                _ = cameras()
                for listener in listeners.withLock({ $0 }) { listener() }
            }
        }
        thread.name = "V4L2 hotplug"
        thread.start()
    }
}
