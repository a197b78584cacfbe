import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation

/// A protocol that defines the methods custom video compositors must implement.
///
/// Name a class that adopts it in `AVMutableVideoComposition.customVideoCompositorClass`: the
/// export session or reader output makes one instance with its `init()` and asks it for each
/// frame. Apple's optional methods have default implementations here. As with Apple's, code in
/// the Swift 5 language mode may declare the two attribute dictionaries in the older SDKs'
/// spelling, `[String: Any]`, and is warned that the Swift 6 mode needs `any Sendable` values.
public protocol AVVideoCompositing: NSObjectProtocol, Sendable {
    /// The pixel buffer attributes that the compositor accepts for source frames.
    @preconcurrency var sourcePixelBufferAttributes: [String: any Sendable]? { get }
    /// The pixel buffer attributes that the compositor requires for pixel buffers that it creates.
    @preconcurrency var requiredPixelBufferAttributesForRenderContext: [String: any Sendable] { get }
    /// Tells the compositor that the composition changed render contexts.
    func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext)
    /// Directs a custom video compositor object to create a new pixel buffer composed asynchronously from a collection of sources.
    func startRequest(_ asyncVideoCompositionRequest: AVAsynchronousVideoCompositionRequest)
    /// Directs the compositor to cancel or finish all pending composition requests.
    func cancelAllPendingVideoCompositionRequests()
    /// A Boolean value that indicates whether the compositor handles source frames that contain wide color properties.
    var supportsWideColorSourceFrames: Bool { get }
    /// A Boolean value that indicates whether the compositor handles source frames that contain high dynamic range properties.
    var supportsHDRSourceFrames: Bool { get }
}

extension AVVideoCompositing {
    /// Does nothing: requests already started finish as the compositor finishes them.
    public func cancelAllPendingVideoCompositionRequests() {}
    /// False.
    public var supportsWideColorSourceFrames: Bool { false }
    /// False.
    public var supportsHDRSourceFrames: Bool { false }
}

/// The pixel aspect ratio of a render context.
public struct AVPixelAspectRatio: Equatable, Sendable {
    /// The horizontal spacing.
    public var horizontalSpacing: Int
    /// The vertical spacing.
    public var verticalSpacing: Int
    /// Creates a pixel aspect ratio.
    public init(horizontalSpacing: Int, verticalSpacing: Int) {
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
    }
}

/// The widths of the edge processing region on each side of a render context's frames.
public struct AVEdgeWidths: Equatable, Sendable {
    /// The left edge width.
    public var left: CGFloat
    /// The top edge width.
    public var top: CGFloat
    /// The right edge width.
    public var right: CGFloat
    /// The bottom edge width.
    public var bottom: CGFloat
    /// Creates edge widths.
    public init(left: CGFloat, top: CGFloat, right: CGFloat, bottom: CGFloat) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
}

/// An object that defines the context in which custom compositors render pixel buffers.
open class AVVideoCompositionRenderContext: NSObject, @unchecked Sendable {
    /// The width and height for rendering frames.
    public let size: CGSize
    /// A transform to apply to the source image to incorporate the render scale, pixel aspect ratio, and edge widths.
    public let renderTransform: CGAffineTransform
    /// The scaling ratio that applies when rendering frames.
    public let renderScale: Float
    /// The pixel aspect ratio for rendered frames.
    public let pixelAspectRatio = AVPixelAspectRatio(horizontalSpacing: 1, verticalSpacing: 1)
    /// The thickness of the edge processing region on the left, top, right, and bottom edges.
    public let edgeWidths = AVEdgeWidths(left: 0, top: 0, right: 0, bottom: 0)
    /// A Boolean value that indicates whether rendering should use high-quality scaling.
    public let highQualityRendering = true
    /// The video composition being rendered.
    public let videoComposition: AVVideoComposition
    private let pool: CVPixelBufferPool

    init(videoComposition: AVVideoComposition, size: CGSize, pool: CVPixelBufferPool) {
        self.videoComposition = videoComposition
        self.size = size
        renderScale = videoComposition.renderScale
        renderTransform = CGAffineTransform(scaleX: CGFloat(videoComposition.renderScale), y: CGFloat(videoComposition.renderScale))
        self.pool = pool
        super.init()
    }

    /// Returns a pixel buffer to use for rendering, from the context's pool; nil when none is free.
    open func newPixelBuffer() -> CVPixelBuffer? { pool.dequeue() }
}
