import CoreMedia
import CoreVideo
import Foundation

/// An object that contains the information necessary for a video compositor to render an output pixel buffer.
///
/// The compositor finishes each request once, from any thread: with a composed frame, an error,
/// or as cancelled. Thread ownership: immutable but for its outcome, which a lock guards.
open class AVAsynchronousVideoCompositionRequest: NSObject, @unchecked Sendable {
    /// The context in which rendering occurs.
    public let renderContext: AVVideoCompositionRenderContext
    /// The time for which the compositor composes the frame.
    public let compositionTime: CMTime
    /// The identifiers of tracks that contain source frames for the compositor.
    public let sourceTrackIDs: [NSNumber]
    /// The video composition instruction to use for compositing the frame.
    public let videoCompositionInstruction: any AVVideoCompositionInstructionProtocol
    private let frames: [CMPersistentTrackID: CVPixelBuffer]

    /// How a request ended.
    enum Outcome {
        case composed(CVPixelBuffer)
        case failed(any Error)
        case cancelled
    }
    private let outcome = LockedValue<Outcome?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(
        renderContext: AVVideoCompositionRenderContext, compositionTime: CMTime, instruction: any AVVideoCompositionInstructionProtocol,
        frames: [CMPersistentTrackID: CVPixelBuffer]
    ) {
        self.renderContext = renderContext
        self.compositionTime = compositionTime
        videoCompositionInstruction = instruction
        self.frames = frames
        sourceTrackIDs = frames.keys.sorted().map { NSNumber(value: $0) }
        super.init()
    }

    /// Returns a source pixel buffer for the track that you specify.
    open func sourceFrame(byTrackID trackID: CMPersistentTrackID) -> CVPixelBuffer? { frames[trackID] }

    /// Finishes the request to compose the frame.
    open func finish(withComposedVideoFrame composedVideoFrame: CVPixelBuffer) { end(.composed(composedVideoFrame)) }

    /// Finishes the request with an error.
    open func finish(with error: any Error) { end(.failed(error)) }

    /// Cancels the request to compose the frame.
    open func finishCancelledRequest() { end(.cancelled) }

    private func end(_ result: Outcome) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { finished.signal() }
    }

    /// Waits for the compositor to finish, `shouldCancel` asked between waits of a tenth of a
    /// second; when it says yes, `cancel` runs once and the wait goes on for the compositor's answer.
    func outcome(shouldCancel: () -> Bool, cancel: () -> Void) -> Outcome {
        var cancelled = false
        while finished.wait(timeout: .now() + 0.1) == .timedOut {
            if !cancelled, shouldCancel() {
                cancelled = true
                cancel()
            }
        }
        return outcome.withLock { $0 } ?? .cancelled
    }
}
