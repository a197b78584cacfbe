import CoreGraphics
import Foundation

// The properties each built-in filter's typed form configures, as `CoreImage.CIFilterBuiltins` declares them.

/// The properties you use to configure a Gaussian blur filter.
public protocol CIGaussianBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// The standard deviation of the blur, in pixels.
    var radius: Float { get set }
}

/// The properties you use to configure a colour controls filter.
public protocol CIColorControls: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// The saturation: 0 grey, 1 unchanged.
    var saturation: Float { get set }
    /// The brightness added: 0 unchanged.
    var brightness: Float { get set }
    /// The contrast about middle grey: 1 unchanged.
    var contrast: Float { get set }
}

/// The properties you use to configure an exposure adjust filter.
public protocol CIExposureAdjust: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// The exposure change in stops.
    var ev: Float { get set }
}

/// The properties you use to configure a colour matrix filter.
public protocol CIColorMatrix: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// The weights of red, green, blue and alpha in the output's red.
    var rVector: CIVector { get set }
    /// The weights in the output's green.
    var gVector: CIVector { get set }
    /// The weights in the output's blue.
    var bVector: CIVector { get set }
    /// The weights in the output's alpha.
    var aVector: CIVector { get set }
    /// The amounts added to red, green, blue and alpha.
    var biasVector: CIVector { get set }
}

/// The properties you use to configure a colour invert filter.
public protocol CIColorInvert: CIFilterProtocol {
    /// The image to invert.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a sepia tone filter.
public protocol CISepiaTone: CIFilterProtocol {
    /// The image to tone.
    var inputImage: CIImage? { get set }
    /// How much of the effect: 0 none, 1 all.
    var intensity: Float { get set }
}

/// The properties you use to configure a photo effect filter.
public protocol CIPhotoEffect: CIFilterProtocol {
    /// The image to change.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a vignette filter.
public protocol CIVignette: CIFilterProtocol {
    /// The image to darken toward its edges.
    var inputImage: CIImage? { get set }
    /// How much the edges darken: 0 none, 1 to black; negative values lighten.
    var intensity: Float { get set }
    /// How far from the middle the full intensity is reached, in half diagonals.
    var radius: Float { get set }
}

/// The properties you use to configure a filter that maps an image by four corner points.
public protocol CIFourCoordinateGeometryFilter: CIFilterProtocol {
    /// The image to map.
    var inputImage: CIImage? { get set }
    /// The top-left corner point.
    var topLeft: CGPoint { get set }
    /// The top-right corner point.
    var topRight: CGPoint { get set }
    /// The bottom-right corner point.
    var bottomRight: CGPoint { get set }
    /// The bottom-left corner point.
    var bottomLeft: CGPoint { get set }
}

/// The properties you use to configure a perspective correction filter.
public protocol CIPerspectiveCorrection: CIFourCoordinateGeometryFilter {
    /// Whether the output is cropped to the rectangle the corner points map to.
    var crop: Bool { get set }
}

/// The properties you use to configure a perspective transform filter.
public protocol CIPerspectiveTransform: CIFourCoordinateGeometryFilter {}

/// The properties you use to configure a Lanczos scale transform filter.
public protocol CILanczosScaleTransform: CIFilterProtocol {
    /// The image to scale.
    var inputImage: CIImage? { get set }
    /// The scale of the height.
    var scale: Float { get set }
    /// The width's scale over the height's.
    var aspectRatio: Float { get set }
}

/// The properties you use to configure a compositing filter.
public protocol CICompositeOperation: CIFilterProtocol {
    /// The image on top.
    var inputImage: CIImage? { get set }
    /// The image below.
    var backgroundImage: CIImage? { get set }
}

/// The properties you use to configure a color monochrome filter.
public protocol CIColorMonochrome: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The monochrome color to apply to the image.
    var color: CIColor { get set }
    /// The intensity of the monochrome effect: 0 none, 1 all.
    var intensity: Float { get set }
}

/// The properties you use to configure a false color filter.
public protocol CIFalseColor: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The color the image's dark values map to.
    var color0: CIColor { get set }
    /// The color the image's light values map to.
    var color1: CIColor { get set }
}

/// The properties you use to configure a hue adjust filter.
public protocol CIHueAdjust: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The angle, in radians, to turn the hue by.
    var angle: Float { get set }
}

