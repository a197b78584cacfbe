import CoreVideo
import Foundation

/// Whoever draws a layer's frames (Linux): one handler on its queue, and any number of async
/// streams that keep the newest frame. A frame is drawn only while someone draws and the handler
/// has had the last one, so a slow handler misses frames and never queues them.
/// Thread-safe; the preview layer and the player layer each keep one.
final class LayerFrameDrawers: @unchecked Sendable {
    private struct State {
        var handler: (@Sendable (CVPixelBuffer) -> Void, DispatchQueue)?
        var streams: [UUID: AsyncStream<CVPixelBuffer>.Continuation] = [:]
        var isDrawing = false
        var allowsJPEGSamples = false
    }
    private let state = LockedValue(State())

    /// Sets the handler and its queue, or removes it with nil; `allowingJPEGSamples` says it also
    /// takes frames in JPEG's own samples ('f420') where they need no turning, mirroring or scaling.
    func setHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue, allowingJPEGSamples: Bool = false) {
        state.withLock {
            $0.handler = handler.map { ($0, queue) }
            $0.allowsJPEGSamples = allowingJPEGSamples
        }
    }

    /// A new stream of the frames, newest first served.
    var frames: AsyncStream<CVPixelBuffer> {
        let id = UUID()
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            state.withLock { $0.streams[id] = continuation }
            continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        }
    }

    /// nil when no frame is to be drawn now (nobody draws, or the last frame is not done with);
    /// otherwise whether it may be drawn as JPEG's samples (only the handler draws, and takes them).
    /// When not nil, the caller draws and then calls `deliver(_:)`, with nil when drawing failed.
    func beginDrawing() -> Bool? {
        state.withLock { state in
            guard state.handler != nil || !state.streams.isEmpty, !state.isDrawing else { return nil }
            state.isDrawing = true
            return state.allowsJPEGSamples && state.streams.isEmpty
        }
    }

    /// Hands a drawn frame to every stream and to the handler on its queue; the next frame is
    /// drawn once the handler has had this one.
    func deliver(_ frame: CVPixelBuffer?) {
        let (handler, streams) = state.withLock { ($0.handler, Array($0.streams.values)) }
        guard let frame else { return finished() }
        for stream in streams { stream.yield(frame) }
        guard let (body, queue) = handler else { return finished() }
        queue.async { [self] in
            body(frame)
            finished()
        }
    }

    private func finished() {
        state.withLock { $0.isDrawing = false }
    }
}
