import CoreGraphics
import Foundation

/// The properties you use to configure a Core Image filter: its output image.
public protocol CIFilterProtocol: NSObjectProtocol {
    /// The image the filter makes of its inputs.
    var outputImage: CIImage? { get }
    /// The filter's own attributes beyond its inputs'; nil for none.
    static func customAttributes() -> [String: Any]?
}

extension CIFilterProtocol {
    /// No attributes beyond the inputs'.
    public static func customAttributes() -> [String: Any]? { nil }
}

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

extension CIFilter {
    /// Generates a quick response (QR) code image.
    public class func qrCodeGenerator() -> CIFilter & CIQRCodeGenerator { QRCodeFilter(definition: .qrCodeGenerator) }
    /// Blurs an image with a Gaussian distribution.
    public class func gaussianBlur() -> CIFilter & CIGaussianBlur { GaussianBlurFilter(definition: .gaussianBlur) }
    /// Adjusts saturation, brightness and contrast.
    public class func colorControls() -> CIFilter & CIColorControls { ColorControlsFilter(definition: .colorControls) }
    /// Adjusts exposure in stops.
    public class func exposureAdjust() -> CIFilter & CIExposureAdjust { ExposureAdjustFilter(definition: .exposureAdjust) }
    /// Multiplies colours by a matrix and adds a bias.
    public class func colorMatrix() -> CIFilter & CIColorMatrix { ColorMatrixFilter(definition: .colorMatrix) }
    /// Inverts colours.
    public class func colorInvert() -> CIFilter & CIColorInvert { ImageOnlyFilter(definition: .colorInvert) }
    /// Maps colours to browns.
    public class func sepiaTone() -> CIFilter & CISepiaTone { SepiaToneFilter(definition: .sepiaTone) }
    /// Makes a black-and-white photo of low contrast.
    public class func photoEffectMono() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: .photoEffectMono) }
    /// Makes a high-contrast photo with exaggerated colour.
    public class func photoEffectChrome() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectChrome"]!) }
    /// Makes a photo with diminished colour.
    public class func photoEffectFade() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectFade"]!) }
    /// Makes a photo look like an instant print: warm and faded.
    public class func photoEffectInstant() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectInstant"]!) }
    /// Makes a black-and-white photo of high contrast.
    public class func photoEffectNoir() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectNoir"]!) }
    /// Makes a photo with a cool, cross-processed look.
    public class func photoEffectProcess() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectProcess"]!) }
    /// Makes a black-and-white photo with little change in contrast.
    public class func photoEffectTonal() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectTonal"]!) }
    /// Makes a photo with a warm, vintage look.
    public class func photoEffectTransfer() -> CIFilter & CIPhotoEffect { ImageOnlyFilter(definition: FilterDefinition.builtIn["CIPhotoEffectTransfer"]!) }
    /// Darkens an image toward its edges.
    public class func vignette() -> CIFilter & CIVignette { VignetteFilter(definition: .vignette) }
    /// Draws a quadrilateral of an image into an upright rectangle.
    public class func perspectiveCorrection() -> CIFilter & CIPerspectiveCorrection { PerspectiveFilter(definition: .perspectiveCorrection) }
    /// Draws an image into a quadrilateral, as if seen from another place.
    public class func perspectiveTransform() -> CIFilter & CIPerspectiveTransform { PerspectiveFilter(definition: .perspectiveTransform) }
    /// Scales an image with a Lanczos kernel.
    public class func lanczosScaleTransform() -> CIFilter & CILanczosScaleTransform { LanczosFilter(definition: .lanczosScaleTransform) }
    /// Remaps colors so they fall within shades of a single color.
    public class func colorMonochrome() -> CIFilter & CIColorMonochrome { ColorEffectFilter(definition: .colorMonochrome) }
    /// Maps luminance to a color ramp of two colors.
    public class func falseColor() -> CIFilter & CIFalseColor { ColorEffectFilter(definition: .falseColor) }
    /// Changes the overall hue, or tint, of the source pixels.
    public class func hueAdjust() -> CIFilter & CIHueAdjust { ColorEffectFilter(definition: .hueAdjust) }
    /// Adjusts the reference white point for an image and maps all colors in the source using the new reference.
    public class func whitePointAdjust() -> CIFilter & CIWhitePointAdjust { ColorEffectFilter(definition: .whitePointAdjust) }
    /// Increases an image's contrast between two colors, sharpening its edges.
    public class func unsharpMask() -> CIFilter & CIUnsharpMask { UnsharpMaskFilter(definition: .unsharpMask) }
    /// Returns a 1 x 1 pixel image that contains the average color for the region of interest.
    public class func areaAverage() -> CIFilter & CIAreaAverage { AreaReductionFilter(definition: .areaAverage) }
    /// Blurs an image using a box-shaped convolution kernel.
    public class func boxBlur() -> CIFilter & CIBoxBlur { RadiusFilter(definition: .named("CIBoxBlur")) }
    /// Blurs an image using a disc-shaped convolution kernel.
    public class func discBlur() -> CIFilter & CIDiscBlur { RadiusFilter(definition: .named("CIDiscBlur")) }
    /// Reduces noise by replacing each pixel with the median of the pixels around it.
    public class func median() -> CIFilter & CIMedian { ImageOnlyFilter(definition: .named("CIMedianFilter")) }
    /// Lightens an image by replacing each pixel with the maximum of a rectangle around it.
    public class func morphologyRectangleMaximum() -> CIFilter & CIMorphologyRectangleMaximum {
        RectangleFilter(definition: .named("CIMorphologyRectangleMaximum"))
    }
    /// Darkens an image by replacing each pixel with the minimum of a rectangle around it.
    public class func morphologyRectangleMinimum() -> CIFilter & CIMorphologyRectangleMinimum {
        RectangleFilter(definition: .named("CIMorphologyRectangleMinimum"))
    }
    /// Adjusts midtone brightness.
    public class func gammaAdjust() -> CIFilter & CIGammaAdjust { CurveFilter(definition: .gammaAdjust) }
    /// Modifies color values to keep them within a specified range.
    public class func colorClamp() -> CIFilter & CIColorClamp { CurveFilter(definition: .colorClamp) }
    /// Modifies the pixel values in an image by applying a set of cubic polynomials.
    public class func colorPolynomial() -> CIFilter & CIColorPolynomial { CurveFilter(definition: .colorPolynomial) }
    /// Maps color intensity from a linear gamma curve to the sRGB color space.
    public class func linearToSRGBToneCurve() -> CIFilter & CILinearToSRGBToneCurve { ImageOnlyFilter(definition: .linearToSRGBToneCurve) }
    /// Maps color intensity from the sRGB color space to a linear gamma curve.
    public class func sRGBToneCurveToLinear() -> CIFilter & CISRGBToneCurveToLinear { ImageOnlyFilter(definition: .sRGBToneCurveToLinear) }
    /// Adjusts tone response of the R, G, and B channels of an image.
    public class func toneCurve() -> CIFilter & CIToneCurve { CurveFilter(definition: .toneCurve) }
    /// Multiplies the color components of two input images, alpha included.
    public class func multiplyCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIMultiplyCompositing")) }
    /// Uses an amount parameter to interpolate between an image and a background image.
    public class func mix() -> CIFilter & CIMix { MixingFilter(definition: .named("CIMix")) }
    /// Uses a dissolve to transition from one image to another.
    public class func dissolveTransition() -> CIFilter & CIDissolveTransition { MixingFilter(definition: .named("CIDissolveTransition")) }
    /// Uses values from a grayscale mask to interpolate between an image and the background.
    public class func blendWithMask() -> CIFilter & CIBlendWithMask { MixingFilter(definition: .named("CIBlendWithMask")) }
    /// Uses values from a mask image's alpha to interpolate between an image and the background.
    public class func blendWithAlphaMask() -> CIFilter & CIBlendWithMask { MixingFilter(definition: .named("CIBlendWithAlphaMask")) }
    /// Returns a grayscale image from the maximum of the red, green, and blue color components.
    public class func maximumComponent() -> CIFilter & CIMaximumComponent { ImageOnlyFilter(definition: .named("CIMaximumComponent")) }
    /// Returns a grayscale image from the minimum of the red, green, and blue color components.
    public class func minimumComponent() -> CIFilter & CIMinimumComponent { ImageOnlyFilter(definition: .named("CIMinimumComponent")) }
    /// Modifies the pixels of an image by a convolution with a 3 x 3 matrix.
    public class func convolution3X3() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolution3X3")) }
    /// Modifies the pixels of an image by a convolution with a 5 x 5 matrix.
    public class func convolution5X5() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolution5X5")) }
    /// Modifies the pixels of an image by a convolution with a 7 x 7 matrix.
    public class func convolution7X7() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolution7X7")) }
    /// Modifies the pixels of an image by a convolution with a horizontal row of 9 weights.
    public class func convolution9Horizontal() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolution9Horizontal")) }
    /// Modifies the pixels of an image by a convolution with a vertical column of 9 weights.
    public class func convolution9Vertical() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolution9Vertical")) }
    /// Modifies the color components of an image, alpha left alone, by a convolution with a 3 x 3 matrix.
    public class func convolutionRGB3X3() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolutionRGB3X3")) }
    /// Modifies the color components of an image, alpha left alone, by a convolution with a 5 x 5 matrix.
    public class func convolutionRGB5X5() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolutionRGB5X5")) }
    /// Modifies the color components of an image, alpha left alone, by a convolution with a 7 x 7 matrix.
    public class func convolutionRGB7X7() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolutionRGB7X7")) }
    /// Modifies the color components of an image, alpha left alone, by a convolution with a horizontal row of 9 weights.
    public class func convolutionRGB9Horizontal() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolutionRGB9Horizontal")) }
    /// Modifies the color components of an image, alpha left alone, by a convolution with a vertical column of 9 weights.
    public class func convolutionRGB9Vertical() -> CIFilter & CIConvolution { ConvolutionFilter(definition: .named("CIConvolutionRGB9Vertical")) }
    /// Performs an affine transformation on an image and then clamps the pixels at its edge, extending them outward.
    public class func affineClamp() -> CIFilter & CIAffineClamp { AffineTileFilter(definition: .affineClamp) }
    /// Performs an affine transformation on an image and then tiles the transformed image.
    public class func affineTile() -> CIFilter & CIAffineTile { AffineTileFilter(definition: .affineTile) }
    /// Generates a pattern of squares that alternate between two colors.
    public class func checkerboardGenerator() -> CIFilter & CICheckerboardGenerator { PatternFilter(definition: .checkerboardGenerator) }
    /// Generates a stripe pattern of two colors.
    public class func stripesGenerator() -> CIFilter & CIStripesGenerator { PatternFilter(definition: .stripesGenerator) }
    /// Makes an image blocky by mapping it to colored squares whose color is defined by the replaced pixels.
    public class func pixellate() -> CIFilter & CIPixellate { StylizeFilter(definition: .pixellate) }
    /// Blurs an image to simulate the effect of using a camera that moves a specified angle and distance while capturing the image.
    public class func motionBlur() -> CIFilter & CIMotionBlur { StylizeFilter(definition: .motionBlur) }
    /// Increases image detail by sharpening, working on the luminance of the image.
    public class func sharpenLuminance() -> CIFilter & CISharpenLuminance { StylizeFilter(definition: .sharpenLuminance) }
    /// Places an image over another.
    public class func sourceOverCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .sourceOverCompositing) }
    /// Multiplies the input image's colours by the background image's.
    public class func multiplyBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIMultiplyBlendMode")) }
    /// Multiplies the inverses of the input and background images' colours, brightening the background.
    public class func screenBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIScreenBlendMode")) }
    /// Multiplies or screens the input image's colours, depending on the background's.
    public class func overlayBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIOverlayBlendMode")) }
    /// Keeps the darker of the input and background images' colours.
    public class func darkenBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIDarkenBlendMode")) }
    /// Keeps the lighter of the input and background images' colours.
    public class func lightenBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CILightenBlendMode")) }
    /// Brightens the background image's colours to reflect the input image's.
    public class func colorDodgeBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIColorDodgeBlendMode")) }
    /// Darkens the background image's colours to reflect the input image's.
    public class func colorBurnBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIColorBurnBlendMode")) }
    /// Multiplies or screens the colours, depending on the input image's.
    public class func hardLightBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIHardLightBlendMode")) }
    /// Darkens or lightens the colours, depending on the input image's.
    public class func softLightBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CISoftLightBlendMode")) }
    /// Subtracts the darker of the input and background images' colours from the lighter.
    public class func differenceBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIDifferenceBlendMode")) }
    /// Subtracts colours as the difference blend mode does, with lower contrast.
    public class func exclusionBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIExclusionBlendMode")) }
    /// Adds the input image's colours to the background image's, brightening it.
    public class func additionCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIAdditionCompositing")) }
    /// Keeps the input image only where the background image is.
    public class func sourceInCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CISourceInCompositing")) }
    /// Keeps the input image only where the background image is not.
    public class func sourceOutCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CISourceOutCompositing")) }
    /// Places the input image over the background image, inside the background's shape.
    public class func sourceAtopCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CISourceAtopCompositing")) }
}

