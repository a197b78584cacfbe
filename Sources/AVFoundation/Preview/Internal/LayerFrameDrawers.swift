import CoreVideo
import Foundation

/// Whoever draws a layer's frames (Linux): one handler on its queue, and any number of async
/// streams that keep the newest frame. A frame is drawn only while someone draws and the handler
/// has had the last one, so a slow handler misses frames and never queues them; a frame drawn for
/// a geometry that changed while it was drawn is dropped, never delivered to a viewer who came
/// after the change. Thread-safe; the preview layer and the player layer each keep one.
final class LayerFrameDrawers: @unchecked Sendable {
    private struct State {
        var handler: (@Sendable (CVPixelBuffer) -> Void, DispatchQueue)?
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
        state.withLock {
            $0.handler = handler.map { ($0, queue) }
            $0.allowsJPEGSamples = allowingJPEGSamples
            $0.hasNewViewer = handler != nil
        }
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
            state -> (handler: (@Sendable (CVPixelBuffer) -> Void, DispatchQueue)?, streams: [AsyncStream<CVPixelBuffer>.Continuation])? in
            guard frame != nil, isCurrent() else { return nil }
            state.hasNewViewer = false
            return (state.handler, Array(state.streams.values))
        }
        guard let frame, let viewers else {
            finished()
            return false
        }
        for stream in viewers.streams { stream.yield(frame) }
        guard let (body, queue) = viewers.handler else {
            finished()
            return true
        }
        queue.async { [self] in
            body(frame)
            finished()
        }
        return true
    }

    private func finished() {
        state.withLock { $0.isDrawing = false }
    }
}
