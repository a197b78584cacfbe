import Foundation
import CoreVideo
import Hummingbird

/// Hands each encoded frame to every viewer, newest only.
///
/// Each viewer has a one-frame mailbox: a frame that arrives while the viewer's last one is still
/// unsent replaces it (a drop for that viewer alone). A viewer that stops reading therefore holds
/// at most the frame in its socket and the one in its mailbox; the camera, the other viewers and
/// the session's other outputs never wait for it. Frames are shared, not copied, between viewers.
/// Thread-safe.
final class ViewerFanout: Sendable {
    /// What a viewer's mailbox delivers: the frames in order, newest first served.
    typealias Mailbox = AsyncStream<ByteBuffer>

    private struct Viewer {
        var continuation: Mailbox.Continuation
        var sent = 0
        var dropped = 0
    }
    private struct State {
        var viewers: [UInt64: Viewer] = [:]
        var nextID: UInt64 = 0
        var frames = 0
    }
    private let state = LockedValue(State())
    private let onActivity = LockedValue<(@Sendable (Bool) -> Void)?>(nil)

    /// Sets what is called with true when the first viewer arrives and false when the last leaves.
    func setActivityHandler(_ handler: @escaping @Sendable (Bool) -> Void) {
        onActivity.withLock { $0 = handler }
    }

    /// Tells the activity handler whether anyone watches now. Serialized, and from the count at
    /// the time, so a viewer leaving as another arrives cannot leave the frames switched off.
    private func activity(_: Bool) {
        onActivity.withLock { handler in handler?(viewerCount > 0) }
    }

    /// The number of viewers now.
    var viewerCount: Int { state.withLock { $0.viewers.count } }

    /// The frames handed out so far.
    var frameCount: Int { state.withLock { $0.frames } }

    /// Frames sent and dropped for each viewer now, by viewer.
    var deliveries: [(sent: Int, dropped: Int)] {
        state.withLock { $0.viewers.sorted { $0.key < $1.key }.map { ($0.value.sent, $0.value.dropped) } }
    }

    /// Adds a viewer; frames arrive in the returned mailbox until `remove(_:)`.
    func add() -> (id: UInt64, mailbox: Mailbox) {
        let (stream, continuation) = Mailbox.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (id, first) = state.withLock { state -> (UInt64, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.viewers[id] = Viewer(continuation: continuation)
            return (id, state.viewers.count == 1)
        }
        if first { activity(true) }
        return (id, stream)
    }

    /// Notes that a viewer's frame went out.
    func markSent(_ id: UInt64) {
        state.withLock { $0.viewers[id]?.sent += 1 }
    }

    /// Removes a viewer and ends its mailbox.
    func remove(_ id: UInt64) {
        let (removed, last) = state.withLock { state -> (Viewer?, Bool) in
            let removed = state.viewers.removeValue(forKey: id)
            return (removed, removed != nil && state.viewers.isEmpty)
        }
        removed?.continuation.finish()
        if last { activity(false) }
    }

    /// Ends every mailbox.
    func removeAll() {
        let removed = state.withLock { state -> [Viewer] in
            defer { state.viewers.removeAll() }
            return Array(state.viewers.values)
        }
        for viewer in removed { viewer.continuation.finish() }
        if !removed.isEmpty { activity(false) }
    }

    /// Puts a frame in every viewer's mailbox, replacing any frame still waiting there.
    func publish(_ frame: ByteBuffer) {
        state.withLock { state in
            state.frames += 1
            // In place: changing the dictionary while iterating a copy of it would copy it.
            for index in state.viewers.values.indices {
                if case .dropped = state.viewers.values[index].continuation.yield(frame) {
                    state.viewers.values[index].dropped += 1
                }
            }
        }
    }
}