/// A built-in filter with its inputs as typed properties.
class TypedFilter: CIFilter, @unchecked Sendable {
    /// The input image.
    var inputImage: CIImage? {
        get { value(forKey: kCIInputImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputImageKey) }
    }

    func float(_ key: String) -> Float { Float(FilterInputs(values: [key: value(forKey: key) as Any]).number(key) ?? 0) }
    func setFloat(_ value: Float, _ key: String) { setValue(NSNumber(value: value), forKey: key) }
    func vector(_ key: String) -> CIVector { value(forKey: key) as? CIVector ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
}

final class ImageOnlyFilter: TypedFilter, CIColorInvert, CIPhotoEffect, CIMedian, CILinearToSRGBToneCurve, CISRGBToneCurveToLinear,
    CIMaximumComponent, CIMinimumComponent, @unchecked Sendable
{}

final class MixingFilter: TypedFilter, CIMix, CIDissolveTransition, CIBlendWithMask, @unchecked Sendable {
    var backgroundImage: CIImage? {
        get { value(forKey: kCIInputBackgroundImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputBackgroundImageKey) }
    }
    var targetImage: CIImage? {
        get { value(forKey: kCIInputTargetImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputTargetImageKey) }
    }
    var maskImage: CIImage? {
        get { value(forKey: kCIInputMaskImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputMaskImageKey) }
    }
    var amount: Float {
        get { float(kCIInputAmountKey) }
        set { setFloat(newValue, kCIInputAmountKey) }
    }
    var time: Float {
        get { float(kCIInputTimeKey) }
        set { setFloat(newValue, kCIInputTimeKey) }
    }
}

final class CurveFilter: TypedFilter, CIGammaAdjust, CIColorClamp, CIColorPolynomial, CIToneCurve, @unchecked Sendable {
    private func point(_ key: String) -> CGPoint {
        let vector = vector(key)
        return CGPoint(x: vector.x, y: vector.y)
    }
    private func setPoint(_ point: CGPoint, _ key: String) { setValue(CIVector(cgPoint: point), forKey: key) }