/// The properties you use to configure a white point adjust filter.
public protocol CIWhitePointAdjust: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The new white point color.
    var color: CIColor { get set }
}

/// The properties you use to configure an unsharp mask filter.
public protocol CIUnsharpMask: CIFilterProtocol {
    /// The image to sharpen.
    var inputImage: CIImage? { get set }
    /// The radius, in pixels, of the blur the sharpening compares the image with.
    var radius: Float { get set }
    /// The strength of the sharpening.
    var intensity: Float { get set }
}

/// The properties you use to configure a filter that reduces a region of an image.
public protocol CIAreaReductionFilter: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The region of the image to process.
    var extent: CGRect { get set }
}

/// The properties you use to configure an area average filter.
public protocol CIAreaAverage: CIAreaReductionFilter {}

/// The properties you use to configure a box blur filter.
public protocol CIBoxBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// The radius of the box, in pixels.
    var radius: Float { get set }
}

/// The properties you use to configure a disc blur filter.
public protocol CIDiscBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// The radius of the disc, in pixels.
    var radius: Float { get set }
}

/// The properties you use to configure a median filter.
public protocol CIMedian: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a rectangle morphology maximum filter.
public protocol CIMorphologyRectangleMaximum: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The width of the rectangle, in pixels, rounded to the nearest odd number.
    var width: Float { get set }
    /// The height of the rectangle, in pixels, rounded to the nearest odd number.
    var height: Float { get set }
}

/// The properties you use to configure a rectangle morphology minimum filter.
public protocol CIMorphologyRectangleMinimum: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The width of the rectangle, in pixels, rounded to the nearest odd number.
    var width: Float { get set }
    /// The height of the rectangle, in pixels, rounded to the nearest odd number.
    var height: Float { get set }
}

/// The properties you use to configure a gamma adjust filter.
public protocol CIGammaAdjust: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The power each color component is raised to.
    var power: Float { get set }
}

/// The properties you use to configure a color clamp filter.
public protocol CIColorClamp: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The lowest red, green, blue and alpha values.
    var minComponents: CIVector { get set }
    /// The highest red, green, blue and alpha values.
    var maxComponents: CIVector { get set }
}

/// The properties you use to configure a color polynomial filter.
public protocol CIColorPolynomial: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The coefficients of the cubic polynomial for red, constant term first.
    var redCoefficients: CIVector { get set }
    /// The coefficients of the cubic polynomial for green, constant term first.
    var greenCoefficients: CIVector { get set }
    /// The coefficients of the cubic polynomial for blue, constant term first.
    var blueCoefficients: CIVector { get set }
    /// The coefficients of the cubic polynomial for alpha, constant term first.
    var alphaCoefficients: CIVector { get set }
}

/// The properties you use to configure a linear-to-sRGB tone curve filter.
public protocol CILinearToSRGBToneCurve: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure an sRGB-to-linear tone curve filter.
public protocol CISRGBToneCurveToLinear: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a tone curve filter.
public protocol CIToneCurve: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The curve's first point.
    var point0: CGPoint { get set }
    /// The curve's second point.
    var point1: CGPoint { get set }
    /// The curve's third point.
    var point2: CGPoint { get set }
    /// The curve's fourth point.
    var point3: CGPoint { get set }
    /// The curve's fifth point.
    var point4: CGPoint { get set }
}

/// The properties you use to configure a mix filter.
public protocol CIMix: CIFilterProtocol {
    /// The image to mix in.
    var inputImage: CIImage? { get set }
    /// The image mixed with.
    var backgroundImage: CIImage? { get set }
    /// How much of the input image: 0 the background alone, 1 the input image alone.
    var amount: Float { get set }
}

/// The properties you use to configure a transition filter.
public protocol CITransitionFilter: CIFilterProtocol {
    /// The image the transition starts from.
    var inputImage: CIImage? { get set }
    /// The image the transition ends on.
    var targetImage: CIImage? { get set }
    /// The transition's time, from 0 (the input image) to 1 (the target image).
    var time: Float { get set }
}

/// The properties you use to configure a dissolve transition filter.
public protocol CIDissolveTransition: CITransitionFilter {}

