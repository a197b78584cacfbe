import CoreGraphics
import Foundation

/// The properties you use to configure a triangle tile filter.
public protocol CITriangleTile: CIFilterProtocol {
    /// The image to tile.
    var inputImage: CIImage? { get set }
    /// A corner of the triangle that is tiled.
    var center: CGPoint { get set }
    /// The angle, in radians, of the triangle's first side.
    var angle: Float { get set }
    /// The length of the triangle's sides.
    var width: Float { get set }
}

/// The properties you use to configure a triangle kaleidoscope filter.
public protocol CITriangleKaleidoscope: CIFilterProtocol {
    /// The image to reflect.
    var inputImage: CIImage? { get set }
    /// A corner of the triangle that is reflected.
    var point: CGPoint { get set }
    /// The length of the triangle's sides.
    var size: Float { get set }
    /// The angle, in radians, of the triangle's first side.
    var rotation: Float { get set }
    /// How much fainter each reflection is, by its distance from the triangle.
    var decay: Float { get set }
}

/// The properties you use to configure an op tile filter.
public protocol CIOpTile: CIFilterProtocol {
    /// The image to tile.
    var inputImage: CIImage? { get set }
    /// The middle of one of the squares.
    var center: CGPoint { get set }
    /// How much each square shrinks the image about its middle.
    var scale: Float { get set }
    /// The angle, in radians, of the squares.
    var angle: Float { get set }
    /// The width of the squares.
    var width: Float { get set }
}

/// The properties you use to configure a perspective tile filter.
public protocol CIPerspectiveTile: CIFilterProtocol {
    /// The image to tile.
    var inputImage: CIImage? { get set }
    /// Where the image's top-left corner is drawn.
    var topLeft: CGPoint { get set }
    /// Where the image's top-right corner is drawn.
    var topRight: CGPoint { get set }
    /// Where the image's bottom-right corner is drawn.
    var bottomRight: CGPoint { get set }
    /// Where the image's bottom-left corner is drawn.
    var bottomLeft: CGPoint { get set }
}

/// The properties you use to configure a maximum scale transform filter.
public protocol CIMaximumScaleTransform: CIFilterProtocol {
    /// The image to scale.
    var inputImage: CIImage? { get set }
    /// The scale of the image.
    var scale: Float { get set }
    /// The scale across relative to the scale up.
    var aspectRatio: Float { get set }
}

/// The properties you use to configure an edge-preserving upsample filter.
public protocol CIEdgePreserveUpsample: CIFilterProtocol {
    /// The large image whose edges are followed.
    var inputImage: CIImage? { get set }
    /// The small image to bring up to the large image's size.
    var smallImage: CIImage? { get set }
    /// How far around, in small pixels, the mean reaches.
    var spatialSigma: Float { get set }
    /// How different in luma a small pixel may be and still count.
    var lumaSigma: Float { get set }
}

/// The properties you use to configure a tone map headroom filter.
public protocol CIToneMapHeadroom: CIFilterProtocol {
    /// The image to tone map.
    var inputImage: CIImage? { get set }
    /// The headroom of the image's values.
    var sourceHeadroom: Float { get set }
    /// The headroom to bring them within.
    var targetHeadroom: Float { get set }
}

/// The properties you use to configure a Canny edge detector filter.
public protocol CICannyEdgeDetector: CIFilterProtocol {
    /// The image whose edges are found.
    var inputImage: CIImage? { get set }
    /// The sigma of the Gaussian the image is smoothed by first.
    var gaussianSigma: Float { get set }
    /// Whether edges are found in perceptual rather than linear values.
    var perceptual: Bool { get set }
    /// The gradient above which a pixel is an edge.
    var thresholdHigh: Float { get set }
    /// The gradient above which a pixel next to an edge is an edge too.
    var thresholdLow: Float { get set }
    /// How many times the edges grow into the pixels above the low threshold.
    var hysteresisPasses: Int { get set }
}