    var power: Float {
        get { float("inputPower") }
        set { setFloat(newValue, "inputPower") }
    }
    var minComponents: CIVector {
        get { vector("inputMinComponents") }
        set { setValue(newValue, forKey: "inputMinComponents") }
    }
    var maxComponents: CIVector {
        get { vector("inputMaxComponents") }
        set { setValue(newValue, forKey: "inputMaxComponents") }
    }
    var redCoefficients: CIVector {
        get { vector("inputRedCoefficients") }
        set { setValue(newValue, forKey: "inputRedCoefficients") }
    }
    var greenCoefficients: CIVector {
        get { vector("inputGreenCoefficients") }
        set { setValue(newValue, forKey: "inputGreenCoefficients") }
    }
    var blueCoefficients: CIVector {
        get { vector("inputBlueCoefficients") }
        set { setValue(newValue, forKey: "inputBlueCoefficients") }
    }
    var alphaCoefficients: CIVector {
        get { vector("inputAlphaCoefficients") }
        set { setValue(newValue, forKey: "inputAlphaCoefficients") }
    }
    var point0: CGPoint {
        get { point("inputPoint0") }
        set { setPoint(newValue, "inputPoint0") }
    }
    var point1: CGPoint {
        get { point("inputPoint1") }
        set { setPoint(newValue, "inputPoint1") }
    }
    var point2: CGPoint {
        get { point("inputPoint2") }
        set { setPoint(newValue, "inputPoint2") }
    }
    var point3: CGPoint {
        get { point("inputPoint3") }
        set { setPoint(newValue, "inputPoint3") }
    }
    var point4: CGPoint {
        get { point("inputPoint4") }
        set { setPoint(newValue, "inputPoint4") }
    }
}

final class RadiusFilter: TypedFilter, CIBoxBlur, CIDiscBlur, @unchecked Sendable {
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
}

final class RectangleFilter: TypedFilter, CIMorphologyRectangleMaximum, CIMorphologyRectangleMinimum, @unchecked Sendable {
    var width: Float {
        get { float(kCIInputWidthKey) }
        set { setFloat(newValue, kCIInputWidthKey) }
    }
    var height: Float {
        get { float("inputHeight") }
        set { setFloat(newValue, "inputHeight") }
    }
}

final class GaussianBlurFilter: TypedFilter, CIGaussianBlur, @unchecked Sendable {
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
}

final class ColorControlsFilter: TypedFilter, CIColorControls, @unchecked Sendable {
    var saturation: Float {
        get { float(kCIInputSaturationKey) }
        set { setFloat(newValue, kCIInputSaturationKey) }
    }
    var brightness: Float {
        get { float(kCIInputBrightnessKey) }
        set { setFloat(newValue, kCIInputBrightnessKey) }
    }
    var contrast: Float {
        get { float(kCIInputContrastKey) }
        set { setFloat(newValue, kCIInputContrastKey) }
    }
}

final class ExposureAdjustFilter: TypedFilter, CIExposureAdjust, @unchecked Sendable {
    var ev: Float {
        get { float(kCIInputEVKey) }
        set { setFloat(newValue, kCIInputEVKey) }
    }
}

final class ColorMatrixFilter: TypedFilter, CIColorMatrix, @unchecked Sendable {
    var rVector: CIVector {
        get { vector("inputRVector") }
        set { setValue(newValue, forKey: "inputRVector") }
    }
    var gVector: CIVector {
        get { vector("inputGVector") }
        set { setValue(newValue, forKey: "inputGVector") }
    }
    var bVector: CIVector {
        get { vector("inputBVector") }
        set { setValue(newValue, forKey: "inputBVector") }
    }
    var aVector: CIVector {
        get { vector("inputAVector") }
        set { setValue(newValue, forKey: "inputAVector") }
    }
    var biasVector: CIVector {
        get { vector("inputBiasVector") }
        set { setValue(newValue, forKey: "inputBiasVector") }
    }
}

final class SepiaToneFilter: TypedFilter, CISepiaTone, @unchecked Sendable {
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
    }
}

