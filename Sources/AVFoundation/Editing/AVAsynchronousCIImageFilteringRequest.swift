import CoreGraphics
import CoreImage
import CoreMedia
import Foundation

/// An object that supports using Core Image filters to process an individual video frame in a
/// video composition.
///
/// The handler of `AVVideoComposition(asset:applyingCIFiltersWithHandler:)` is given one request
/// a frame, on the compositing thread, and finishes it (at once or later, from any thread) with
/// the filtered image or an error; the frame waits for it.
open class AVAsynchronousCIImageFilteringRequest: NSObject, @unchecked Sendable {
    /// The size of the rendered frame.
    public let renderSize: CGSize
    /// The time in the composition of the frame.
    public let compositionTime: CMTime
    /// The frame, upright, in Core Image's coordinates (origin at the bottom left).
    public let sourceImage: CIImage
    private let outcome = LockedValue<Result<CIImage, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(renderSize: CGSize, compositionTime: CMTime, sourceImage: CIImage) {
        self.renderSize = renderSize
        self.compositionTime = compositionTime
        self.sourceImage = sourceImage
        super.init()
    }

    /// Provides the filtered image to the composition; the context is not needed here (nil is fine).
    open func finish(with filteredImage: CIImage, context: CIContext?) { settle(.success(filteredImage)) }

    /// Stops the composition with an error.
    open func finish(with error: any Error) { settle(.failure(error)) }

    private func settle(_ result: Result<CIImage, any Error>) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { done.signal() }
    }

    /// Waits for the handler to finish the request.
    func result() -> Result<CIImage, any Error> {
        done.wait()
        return outcome.withLock { $0! }
    }
}
