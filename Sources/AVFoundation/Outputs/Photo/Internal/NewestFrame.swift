import Foundation

/// The pixel formats the photo and still image outputs deliver uncompressed stills in.
let uncompressedStillPixelFormats: [OSType] = [
    kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
]

/// The newest frame a still output received, kept by reference (one buffer of the camera's
/// pool), and the captures waiting for the next one. Thread-safe; `receive` runs on the
/// camera's thread and only stores and hands over.
final class NewestFrame: @unchecked Sendable {
    private struct State {
        var frame: CMSampleBuffer?
        var waiting: [@Sendable (CMSampleBuffer) -> Void] = []
    }
    private let state = LockedValue(State())

    /// The frame current now, if one has arrived.
    var current: CMSampleBuffer? { state.withLock { $0.frame } }

    /// Calls `body` with the next frame to arrive (on the camera's thread: it must only hand over).
    func next(_ body: @escaping @Sendable (CMSampleBuffer) -> Void) {
        state.withLock { $0.waiting.append(body) }
    }

    /// Keeps `frame` as the newest and hands it to the captures waiting for one.
    func receive(_ frame: CMSampleBuffer) {
        let waiting = state.withLock { state -> [@Sendable (CMSampleBuffer) -> Void] in
            state.frame = frame
            defer { state.waiting.removeAll(keepingCapacity: true) }
            return state.waiting
        }
        for capture in waiting { capture(frame) }
    }
}
