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
    /// Adapts an image's white from one temperature and tint to another.
    public class func temperatureAndTint() -> CIFilter & CITemperatureAndTint { TemperatureAndTintFilter(definition: .temperatureAndTint) }
    /// Changes the saturation of an image's less saturated colours more than of its saturated ones.
    public class func vibrance() -> CIFilter & CIVibrance { VibranceFilter(definition: .vibrance) }
    /// Lifts an image's shadows and lowers its highlights.
    public class func highlightShadowAdjust() -> CIFilter & CIHighlightShadowAdjust { HighlightShadowAdjustFilter(definition: .highlightShadowAdjust) }
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
    public class func unsharpMask() -> CIFilter & CIUnsharpMask { StylizeFilter(definition: .unsharpMask) }
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
    /// Divides the background image's colours by the input image's.
    public class func divideBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIDivideBlendMode")) }
    /// Subtracts the input image's colours from the background image's.
    public class func subtractBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CISubtractBlendMode")) }
    /// Darkens the background image by the sum of the two images' colours less one.
    public class func linearBurnBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CILinearBurnBlendMode")) }
    /// Brightens the background image by adding the input image's colours.
    public class func linearDodgeBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CILinearDodgeBlendMode")) }
    /// Burns or dodges the background image linearly, depending on the input image's colours.
    public class func linearLightBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CILinearLightBlendMode")) }
    /// Replaces the background image's colours, depending on the input image's.
    public class func pinLightBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIPinLightBlendMode")) }
    /// Burns or dodges the background image's colours by contrast, depending on the input image's.
    public class func vividLightBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIVividLightBlendMode")) }
    /// Uses the background image's luminance and saturation with the input image's hue.
    public class func hueBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIHueBlendMode")) }
    /// Uses the background image's luminance and hue with the input image's saturation.
    public class func saturationBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CISaturationBlendMode")) }
    /// Uses the background image's luminance with the input image's hue and saturation.
    public class func colorBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIColorBlendMode")) }
    /// Uses the background image's hue and saturation with the input image's luminance.
    public class func luminosityBlendMode() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CILuminosityBlendMode")) }
    /// Keeps the larger of the two images' values, component by component.
    public class func maximumCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIMaximumCompositing")) }
    /// Keeps the smaller of the two images' values, component by component.
    public class func minimumCompositing() -> CIFilter & CICompositeOperation { CompositeFilter(definition: .blendMode("CIMinimumCompositing")) }
    /// Generates a gradient that varies along a line between two points.
    public class func linearGradient() -> CIFilter & CILinearGradient { ComputedTypedFilter(definition: .named("CILinearGradient")) }
    /// Generates a gradient that varies smoothly along a line between two points.
    public class func smoothLinearGradient() -> CIFilter & CISmoothLinearGradient { ComputedTypedFilter(definition: .named("CISmoothLinearGradient")) }
    /// Generates a gradient that varies radially between two circles.
    public class func radialGradient() -> CIFilter & CIRadialGradient { ComputedTypedFilter(definition: .named("CIRadialGradient")) }
    /// Generates a gradient that varies from one color to another by a Gaussian distribution.
    public class func gaussianGradient() -> CIFilter & CIGaussianGradient { ComputedTypedFilter(definition: .named("CIGaussianGradient")) }
    /// Generates an image of infinite extent whose pixel values are random.
    public class func randomGenerator() -> CIFilter & CIRandomGenerator { ComputedTypedFilter(definition: .named("CIRandomGenerator")) }
    /// Generates a rounded rectangle of a color.
    public class func roundedRectangleGenerator() -> CIFilter & CIRoundedRectangleGenerator {
        ComputedTypedFilter(definition: .named("CIRoundedRectangleGenerator"))
    }
    /// Calculates the maximum color components of a specified area of the image.
    public class func areaMaximum() -> CIFilter & CIAreaMaximum { ComputedTypedFilter(definition: .named("CIAreaMaximum")) }
    /// Calculates the minimum color component values for a specified area of the image.
    public class func areaMinimum() -> CIFilter & CIAreaMinimum { ComputedTypedFilter(definition: .named("CIAreaMinimum")) }
    /// Calculates minimum and maximum color components for a specified area of the image.
    public class func areaMinMax() -> CIFilter & CIAreaMinMax { ComputedTypedFilter(definition: .named("CIAreaMinMax")) }
    /// Calculates the minimum and maximum red component value.
    public class func areaMinMaxRed() -> CIFilter & CIAreaMinMaxRed { ComputedTypedFilter(definition: .named("CIAreaMinMaxRed")) }
    /// Calculates the average color for each row of a specified area of the image.
    public class func rowAverage() -> CIFilter & CIRowAverage { ComputedTypedFilter(definition: .named("CIRowAverage")) }
    /// Calculates the average color for each column of a specified area of the image.
    public class func columnAverage() -> CIFilter & CIColumnAverage { ComputedTypedFilter(definition: .named("CIColumnAverage")) }
    /// Flattens colors to a number of brightness levels.
    public class func colorPosterize() -> CIFilter & CIColorPosterize { ComputedTypedFilter(definition: .named("CIColorPosterize")) }
    /// Simulates the dot pattern of a halftone screen.
    public class func dotScreen() -> CIFilter & CIDotScreen { ComputedTypedFilter(definition: .named("CIDotScreen")) }
    /// Simulates the line pattern of a halftone screen.
    public class func lineScreen() -> CIFilter & CILineScreen { ComputedTypedFilter(definition: .named("CILineScreen")) }
    /// Simulates a circular halftone screen.
    public class func circularScreen() -> CIFilter & CICircularScreen { ComputedTypedFilter(definition: .named("CICircularScreen")) }
    /// Rotates pixels around a point to give a twirling effect.
    public class func twirlDistortion() -> CIFilter & CITwirlDistortion { ComputedTypedFilter(definition: .named("CITwirlDistortion")) }
    /// Rotates pixels around a point to simulate a vortex.
    public class func vortexDistortion() -> CIFilter & CIVortexDistortion { ComputedTypedFilter(definition: .named("CIVortexDistortion")) }
    /// Creates a rectangular area that pinches source pixels inward.
    public class func pinchDistortion() -> CIFilter & CIPinchDistortion { ComputedTypedFilter(definition: .named("CIPinchDistortion")) }
    /// Creates a bump that originates at a specified point in the image.
    public class func bumpDistortion() -> CIFilter & CIBumpDistortion { ComputedTypedFilter(definition: .named("CIBumpDistortion")) }
    /// Creates a circular area that pushes the image pixels outward.
    public class func holeDistortion() -> CIFilter & CIHoleDistortion { ComputedTypedFilter(definition: .named("CIHoleDistortion")) }
    /// Distorts the pixels starting at the circumference of a circle and emanating outward.
    public class func circleSplashDistortion() -> CIFilter & CICircleSplashDistortion { ComputedTypedFilter(definition: .named("CICircleSplashDistortion")) }
    /// Softens edges and applies a pleasant glow to an image.
    public class func bloom() -> CIFilter & CIBloom { ComputedTypedFilter(definition: .named("CIBloom")) }
    /// Dulls the highlights of an image.
    public class func gloom() -> CIFilter & CIGloom { ComputedTypedFilter(definition: .named("CIGloom")) }
    /// Finds all edges in an image and displays them in color.
    public class func edges() -> CIFilter & CIEdges { ComputedTypedFilter(definition: .named("CIEdges")) }
    /// Gradually darkens a specified area of an image.
    public class func vignetteEffect() -> CIFilter & CIVignetteEffect { ComputedTypedFilter(definition: .named("CIVignetteEffect")) }
    /// Generates an Aztec code (two-dimensional barcode) from input data.
    public class func aztecCodeGenerator() -> CIFilter & CIAztecCodeGenerator { BarcodeGeneratorFilter(definition: .aztecCodeGenerator) }
    /// Generates a PDF417 code (two-dimensional barcode) from input data.
    public class func pdf417BarcodeGenerator() -> CIFilter & CIPDF417BarcodeGenerator { BarcodeGeneratorFilter(definition: .pdf417BarcodeGenerator) }
    /// Generates a Code 128 one-dimensional barcode from input data.
    public class func code128BarcodeGenerator() -> CIFilter & CICode128BarcodeGenerator { BarcodeGeneratorFilter(definition: .code128BarcodeGenerator) }
    /// Uses a three-dimensional color table to transform the source image pixels.
    public class func colorCube() -> CIFilter & CIColorCube { ColorTableTypedFilter(definition: .named("CIColorCube")) }
    /// Uses a three-dimensional color table in a color space to transform the source image pixels.
    public class func colorCubeWithColorSpace() -> CIFilter & CIColorCubeWithColorSpace {
        ColorTableTypedFilter(definition: .named("CIColorCubeWithColorSpace"))
    }
    /// Uses two three-dimensional color tables in a specified color space to transform the source image pixels.
    public class func colorCubesMixedWithMask() -> CIFilter & CIColorCubesMixedWithMask {
        ColorTableTypedFilter(definition: .named("CIColorCubesMixedWithMask"))
    }
    /// Changes colors based on an input gradient image's mapping.
    public class func colorMap() -> CIFilter & CIColorMap { ColorTableTypedFilter(definition: .named("CIColorMap")) }
    /// Alters the image to make it look like it was taken by a thermal camera.
    public class func thermal() -> CIFilter & CIThermal { ColorTableTypedFilter(definition: .named("CIThermal")) }
    /// Alters the image to make it look like an X-ray image.
    public class func xRay() -> CIFilter & CIXRay { ColorTableTypedFilter(definition: .named("CIXRay")) }
    /// Modifies the image so each color component becomes one or zero by a threshold.
    public class func colorThreshold() -> CIFilter & CIColorThreshold { ColorTableTypedFilter(definition: .named("CIColorThreshold")) }
    /// Modifies the image so each color component becomes one or zero by a threshold Otsu's method finds.
    public class func colorThresholdOtsu() -> CIFilter & CIColorThresholdOtsu { ColorTableTypedFilter(definition: .named("CIColorThresholdOtsu")) }
    /// Produces an image that is the absolute value of the color difference between two images.
    public class func colorAbsoluteDifference() -> CIFilter & CIColorAbsoluteDifference {
        ColorTableTypedFilter(definition: .named("CIColorAbsoluteDifference"))
    }
    /// Modifies the pixel values in an image by applying a set of polynomial cross-products.
    public class func colorCrossPolynomial() -> CIFilter & CIColorCrossPolynomial { ColorTableTypedFilter(definition: .named("CIColorCrossPolynomial")) }
    /// Adds noise to remove distortion.
    public class func dither() -> CIFilter & CIDither { ColorTableTypedFilter(definition: .named("CIDither")) }
    /// Blends two images by using a mask image's red channel.
    public class func blendWithRedMask() -> CIFilter & CIBlendWithMask { MixingFilter(definition: .named("CIBlendWithRedMask")) }
    /// Blends two images by using a mask image's blue channel.
    public class func blendWithBlueMask() -> CIFilter & CIBlendWithMask { MixingFilter(definition: .named("CIBlendWithBlueMask")) }
    /// Blurs a circular area by finding the maximum value of pixels within a radius.
    public class func morphologyMaximum() -> CIFilter & CIMorphologyMaximum { ComputedTypedFilter(definition: .named("CIMorphologyMaximum")) }
    /// Blurs a circular area by finding the minimum value of pixels within a radius.
    public class func morphologyMinimum() -> CIFilter & CIMorphologyMinimum { ComputedTypedFilter(definition: .named("CIMorphologyMinimum")) }
    /// Detects edges by the difference between the maximum and minimum values within a radius.
    public class func morphologyGradient() -> CIFilter & CIMorphologyGradient { ComputedTypedFilter(definition: .named("CIMorphologyGradient")) }
    /// Rotates a source image by the specified angle in radians, scaled and cropped to fill its extent.
    public class func straightenFilter() -> CIFilter & CIStraighten { ComputedTypedFilter(definition: .named("CIStraightenFilter")) }
    /// Produces a high-quality, scaled version of a source image with a cubic kernel.
    public class func bicubicScaleTransform() -> CIFilter & CIBicubicScaleTransform { ComputedTypedFilter(definition: .named("CIBicubicScaleTransform")) }
    /// Transitions from one image to another by simulating a swiping action.
    public class func swipeTransition() -> CIFilter & CISwipeTransition { TransitionTypedFilter(definition: .named("CISwipeTransition")) }
    /// Transitions from one image to another by simulating the effect of a copy machine.
    public class func copyMachineTransition() -> CIFilter & CICopyMachineTransition { TransitionTypedFilter(definition: .named("CICopyMachineTransition")) }
    /// Transitions from one image to another by passing a bar over the source image.
    public class func barsSwipeTransition() -> CIFilter & CIBarsSwipeTransition { TransitionTypedFilter(definition: .named("CIBarsSwipeTransition")) }
    /// Transitions from one image to another using the shape defined by a mask.
    public class func disintegrateWithMaskTransition() -> CIFilter & CIDisintegrateWithMaskTransition {
        TransitionTypedFilter(definition: .named("CIDisintegrateWithMaskTransition"))
    }
    /// Produces a tiled image from a source image by applying four translation operations.
    public class func fourfoldTranslatedTile() -> CIFilter & CIFourfoldTranslatedTile { ComputedTypedFilter(definition: .named("CIFourfoldTranslatedTile")) }
    /// Produces a tiled image from a source image by applying a four-way reflected symmetry.
    public class func fourfoldReflectedTile() -> CIFilter & CIFourfoldReflectedTile { ComputedTypedFilter(definition: .named("CIFourfoldReflectedTile")) }
    /// Warps an image by reflecting it in a parallelogram, and then tiles the result.
    public class func parallelogramTile() -> CIFilter & CIParallelogramTile { ComputedTypedFilter(definition: .named("CIParallelogramTile")) }
    /// Produces a tiled image from a source image by rotating the source image at increments of 90 degrees.
    public class func fourfoldRotatedTile() -> CIFilter & CIFourfoldRotatedTile { ComputedTypedFilter(definition: .named("CIFourfoldRotatedTile")) }
    /// Produces a tiled image from a source image by applying an eight-way reflected symmetry.
    public class func eightfoldReflectedTile() -> CIFilter & CIEightfoldReflectedTile { ComputedTypedFilter(definition: .named("CIEightfoldReflectedTile")) }
    /// Produces a tiled image from a source image by translating and smearing the image.
    public class func glideReflectedTile() -> CIFilter & CIGlideReflectedTile { ComputedTypedFilter(definition: .named("CIGlideReflectedTile")) }
    /// Produces a kaleidoscopic image from a source image by applying twelve-way symmetry.
    public class func kaleidoscope() -> CIFilter & CIKaleidoscope { ComputedTypedFilter(definition: .named("CIKaleidoscope")) }
    /// Generates a text image.
    public class func textImageGenerator() -> CIFilter & CITextImageGenerator { TextImageGeneratorFilter(definition: .textImageGenerator) }
    /// Simulates the hatched pattern of a halftone screen.
    public class func hatchedScreen() -> CIFilter & CIHatchedScreen { ComputedTypedFilter(definition: .named("CIHatchedScreen")) }
    /// Generates a color wheel that shows hues and saturations for a specified value.
    public class func hueSaturationValueGradient() -> CIFilter & CIHueSaturationValueGradient {
        ComputedTypedFilter(definition: .named("CIHueSaturationValueGradient"))
    }
    /// Applies the values of a displacement image to move the input image's pixels.
    public class func displacementDistortion() -> CIFilter & CIDisplacementDistortion { ComputedTypedFilter(definition: .named("CIDisplacementDistortion")) }
    /// Creates a bump that originates from a linear portion of the image.
    public class func bumpDistortionLinear() -> CIFilter & CIBumpDistortionLinear { ComputedTypedFilter(definition: .named("CIBumpDistortionLinear")) }
    /// Simulates the effect of zooming the camera while capturing the image.
    public class func zoomBlur() -> CIFilter & CIZoomBlur { ComputedTypedFilter(definition: .named("CIZoomBlur")) }
    /// Returns a histogram of a specified area of the image.
    public class func areaHistogram() -> CIFilter & CIAreaHistogram { ComputedTypedFilter(definition: .named("CIAreaHistogram")) }
    /// Returns histograms of the unpremultiplied red, green and blue of a specified area of the image, each pixel weighted by its alpha.
    public class func areaAlphaWeightedHistogram() -> CIFilter & CIAreaHistogram { ComputedTypedFilter(definition: .named("CIAreaAlphaWeightedHistogram")) }
    /// Returns a logarithmic histogram of a specified area of the image.
    public class func areaLogarithmicHistogram() -> CIFilter & CIAreaLogarithmicHistogram {
        ComputedTypedFilter(definition: .named("CIAreaLogarithmicHistogram"))
    }
    /// Generates a displayable histogram image from the output of the area histogram filter.
    public class func histogramDisplay() -> CIFilter & CIHistogramDisplay { ComputedTypedFilter(definition: .named("CIHistogramDisplayFilter")) }
    /// Finds the pixel with the highest alpha value.
    public class func areaMaximumAlpha() -> CIFilter & CIAreaMaximumAlpha { ComputedTypedFilter(definition: .named("CIAreaMaximumAlpha")) }
    /// Calculates the pixel within a specified area that has the smallest alpha value.
    public class func areaMinimumAlpha() -> CIFilter & CIAreaMinimumAlpha { ComputedTypedFilter(definition: .named("CIAreaMinimumAlpha")) }
    /// Displays an image as colored hexagons whose color is an average of the pixels they replace.
    public class func hexagonalPixellate() -> CIFilter & CIHexagonalPixellate { ComputedTypedFilter(definition: .named("CIHexagonalPixellate")) }
    /// Creates polygon-shaped color blocks by aggregating source pixel-color values.
    public class func crystallize() -> CIFilter & CICrystallize { ComputedTypedFilter(definition: .named("CICrystallize")) }
    /// Blurs an image by amounts a grayscale mask gives for each pixel.
    public class func maskedVariableBlur() -> CIFilter & CIMaskedVariableBlur { ComputedTypedFilter(definition: .named("CIMaskedVariableBlur")) }
    /// Reduces noise using a threshold value to define what is considered noise.
    public class func noiseReduction() -> CIFilter & CINoiseReduction { ComputedTypedFilter(definition: .named("CINoiseReduction")) }
    /// Applies a bokeh effect to an image.
    public class func bokehBlur() -> CIFilter & CIBokehBlur { ComputedTypedFilter(definition: .named("CIBokehBlur")) }
    /// Applies a directional spotlight effect to an image.
    public class func spotLight() -> CIFilter & CISpotLight { ComputedTypedFilter(definition: .named("CISpotLight")) }
    /// Creates a sketch that outlines the edges of an image in black.
    public class func lineOverlay() -> CIFilter & CILineOverlay { ComputedTypedFilter(definition: .named("CILineOverlay")) }
    /// Creates a color, halftoned rendition of the source image.
    public class func cmykHalftone() -> CIFilter & CICMYKHalftone { ComputedTypedFilter(definition: .named("CICMYKHalftone")) }
    /// Simulates a comic book drawing by outlining edges and applying a color halftone effect.
    public class func comicEffect() -> CIFilter & CIComicEffect { ComputedTypedFilter(definition: .named("CIComicEffect")) }
    /// Alters the geometry of a rectangle of an image to simulate the observer changing viewing position.
    public class func perspectiveTransformWithExtent() -> CIFilter & CIPerspectiveTransformWithExtent {
        PerspectiveFilter(definition: .perspectiveTransformWithExtent)
    }
    /// Distorts an image by stretching an image based on two input breakpoints.
    public class func ninePartStretched() -> CIFilter & CINinePartStretched { ComputedTypedFilter(definition: .named("CINinePartStretched")) }
    /// Distorts an image by tiling an image based on two input breakpoints.
    public class func ninePartTiled() -> CIFilter & CINinePartTiled { ComputedTypedFilter(definition: .named("CINinePartTiled")) }
    /// Replaces each color of an image with the nearest color of a palette.
    public class func palettize() -> CIFilter & CIPalettize { ComputedTypedFilter(definition: .named("CIPalettize")) }
    /// Produces a palette of the most common colors of an area of an image.
    public class func kMeans() -> CIFilter & CIKMeans { ComputedTypedFilter(definition: .named("CIKMeans")) }
    /// Enhances a document image by removing unwanted shadows, whitening the background, and enhancing contrast.
    public class func documentEnhancer() -> CIFilter & CIDocumentEnhancer { ComputedTypedFilter(definition: .named("CIDocumentEnhancer")) }
    /// Converts an image from RGB to CIE L*a*b* values.
    public class func convertRGBtoLab() -> CIFilter & CIConvertLab { ComputedTypedFilter(definition: .named("CIConvertRGBtoLab")) }
    /// Converts an image from CIE L*a*b* values to RGB.
    public class func convertLabToRGB() -> CIFilter & CIConvertLab { ComputedTypedFilter(definition: .named("CIConvertLabToRGB")) }
    /// Produces an image with the Lab ΔE difference values between two images.
    public class func labDeltaE() -> CIFilter & CILabDeltaE { ComputedTypedFilter(definition: .named("CILabDeltaE")) }
    /// Applies a multichannel 3 by 3 Sobel gradient filter to an image.
    public class func sobelGradients() -> CIFilter & CISobelGradients { ComputedTypedFilter(definition: .named("CISobelGradients")) }
    /// Modifies the colors of an image through a curve for each channel.
    public class func colorCurves() -> CIFilter & CIColorCurves { ComputedTypedFilter(definition: .named("CIColorCurves")) }
    /// Generates an image of a stroked rounded rectangle.
    public class func roundedRectangleStrokeGenerator() -> CIFilter & CIRoundedRectangleStrokeGenerator {
        ComputedTypedFilter(definition: .named("CIRoundedRectangleStrokeGenerator"))
    }
    /// Generates a blurred rectangle of a color.
    public class func blurredRectangleGenerator() -> CIFilter & CIBlurredRectangleGenerator {
        ComputedTypedFilter(definition: .named("CIBlurredRectangleGenerator"))
    }
    /// Produces a tiled image from a source image by rotating the source at increments of 60 degrees.
    public class func sixfoldRotatedTile() -> CIFilter & CISixfoldRotatedTile { ComputedTypedFilter(definition: .named("CISixfoldRotatedTile")) }
    /// Produces a tiled image from a source image by applying a six-way reflected symmetry.
    public class func sixfoldReflectedTile() -> CIFilter & CISixfoldReflectedTile { ComputedTypedFilter(definition: .named("CISixfoldReflectedTile")) }
    /// Produces a tiled image from a source image by applying a twelve-way reflected symmetry.
    public class func twelvefoldReflectedTile() -> CIFilter & CITwelvefoldReflectedTile { ComputedTypedFilter(definition: .named("CITwelvefoldReflectedTile")) }
    /// Distorts an image by applying a glass-like texture.
    public class func glassDistortion() -> CIFilter & CIGlassDistortion { ComputedTypedFilter(definition: .named("CIGlassDistortion")) }
    /// Produces a continuous three-dimensional, loft-shaped height field from a grayscale mask.
    public class func heightFieldFromMask() -> CIFilter & CIHeightFieldFromMask { ComputedTypedFilter(definition: .named("CIHeightFieldFromMask")) }
    /// Produces a shaded image from a height field.
    public class func shadedMaterial() -> CIFilter & CIShadedMaterial { ComputedTypedFilter(definition: .named("CIShadedMaterial")) }
}