final class LanczosFilter: TypedFilter, CILanczosScaleTransform, @unchecked Sendable {
    var scale: Float {
        get { float(kCIInputScaleKey) }
        set { setFloat(newValue, kCIInputScaleKey) }
    }
    var aspectRatio: Float {
        get { float(kCIInputAspectRatioKey) }
        set { setFloat(newValue, kCIInputAspectRatioKey) }
    }
}

final class CompositeFilter: TypedFilter, CICompositeOperation, @unchecked Sendable {
    var backgroundImage: CIImage? {
        get { value(forKey: kCIInputBackgroundImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputBackgroundImageKey) }
    }
}

final class ColorEffectFilter: TypedFilter, CIColorMonochrome, CIFalseColor, CIHueAdjust, CIWhitePointAdjust, @unchecked Sendable {
    private func color(_ key: String) -> CIColor { value(forKey: key) as? CIColor ?? CIColor(red: 0, green: 0, blue: 0) }

    var color: CIColor {
        get { color(kCIInputColorKey) }
        set { setValue(newValue, forKey: kCIInputColorKey) }
    }
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
    }
    var color0: CIColor {
        get { color("inputColor0") }
        set { setValue(newValue, forKey: "inputColor0") }
    }
    var color1: CIColor {
        get { color("inputColor1") }
        set { setValue(newValue, forKey: "inputColor1") }
    }
    var angle: Float {
        get { float(kCIInputAngleKey) }
        set { setFloat(newValue, kCIInputAngleKey) }
    }
}