/// The properties you use to configure a Gabor gradients filter.
public protocol CIGaborGradients: CIFilterProtocol {
    /// The image whose gradients are found.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a distance gradient from red mask filter.
public protocol CIDistanceGradientFromRedMask: CIFilterProtocol {
    /// The image whose red marks the mask.
    var inputImage: CIImage? { get set }
    /// The distance that is shown as white.
    var maximumDistance: Float { get set }
}

/// The properties you use to configure a signed distance gradient from red mask filter.
public protocol CISignedDistanceGradientFromRedMask: CIFilterProtocol {
    /// The image whose red marks the mask.
    var inputImage: CIImage? { get set }
    /// The distance that is shown as 1 (and -1 inside the mask).
    var maximumDistance: Float { get set }
}

/// The properties you use to configure an area bounds red filter.
public protocol CIAreaBoundsRed: CIAreaReductionFilter {}

/// The typed form of the triangle, op-art and perspective tiles, the maximum scale, the
/// edge-preserving upsample, the headroom tone map, Canny's and Gabor's edges and the distance
/// gradient: each property reads and writes its input by Apple's key.
final class TileAndEdgeTypedFilter: TypedFilter, CITriangleTile, CITriangleKaleidoscope, CIOpTile, CIPerspectiveTile, CIMaximumScaleTransform,
    CIEdgePreserveUpsample, CIToneMapHeadroom, CICannyEdgeDetector, CIGaborGradients, CIDistanceGradientFromRedMask,
    CISignedDistanceGradientFromRedMask, CIAreaBoundsRed,
    @unchecked Sendable
{
    @Input(kCIInputExtentKey) var extent: CGRect
    @Input(kCIInputCenterKey) var center: CGPoint
    @Input(kCIInputAngleKey) var angle: Float
    @Input(kCIInputWidthKey) var width: Float
    @Input("inputPoint") var point: CGPoint
    @Input("inputSize") var size: Float
    @Input("inputRotation") var rotation: Float
    @Input("inputDecay") var decay: Float
    @Input(kCIInputScaleKey) var scale: Float
    @Input("inputTopLeft") var topLeft: CGPoint
    @Input("inputTopRight") var topRight: CGPoint
    @Input("inputBottomRight") var bottomRight: CGPoint
    @Input("inputBottomLeft") var bottomLeft: CGPoint
    @Input(kCIInputAspectRatioKey) var aspectRatio: Float
    @Input("inputSmallImage") var smallImage: CIImage?
    @Input("inputSpatialSigma") var spatialSigma: Float
    @Input("inputLumaSigma") var lumaSigma: Float
    @Input("inputSourceHeadroom") var sourceHeadroom: Float
    @Input("inputTargetHeadroom") var targetHeadroom: Float
    @Input("inputGaussianSigma") var gaussianSigma: Float
    @Input("inputPerceptual") var perceptual: Bool
    @Input("inputThresholdHigh") var thresholdHigh: Float
    @Input("inputThresholdLow") var thresholdLow: Float
    @Input("inputHysteresisPasses") var hysteresisPasses: Int
    @Input("inputMaximumDistance") var maximumDistance: Float
}

extension CIFilter {
    /// Produces an image whose values are the signed distance of each pixel from a red mask.
    public class func signedDistanceGradientFromRedMask() -> CIFilter & CISignedDistanceGradientFromRedMask {
        TileAndEdgeTypedFilter(definition: .named("CISignedDistanceGradientFromRedMask"))
    }
    /// Calculates the approximate bounding box of the pixels of an area of an image whose red is not zero.
    public class func areaBoundsRed() -> CIFilter & CIAreaBoundsRed { TileAndEdgeTypedFilter(definition: .named("CIAreaBoundsRed")) }
    /// Maps a triangular portion of an image to a triangular area and then tiles the result.
    public class func triangleTile() -> CIFilter & CITriangleTile { TileAndEdgeTypedFilter(definition: .named("CITriangleTile")) }
    /// Maps a triangular portion of an image to a triangular area and then generates a kaleidoscope effect.
    public class func triangleKaleidoscope() -> CIFilter & CITriangleKaleidoscope { TileAndEdgeTypedFilter(definition: .named("CITriangleKaleidoscope")) }
    /// Segments an image, applying any specified scaling and rotation, and then assembles the image again to give an op art appearance.
    public class func opTile() -> CIFilter & CIOpTile { TileAndEdgeTypedFilter(definition: .named("CIOpTile")) }
    /// Applies a perspective transform to an image and then tiles the result.
    public class func perspectiveTile() -> CIFilter & CIPerspectiveTile { TileAndEdgeTypedFilter(definition: .named("CIPerspectiveTile")) }
    /// Produces a scaled version of a source image that uses the maximum of neighboring pixels instead of linear averaging.
    public class func maximumScaleTransform() -> CIFilter & CIMaximumScaleTransform { TileAndEdgeTypedFilter(definition: .named("CIMaximumScaleTransform")) }
    /// Upsamples a small image to the size of the input image, using the luminance of the input image to preserve detail.
    public class func edgePreserveUpsample() -> CIFilter & CIEdgePreserveUpsample { TileAndEdgeTypedFilter(definition: .named("CIEdgePreserveUpsampleFilter")) }
    /// Tone maps an image from one headroom to another.
    public class func toneMapHeadroom() -> CIFilter & CIToneMapHeadroom { TileAndEdgeTypedFilter(definition: .named("CIToneMapHeadroom")) }
    /// Applies the Canny edge-detection algorithm to an image.
    public class func cannyEdgeDetector() -> CIFilter & CICannyEdgeDetector { TileAndEdgeTypedFilter(definition: .named("CICannyEdgeDetector")) }
    /// Applies a multichannel 5 by 5 Gabor gradient filter to an image.
    public class func gaborGradients() -> CIFilter & CIGaborGradients { TileAndEdgeTypedFilter(definition: .named("CIGaborGradients")) }
    /// Produces an image whose values are the distance of each pixel from a red mask.
    public class func distanceGradientFromRedMask() -> CIFilter & CIDistanceGradientFromRedMask {
        TileAndEdgeTypedFilter(definition: .named("CIDistanceGradientFromRedMask"))
    }
}