/// The properties you use to configure a blend-with-mask filter.
public protocol CIBlendWithMask: CIFilterProtocol {
    /// The image shown where the mask is.
    var inputImage: CIImage? { get set }
    /// The image shown where the mask is not.
    var backgroundImage: CIImage? { get set }
    /// The mask.
    var maskImage: CIImage? { get set }
}

/// The properties you use to configure a maximum component filter.
public protocol CIMaximumComponent: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a minimum component filter.
public protocol CIMinimumComponent: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a convolution filter.
public protocol CIConvolution: CIFilterProtocol {
    /// The image to convolve.
    var inputImage: CIImage? { get set }
    /// The weights, the top row first.
    var weights: CIVector { get set }
    /// The amount added to each component after the convolution.
    var bias: Float { get set }
}

/// The properties you use to configure an affine clamp filter.
public protocol CIAffineClamp: CIFilterProtocol {
    /// The image to transform and clamp.
    var inputImage: CIImage? { get set }
    /// The transform applied before the edges are carried on.
    var transform: CGAffineTransform { get set }
}

/// The properties you use to configure an affine tile filter.
public protocol CIAffineTile: CIFilterProtocol {
    /// The image to transform and tile.
    var inputImage: CIImage? { get set }
    /// The transform applied before the image is repeated.
    var transform: CGAffineTransform { get set }
}

/// The properties you use to configure a checkerboard generator filter.
public protocol CICheckerboardGenerator: CIFilterProtocol {
    /// The corner of the first square.
    var center: CGPoint { get set }
    /// The first color.
    var color0: CIColor { get set }
    /// The second color.
    var color1: CIColor { get set }
    /// The width of each square, in pixels.
    var width: Float { get set }
    /// The sharpness of the edges between squares.
    var sharpness: Float { get set }
}

/// The properties you use to configure a stripes generator filter.
public protocol CIStripesGenerator: CIFilterProtocol {
    /// The left edge of the first stripe.
    var center: CGPoint { get set }
    /// The first color.
    var color0: CIColor { get set }
    /// The second color.
    var color1: CIColor { get set }
    /// The width of each stripe, in pixels.
    var width: Float { get set }
    /// The sharpness of the edges between stripes.
    var sharpness: Float { get set }
}

/// The properties you use to configure a pixellate filter.
public protocol CIPixellate: CIFilterProtocol {
    /// The image to pixellate.
    var inputImage: CIImage? { get set }
    /// A corner of the grid of blocks.
    var center: CGPoint { get set }
    /// The size of the blocks, in pixels.
    var scale: Float { get set }
}

/// The properties you use to configure a motion blur filter.
public protocol CIMotionBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// How far the blur reaches each way, in pixels.
    var radius: Float { get set }
    /// The direction of the blur, in radians.
    var angle: Float { get set }
}

/// The properties you use to configure a sharpen luminance filter.
public protocol CISharpenLuminance: CIFilterProtocol {
    /// The image to sharpen.
    var inputImage: CIImage? { get set }
    /// The strength of the sharpening.
    var sharpness: Float { get set }
    /// The radius, in pixels, of the blur the sharpening compares the image with.
    var radius: Float { get set }
}

/// The properties you use to configure a QR code generator filter.
public protocol CIQRCodeGenerator: CIFilterProtocol {
    /// The message to encode in the QR code.
    var message: Data { get set }
    /// The QR code correction level: L, M, Q, or H.
    var correctionLevel: String { get set }
}

/// The properties you use to configure a temperature and tint filter.
public protocol CITemperatureAndTint: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// The temperature in kelvin (x) and tint (y) of the light the image's white was taken under.
    var neutral: CIVector { get set }
    /// The temperature (x) and tint (y) that white is adapted to.
    var targetNeutral: CIVector { get set }
}

/// The properties you use to configure a vibrance filter.
public protocol CIVibrance: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// How much the less saturated colours change, from -1 to 1: 0 unchanged.
    var amount: Float { get set }
}

/// The properties you use to configure a highlight and shadow adjust filter.
public protocol CIHighlightShadowAdjust: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// The radius of the surroundings each pixel's brightness is taken from: 0 the pixel alone.
    var radius: Float { get set }
    /// How much the shadows are lifted, from -1 to 1: 0 unchanged.
    var shadowAmount: Float { get set }
    /// How much of the highlights is kept, from 0 to 1: 1 unchanged.
    var highlightAmount: Float { get set }
}