final class UnsharpMaskFilter: TypedFilter, CIUnsharpMask, @unchecked Sendable {
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
    }
}

final class AreaReductionFilter: TypedFilter, CIAreaAverage, @unchecked Sendable {
    var extent: CGRect {
        get { vector(kCIInputExtentKey).cgRectValue }
        set { setValue(CIVector(cgRect: newValue), forKey: kCIInputExtentKey) }
    }
}

final class ConvolutionFilter: TypedFilter, CIConvolution, @unchecked Sendable {
    var weights: CIVector {
        get { vector(kCIInputWeightsKey) }
        set { setValue(newValue, forKey: kCIInputWeightsKey) }
    }
    var bias: Float {
        get { float(kCIInputBiasKey) }
        set { setFloat(newValue, kCIInputBiasKey) }
    }
}

final class AffineTileFilter: TypedFilter, CIAffineClamp, CIAffineTile, @unchecked Sendable {
    var transform: CGAffineTransform {
        get { value(forKey: kCIInputTransformKey) as? CGAffineTransform ?? .identity }
        set { setValue(newValue, forKey: kCIInputTransformKey) }
    }
}

final class PatternFilter: CIFilter, CICheckerboardGenerator, CIStripesGenerator, @unchecked Sendable {
    private func color(_ key: String) -> CIColor { value(forKey: key) as? CIColor ?? CIColor(red: 0, green: 0, blue: 0) }
    private func float(_ key: String) -> Float { Float(FilterInputs(values: [key: value(forKey: key) as Any]).number(key) ?? 0) }

