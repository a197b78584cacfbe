import CoreMedia
import Foundation

/// The part of the ring one Live Photo's movie takes, cut (its frames pinned) as soon as the ring
/// holds everything up to the movie's end, whether or not the still is processed by then: the
/// ring keeps a few seconds, and a still that takes longer to make must not let the frames before
/// it be overwritten while the movie waits for it.
///
/// Thread-safe: the ring cuts the clip on the thread that delivered the last of it; `whenCut`
/// may be called from any thread, before or after.
final class LivePhotoClipReservation: @unchecked Sendable {
    private let ring: LivePhotoRing
    private let start: CMTime
    private let end: CMTime
    private let lock = NSLock()
    private var clip: LivePhotoRing.Clip?
    private var handler: (@Sendable (LivePhotoRing.Clip) -> Void)?

    /// Reserves the ring's frames and sound from `start` to `end`, to be cut once it holds them.
    init(_ ring: LivePhotoRing, from start: CMTime, to end: CMTime) {
        self.ring = ring
        self.start = start
        self.end = end
        // The ring keeps only a weak reference, so a wait that never ends does not keep the reservation.
        ring.whenHolding(through: end) { [weak self] in self?.cut() }
    }

    /// Cuts the clip from what the ring holds now, unless it was cut already (also the backstop
    /// for a camera that stops delivering).
    func cut() {
        let due: (LivePhotoRing.Clip, (@Sendable (LivePhotoRing.Clip) -> Void)?)? = lock.withLock {
            guard clip == nil else { return nil }
            let made = ring.clip(from: start, to: end)
            clip = made
            defer { handler = nil }
            return (made, handler)
        }
        if let (made, handler) = due, let handler { handler(made) }
    }

    /// Calls `handler` with the clip once it is cut: now, on this thread, if it is; otherwise on
    /// the thread that cuts it.
    func whenCut(_ handler: @escaping @Sendable (LivePhotoRing.Clip) -> Void) {
        let made: LivePhotoRing.Clip? = lock.withLock {
            if let clip { return clip }
            self.handler = handler
            return nil
        }
        if let made { handler(made) }
    }
}
