import CoreVideo
import Foundation

/// Whoever draws a layer's frames (Linux): one handler on its queue, and any number of async
/// streams that keep the newest frame. A frame is drawn only while someone draws and the handler
/// has had the last one, so a slow handler misses frames and never queues them; a frame drawn for
/// a geometry that changed while it was drawn is dropped, never delivered to a viewer who came
/// after the change. Thread-safe; the preview layer and the player layer each keep one.
final class LayerFrameDrawers: @unchecked Sendable {
    /// A drawn frame on its way to the handler's body, with the drawers to tell when it is done
    /// (not the handler itself, whose handoff holds it: a replaced handler goes at once).
    private struct Handed {
        let frame: CVPixelBuffer
        let body: @Sendable (CVPixelBuffer) -> Void
        let drawers: LayerFrameDrawers
    }
    /// The handler, and the handoff to its queue, made when the handler is set: a frame costs no
    /// allocation. (A class: a closure passed out through a generic lock's result is re-wrapped, at
    /// an allocation each time.)
    private final class Handler: Sendable {
        let body: @Sendable (CVPixelBuffer) -> Void
        let handoff: SerialHandoff<Handed>

        init(body: @escaping @Sendable (CVPixelBuffer) -> Void, handoff: SerialHandoff<Handed>) {
            self.body = body
            self.handoff = handoff
        }
    }
    private struct State {
        var handler: Handler?
        var streams: [UUID: AsyncStream<CVPixelBuffer>.Continuation] = [:]
        var isDrawing = false
        var allowsJPEGSamples = false
        /// A viewer came (or the handler changed) since the last frame was delivered.
        var hasNewViewer = false
    }

    /// A frame the drawers wait for: how it may be drawn, and why.
    struct Drawing {
        /// Whether it may be drawn as JPEG's samples (only the handler draws, and takes them).
        var allowsJPEGSamples: Bool
        /// Whether a viewer came since the last frame, so the picture shown now is news to them.
        var isForNewViewer: Bool
    }
    private let state = LockedValue(State())

    /// Sets the handler and its queue, or removes it with nil; `allowingJPEGSamples` says it also
    /// takes frames in JPEG's own samples ('f420') where they need no turning, mirroring or scaling.
    func setHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue, allowingJPEGSamples: Bool = false) {
        let made = handler.map { body in
            // A frame the old handler never got (the handler changed) is done with all the same.
            Handler(
                body: body,
                handoff: SerialHandoff<Handed>(queue: queue, discarded: { $0.drawers.finished() }) { handed in
                    handed.body(handed.frame)
                    handed.drawers.finished()
                })
        }
        let replaced = state.withLock { state in
            defer {
                state.handler = made
                state.allowsJPEGSamples = allowingJPEGSamples
                state.hasNewViewer = handler != nil
            }
            return state.handler
        }
        // Let go of outside the lock: a frame the old handoff still holds is finished, under the lock.
        withExtendedLifetime(replaced) {}
    }

    /// A new stream of the frames, newest first served.
    var frames: AsyncStream<CVPixelBuffer> {
        let id = UUID()
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            state.withLock {
                $0.streams[id] = continuation
                $0.hasNewViewer = true
            }
            continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        }
    }

    /// nil when no frame is to be drawn now (nobody draws, or the last frame is not done with);
    /// otherwise the frame is the caller's to draw, and then to hand to `deliver(_:ifStill:)`, with
    /// nil when drawing failed or was given up.
    func beginDrawing() -> Drawing? {
        state.withLock { state in
            guard state.handler != nil || !state.streams.isEmpty, !state.isDrawing else { return nil }
            state.isDrawing = true
            return Drawing(allowsJPEGSamples: state.allowsJPEGSamples && state.streams.isEmpty, isForNewViewer: state.hasNewViewer)
        }
    }

    /// Hands a drawn frame to every stream and to the handler on its queue, if `isCurrent` (asked
    /// under the drawers' lock, so no viewer can come between) says the geometry it was drawn for
    /// still holds; the next frame is drawn once the handler has had this one. Whether it was handed.
    @discardableResult
    func deliver(_ frame: CVPixelBuffer?, ifStill isCurrent: () -> Bool = { true }) -> Bool {
        let viewers = state.withLock {
            state -> (handler: Handler?, streams: [AsyncStream<CVPixelBuffer>.Continuation])? in
            guard frame != nil, isCurrent() else { return nil }
            state.hasNewViewer = false
            // No array is made for no streams (the common case: a window or a handler alone).
            return (state.handler, state.streams.isEmpty ? [] : Array(state.streams.values))
        }
        guard let frame, let viewers else {
            finished()
            return false
        }
        for stream in viewers.streams { stream.yield(frame) }
        guard let handler = viewers.handler else {
            finished()
            return true
        }
        handler.handoff.hand(Handed(frame: frame, body: handler.body, drawers: self))
        return true
    }

    private func finished() {
        state.withLock { $0.isDrawing = false }
    }
}