    var center: CGPoint {
        get { (value(forKey: kCIInputCenterKey) as? CIVector).map { CGPoint(x: $0.x, y: $0.y) } ?? .zero }
        set { setValue(CIVector(cgPoint: newValue), forKey: kCIInputCenterKey) }
    }
    var color0: CIColor {
        get { color("inputColor0") }
        set { setValue(newValue, forKey: "inputColor0") }
    }
    var color1: CIColor {
        get { color("inputColor1") }
        set { setValue(newValue, forKey: "inputColor1") }
    }
    var width: Float {
        get { float(kCIInputWidthKey) }
        set { setValue(NSNumber(value: newValue), forKey: kCIInputWidthKey) }
    }
    var sharpness: Float {
        get { float(kCIInputSharpnessKey) }
        set { setValue(NSNumber(value: newValue), forKey: kCIInputSharpnessKey) }
    }
}

final class StylizeFilter: TypedFilter, CIPixellate, CIMotionBlur, CISharpenLuminance, @unchecked Sendable {
    var center: CGPoint {
        get { CGPoint(x: vector(kCIInputCenterKey).x, y: vector(kCIInputCenterKey).y) }
        set { setValue(CIVector(cgPoint: newValue), forKey: kCIInputCenterKey) }
    }
    var scale: Float {
        get { float(kCIInputScaleKey) }
        set { setFloat(newValue, kCIInputScaleKey) }
    }
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
    var angle: Float {
        get { float(kCIInputAngleKey) }
        set { setFloat(newValue, kCIInputAngleKey) }
    }
    var sharpness: Float {
        get { float(kCIInputSharpnessKey) }
        set { setFloat(newValue, kCIInputSharpnessKey) }
    }
}

final class QRCodeFilter: CIFilter, CIQRCodeGenerator, @unchecked Sendable {
    var message: Data {
        get { value(forKey: "inputMessage") as? Data ?? Data() }
        set { setValue(newValue, forKey: "inputMessage") }
    }
    var correctionLevel: String {
        get { value(forKey: "inputCorrectionLevel") as? String ?? "M" }
        set { setValue(newValue, forKey: "inputCorrectionLevel") }
    }
}

final class VignetteFilter: TypedFilter, CIVignette, @unchecked Sendable {
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
    }
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
}

final class PerspectiveFilter: TypedFilter, CIPerspectiveCorrection, CIPerspectiveTransform, @unchecked Sendable {
    private func point(_ key: String) -> CGPoint {
        let vector = vector(key)
        return CGPoint(x: vector.x, y: vector.y)
    }
    private func setPoint(_ point: CGPoint, _ key: String) { setValue(CIVector(cgPoint: point), forKey: key) }

    var topLeft: CGPoint {
        get { point("inputTopLeft") }
        set { setPoint(newValue, "inputTopLeft") }
    }
    var topRight: CGPoint {
        get { point("inputTopRight") }
        set { setPoint(newValue, "inputTopRight") }
    }
    var bottomRight: CGPoint {
        get { point("inputBottomRight") }
        set { setPoint(newValue, "inputBottomRight") }
    }
    var bottomLeft: CGPoint {
        get { point("inputBottomLeft") }
        set { setPoint(newValue, "inputBottomLeft") }
    }
    var crop: Bool {
        get { float("inputCrop") != 0 }
        set { setValue(NSNumber(value: newValue), forKey: "inputCrop") }
    }
}
