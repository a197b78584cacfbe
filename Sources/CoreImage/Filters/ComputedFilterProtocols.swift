import CoreGraphics
import Foundation

// The properties of the gradients, generators, reductions, halftones, distortions and glows, as
// `CoreImage.CIFilterBuiltins` declares them.

/// The properties you use to configure a linear gradient filter.
public protocol CILinearGradient: CIFilterProtocol {
    /// The starting position of the gradient.
    var point0: CGPoint { get set }
    /// The ending position of the gradient.
    var point1: CGPoint { get set }
    /// The first color of the gradient.
    var color0: CIColor { get set }
    /// The second color of the gradient.
    var color1: CIColor { get set }
}

/// The properties you use to configure a smooth linear gradient filter.
public protocol CISmoothLinearGradient: CIFilterProtocol {
    /// The starting position of the gradient.
    var point0: CGPoint { get set }
    /// The ending position of the gradient.
    var point1: CGPoint { get set }
    /// The first color of the gradient.
    var color0: CIColor { get set }
    /// The second color of the gradient.
    var color1: CIColor { get set }
}

/// The properties you use to configure a radial gradient filter.
public protocol CIRadialGradient: CIFilterProtocol {
    /// The center of the gradient.
    var center: CGPoint { get set }
    /// The radius of the inner circle.
    var radius0: Float { get set }
    /// The radius of the outer circle.
    var radius1: Float { get set }
    /// The color of the inner circle.
    var color0: CIColor { get set }
    /// The color of the outer circle.
    var color1: CIColor { get set }
}

/// The properties you use to configure a Gaussian gradient filter.
public protocol CIGaussianGradient: CIFilterProtocol {
    /// The center of the gradient.
    var center: CGPoint { get set }
    /// The color at the center.
    var color0: CIColor { get set }
    /// The color far from the center.
    var color1: CIColor { get set }
    /// The radius of the gradient.
    var radius: Float { get set }
}

/// The properties you use to configure a random generator filter.
public protocol CIRandomGenerator: CIFilterProtocol {}

/// The properties you use to configure a rounded rectangle generator filter.
public protocol CIRoundedRectangleGenerator: CIFilterProtocol {
    /// The rectangle to fill.
    var extent: CGRect { get set }
    /// The radius of the rounded corners.
    var radius: Float { get set }
    /// The color of the rectangle.
    var color: CIColor { get set }
}

/// The properties you use to configure an area maximum filter.
public protocol CIAreaMaximum: CIAreaReductionFilter {}
/// The properties you use to configure an area minimum filter.
public protocol CIAreaMinimum: CIAreaReductionFilter {}
/// The properties you use to configure an area minimum and maximum filter.
public protocol CIAreaMinMax: CIAreaReductionFilter {}
/// The properties you use to configure an area minimum and maximum red filter.
public protocol CIAreaMinMaxRed: CIAreaReductionFilter {}
/// The properties you use to configure a row average filter.
public protocol CIRowAverage: CIAreaReductionFilter {}
/// The properties you use to configure a column average filter.
public protocol CIColumnAverage: CIAreaReductionFilter {}

/// The properties you use to configure a color posterize filter.
public protocol CIColorPosterize: CIFilterProtocol {
    /// The image to posterize.
    var inputImage: CIImage? { get set }
    /// The number of brightness levels for each color component.
    var levels: Float { get set }
}

/// The properties you use to configure a dot screen filter.
public protocol CIDotScreen: CIFilterProtocol {
    /// The image to screen.
    var inputImage: CIImage? { get set }
    /// The center of the pattern.
    var center: CGPoint { get set }
    /// The angle of the pattern, in radians.
    var angle: Float { get set }
    /// The distance between dots, in pixels.
    var width: Float { get set }
    /// The sharpness of the pattern: 1 is hard-edged.
    var sharpness: Float { get set }
}

/// The properties you use to configure a line screen filter.
public protocol CILineScreen: CIFilterProtocol {
    /// The image to screen.
    var inputImage: CIImage? { get set }
    /// The center of the pattern.
    var center: CGPoint { get set }
    /// The angle of the pattern, in radians.
    var angle: Float { get set }
    /// The distance between lines, in pixels.
    var width: Float { get set }
    /// The sharpness of the pattern: 1 is hard-edged.
    var sharpness: Float { get set }
}

/// The properties you use to configure a circular screen filter.
public protocol CICircularScreen: CIFilterProtocol {
    /// The image to screen.
    var inputImage: CIImage? { get set }
    /// The center of the circles.
    var center: CGPoint { get set }
    /// The distance between circles, in pixels.
    var width: Float { get set }
    /// The sharpness of the pattern: 1 is hard-edged.
    var sharpness: Float { get set }
}

/// The properties you use to configure a twirl distortion filter.
public protocol CITwirlDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the effect.
    var center: CGPoint { get set }
    /// The radius of the effect.
    var radius: Float { get set }
    /// The rotation at the center, in radians.
    var angle: Float { get set }
}

/// The properties you use to configure a vortex distortion filter.
public protocol CIVortexDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the effect.
    var center: CGPoint { get set }
    /// The radius of the effect.
    var radius: Float { get set }
    /// The rotation at the center, in radians.
    var angle: Float { get set }
}

/// The properties you use to configure a pinch distortion filter.
public protocol CIPinchDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the effect.
    var center: CGPoint { get set }
    /// The radius of the effect.
    var radius: Float { get set }
    /// The amount of pinching.
    var scale: Float { get set }
}

/// The properties you use to configure a bump distortion filter.
public protocol CIBumpDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the effect.
    var center: CGPoint { get set }
    /// The radius of the effect.
    var radius: Float { get set }
    /// The amount of the bump: above 0 swells, below 0 shrinks.
    var scale: Float { get set }
}

/// The properties you use to configure a hole distortion filter.
public protocol CIHoleDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the hole.
    var center: CGPoint { get set }
    /// The radius of the hole.
    var radius: Float { get set }
}

/// The properties you use to configure a circle splash distortion filter.
public protocol CICircleSplashDistortion: CIFilterProtocol {
    /// The image to distort.
    var inputImage: CIImage? { get set }
    /// The center of the circle.
    var center: CGPoint { get set }
    /// The radius of the circle.
    var radius: Float { get set }
}

/// The properties you use to configure a bloom filter.
public protocol CIBloom: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The radius of the glow, in pixels.
    var radius: Float { get set }
    /// The intensity of the effect.
    var intensity: Float { get set }
}

/// The properties you use to configure a gloom filter.
public protocol CIGloom: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The radius of the effect, in pixels.
    var radius: Float { get set }
    /// The intensity of the effect.
    var intensity: Float { get set }
}

/// The properties you use to configure an edges filter.
public protocol CIEdges: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The intensity of the edges.
    var intensity: Float { get set }
}

/// The properties you use to configure a vignette-effect filter.
public protocol CIVignetteEffect: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The center of the effect as x and y coordinates.
    var center: CGPoint { get set }
    /// The distance from the center of the effect.
    var radius: Float { get set }
    /// The intensity of the effect.
    var intensity: Float { get set }
    /// The falloff of the effect.
    var falloff: Float { get set }
}

/// The properties you use to configure an Aztec code generator filter.
public protocol CIAztecCodeGenerator: CIFilterProtocol {
    /// The message to encode in the Aztec barcode.
    var message: Data { get set }
    /// The percentage of redundancy to add to the message data in the barcode encoding.
    var correctionLevel: Float { get set }
    /// The number of concentric squares encoding the barcode data; 0 chooses.
    var layers: Float { get set }
    /// A Boolean value that determines whether to use the compact or full-size Aztec barcode format.
    var compactStyle: Float { get set }
}

/// The properties you use to configure a PDF417 barcode generator filter.
public protocol CIPDF417BarcodeGenerator: CIFilterProtocol {
    /// The message to encode in the PDF417 barcode.
    var message: Data { get set }
    /// The minimum width of the generated barcode in pixels.
    var minWidth: Float { get set }
    /// The maximum width of the generated barcode in pixels.
    var maxWidth: Float { get set }
    /// The minimum height of the generated barcode in pixels.
    var minHeight: Float { get set }
    /// The maximum height of the generated barcode in pixels.
    var maxHeight: Float { get set }
    /// The number of data columns in the generated barcode.
    var dataColumns: Float { get set }
    /// The number of rows in the generated barcode.
    var rows: Float { get set }
    /// The preferred aspect ratio of the generated barcode.
    var preferredAspectRatio: Float { get set }
    /// The compaction mode of the generated barcode.
    var compactionMode: Float { get set }
    /// A Boolean value that determines whether to omit redundant elements to make the generated barcode more compact.
    var compactStyle: Float { get set }
    /// The error correction level of the generated barcode, 0 to 8.
    var correctionLevel: Float { get set }
    /// A Boolean value that determines whether to include information about the compaction mode.
    var alwaysSpecifyCompaction: Float { get set }
}

/// The properties you use to configure a Code 128 barcode generator filter.
public protocol CICode128BarcodeGenerator: CIFilterProtocol {
    /// The message to encode in the Code 128 barcode.
    var message: Data { get set }
    /// The number of pixels of added white space on each side of the barcode.
    var quietSpace: Float { get set }
    /// The height, in pixels, of the generated barcode.
    var barcodeHeight: Float { get set }
}

/// The properties you use to configure a color cube filter.
public protocol CIColorCube: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The dimension of the color cube.
    var cubeDimension: Float { get set }
    /// Data containing a 3-dimensional color table of floating-point premultiplied RGBA values.
    var cubeData: Data { get set }
    /// A Boolean value that determines whether the cube's values are extrapolated beyond 0 to 1.
    var extrapolate: Bool { get set }
}

/// The properties you use to configure a color cube with color space filter.
public protocol CIColorCubeWithColorSpace: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The dimension of the color cube.
    var cubeDimension: Float { get set }
    /// Data containing a 3-dimensional color table of floating-point premultiplied RGBA values.
    var cubeData: Data { get set }
    /// A Boolean value that determines whether the cube's values are extrapolated beyond 0 to 1.
    var extrapolate: Bool { get set }
    /// The color space in which the cube's values are interpreted.
    var colorSpace: CGColorSpace? { get set }
}

/// The properties you use to configure a color cubes mixed with mask filter.
public protocol CIColorCubesMixedWithMask: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// A mask image that determines how to blend the two cubes.
    var maskImage: CIImage? { get set }
    /// The dimension of the color cubes.
    var cubeDimension: Float { get set }
    /// The color table used where the mask is black.
    var cube0Data: Data { get set }
    /// The color table used where the mask is white.
    var cube1Data: Data { get set }
    /// The color space in which the cubes' values are interpreted.
    var colorSpace: CGColorSpace? { get set }
}

/// The properties you use to configure a color map filter.
public protocol CIColorMap: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The image data from this image transforms the source image values.
    var gradientImage: CIImage? { get set }
}

/// The properties you use to configure a thermal filter.
public protocol CIThermal: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure an X-ray filter.
public protocol CIXRay: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a color threshold filter.
public protocol CIColorThreshold: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The threshold value that determines whether a component becomes one or zero.
    var threshold: Float { get set }
}

/// The properties you use to configure a color threshold Otsu filter.
public protocol CIColorThresholdOtsu: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a color absolute difference filter.
public protocol CIColorAbsoluteDifference: CIFilterProtocol {
    /// The first image.
    var inputImage: CIImage? { get set }
    /// The second image.
    var inputImage2: CIImage? { get set }
}

/// The properties you use to configure a color cross polynomial filter.
public protocol CIColorCrossPolynomial: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// Polynomial coefficients for the red channel.
    var redCoefficients: CIVector { get set }
    /// Polynomial coefficients for the green channel.
    var greenCoefficients: CIVector { get set }
    /// Polynomial coefficients for the blue channel.
    var blueCoefficients: CIVector { get set }
}

/// The properties you use to configure a dither filter.
public protocol CIDither: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The intensity of the effect.
    var intensity: Float { get set }
}

/// The properties you use to configure a morphology maximum filter.
public protocol CIMorphologyMaximum: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The radius of the circular area over which the maximum is found.
    var radius: Float { get set }
}

/// The properties you use to configure a morphology minimum filter.
public protocol CIMorphologyMinimum: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The radius of the circular area over which the minimum is found.
    var radius: Float { get set }
}

/// The properties you use to configure a morphology gradient filter.
public protocol CIMorphologyGradient: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The radius of the circular area over which the gradient is found.
    var radius: Float { get set }
}

/// The properties you use to configure a straighten filter.
public protocol CIStraighten: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The angle, in radians, by which to rotate the image.
    var angle: Float { get set }
}

/// The properties you use to configure a bicubic scale transform filter.
public protocol CIBicubicScaleTransform: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The scaling factor to use on the image.
    var scale: Float { get set }
    /// The additional horizontal scaling factor to use on the image.
    var aspectRatio: Float { get set }
    /// The value of the B parameter of the cubic resampling function.
    var parameterB: Float { get set }
    /// The value of the C parameter of the cubic resampling function.
    var parameterC: Float { get set }
}

/// The properties you use to configure a swipe transition filter.
public protocol CISwipeTransition: CITransitionFilter {
    /// The extent of the effect.
    var extent: CGRect { get set }
    /// The color of the swipe.
    var color: CIColor { get set }
    /// The angle, in radians, of the swipe.
    var angle: Float { get set }
    /// The width of the swipe.
    var width: Float { get set }
    /// The opacity of the swipe.
    var opacity: Float { get set }
}

/// The properties you use to configure a copy machine transition filter.
public protocol CICopyMachineTransition: CITransitionFilter {
    /// A rectangle that defines the extent of the effect.
    var extent: CGRect { get set }
    /// The color of the copier light.
    var color: CIColor { get set }
    /// The angle, in radians, of the copier light.
    var angle: Float { get set }
    /// The width of the copier light.
    var width: Float { get set }
    /// The opacity of the copier light.
    var opacity: Float { get set }
}

/// The properties you use to configure a bars swipe transition filter.
public protocol CIBarsSwipeTransition: CITransitionFilter {
    /// The angle, in radians, of the bars.
    var angle: Float { get set }
    /// The width of each bar.
    var width: Float { get set }
    /// The offset of one bar with respect to another.
    var barOffset: Float { get set }
}

/// The properties you use to configure a disintegrate-with-mask transition filter.
public protocol CIDisintegrateWithMaskTransition: CITransitionFilter {
    /// An image that defines the shape to use when disintegrating from the source to the target image.
    var maskImage: CIImage? { get set }
    /// The radius of the shadow created by the mask.
    var shadowRadius: Float { get set }
    /// The density of the shadow created by the mask.
    var shadowDensity: Float { get set }
    /// The offset of the shadow created by the mask.
    var shadowOffset: CGPoint { get set }
}

/// The properties you use to configure a fourfold translated tile filter.
public protocol CIFourfoldTranslatedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The primary angle for the repeating translated tile.
    var acuteAngle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a fourfold reflected tile filter.
public protocol CIFourfoldReflectedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The primary angle for the repeating reflected tile.
    var acuteAngle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a parallelogram tile filter.
public protocol CIParallelogramTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The primary angle for the repeating parallelogram tile.
    var acuteAngle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a fourfold rotated tile filter.
public protocol CIFourfoldRotatedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure an eightfold reflected tile filter.
public protocol CIEightfoldReflectedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a glide reflected tile filter.
public protocol CIGlideReflectedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a kaleidoscope filter.
public protocol CIKaleidoscope: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The number of reflections in the pattern.
    var count: Int { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the reflections.
    var angle: Float { get set }
}

/// The properties you use to configure a text image generator filter.
public protocol CITextImageGenerator: CIFilterProtocol {
    /// The text to render.
    var text: String { get set }
    /// The name of the font to use for the generated text.
    var fontName: String { get set }
    /// The size of the font to use for the generated text.
    var fontSize: Float { get set }
    /// The scale of the font to use for the generated text.
    var scaleFactor: Float { get set }
    /// The padding, in points, around the generated text.
    var padding: Float { get set }
}

/// The properties you use to configure a hatched screen filter.
public protocol CIHatchedScreen: CIFilterProtocol {
    /// The image to screen.
    var inputImage: CIImage? { get set }
    /// The center of the pattern.
    var center: CGPoint { get set }
    /// The angle of the pattern, in radians.
    var angle: Float { get set }
    /// The distance between lines, in pixels.
    var width: Float { get set }
    /// The sharpness of the pattern: 1 is hard-edged.
    var sharpness: Float { get set }
}

/// The properties you use to configure a hue/saturation/value gradient filter.
public protocol CIHueSaturationValueGradient: CIFilterProtocol {
    /// The color value used to generate the color wheel.
    var value: Float { get set }
    /// The distance from the center of the effect.
    var radius: Float { get set }
    /// The softness of the generated color wheel.
    var softness: Float { get set }
    /// The dither amount of the generated color wheel.
    var dither: Float { get set }
    /// The color space of the generated color wheel.
    var colorSpace: CGColorSpace? { get set }
}

/// The properties you use to configure a displacement distortion filter.
public protocol CIDisplacementDistortion: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// An image whose grayscale values are applied to the input image.
    var displacementImage: CIImage? { get set }
    /// The amount of texturing of the resulting image.
    var scale: Float { get set }
}

/// The properties you use to configure a linear bump distortion filter.
public protocol CIBumpDistortionLinear: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The center of the effect.
    var center: CGPoint { get set }
    /// The radius of the effect.
    var radius: Float { get set }
    /// The angle, in radians, of the line around which the distortion occurs.
    var angle: Float { get set }
    /// The amount of the bump.
    var scale: Float { get set }
}

/// The properties you use to configure a zoom blur filter.
public protocol CIZoomBlur: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The center of the effect.
    var center: CGPoint { get set }
    /// The zoom-in amount.
    var amount: Float { get set }
}

/// The properties you use to configure an area histogram filter.
public protocol CIAreaHistogram: CIAreaReductionFilter {
    /// The scale value to use for the histogram values.
    var scale: Float { get set }
    /// The number of bins for the histogram.
    var count: Int { get set }
}

/// The properties you use to configure an area logarithmic histogram filter.
public protocol CIAreaLogarithmicHistogram: CIAreaReductionFilter {
    /// The amount of the effect.
    var scale: Float { get set }
    /// The number of bins for the histogram.
    var count: Int { get set }
    /// The minimum of the range of color channel values to be in the logarithmic histogram image.
    var minimumStop: Float { get set }
    /// The maximum of the range of color channel values to be in the logarithmic histogram image.
    var maximumStop: Float { get set }
}

/// The properties you use to configure a histogram display filter.
public protocol CIHistogramDisplay: CIFilterProtocol {
    /// The image to process: a histogram, as the area histogram makes.
    var inputImage: CIImage? { get set }
    /// The height of the displayable histogram image.
    var height: Float { get set }
    /// The fraction of the right portion of the histogram image to make lighter.
    var highLimit: Float { get set }
    /// The fraction of the left portion of the histogram image to make darker.
    var lowLimit: Float { get set }
}

/// The properties you use to configure an area maximum alpha filter.
public protocol CIAreaMaximumAlpha: CIAreaReductionFilter {}
/// The properties you use to configure an area minimum alpha filter.
public protocol CIAreaMinimumAlpha: CIAreaReductionFilter {}

/// The properties you use to configure a hexagonal pixelate filter.
public protocol CIHexagonalPixellate: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the hexagonal pattern.
    var center: CGPoint { get set }
    /// The scale determines the size of the hexagons.
    var scale: Float { get set }
}

/// The properties you use to configure a crystallize filter.
public protocol CICrystallize: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The radius determines how many pixels are used to create the effect.
    var radius: Float { get set }
    /// The center of the effect as x and y coordinates.
    var center: CGPoint { get set }
}

/// The properties you use to configure a masked variable blur filter.
public protocol CIMaskedVariableBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// A grayscale mask that determines the blur radius at each pixel.
    var mask: CIImage? { get set }
    /// The distance from the center of the effect.
    var radius: Float { get set }
}

/// The properties you use to configure a noise reduction filter.
public protocol CINoiseReduction: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The amount of noise reduction.
    var noiseLevel: Float { get set }
    /// The sharpness of the final image.
    var sharpness: Float { get set }
}

/// The properties you use to configure a bokeh blur filter.
public protocol CIBokehBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// The radius of the blur.
    var radius: Float { get set }
    /// The amount of extra emphasis at the ring of the bokeh.
    var ringAmount: Float { get set }
    /// The radius of the extra emphasis at the ring of the bokeh.
    var ringSize: Float { get set }
    /// The softness of the bokeh effect.
    var softness: Float { get set }
}

/// The properties you use to configure a spotlight filter.
public protocol CISpotLight: CIFilterProtocol {
    /// The image to light.
    var inputImage: CIImage? { get set }
    /// The x, y, and z position of the spotlight.
    var lightPosition: CIVector { get set }
    /// The x, y, and z position that the spotlight points at.
    var lightPointsAt: CIVector { get set }
    /// The brightness of the spotlight.
    var brightness: Float { get set }
    /// The spotlight size; the smaller the value, the more tightly focused the light beam.
    var concentration: Float { get set }
    /// The color of the spotlight.
    var color: CIColor { get set }
}

/// The properties you use to configure a line overlay filter.
public protocol CILineOverlay: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The noise level of the image used as a threshold when detecting edges.
    var nrNoiseLevel: Float { get set }
    /// The amount of sharpening done when removing noise in the image.
    var nrSharpness: Float { get set }
    /// The accentuation factor of the Sobel gradient information when tracing the edges of the image.
    var edgeIntensity: Float { get set }
    /// The threshold that determines which edges are drawn.
    var threshold: Float { get set }
    /// The amount of anti-aliasing to use on the edges produced by this filter.
    var contrast: Float { get set }
}

/// The properties you use to configure a CMYK halftone filter.
public protocol CICMYKHalftone: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The center of the halftone pattern.
    var center: CGPoint { get set }
    /// The distance between dots in the pattern.
    var width: Float { get set }
    /// The angle of the pattern, in radians.
    var angle: Float { get set }
    /// The sharpness of the pattern.
    var sharpness: Float { get set }
    /// The gray component replacement value.
    var grayComponentReplacement: Float { get set }
    /// The under color removal value.
    var underColorRemoval: Float { get set }
}

/// The properties you use to configure a comic effect filter.
public protocol CIComicEffect: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a perspective transform with extent filter.
public protocol CIPerspectiveTransformWithExtent: CIFourCoordinateGeometryFilter {
    /// The rectangle that the corners map.
    var extent: CGRect { get set }
}

/// The properties you use to configure a nine-part stretched filter.
public protocol CINinePartStretched: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The lower-left corner of the image to retain before stretching begins.
    var breakpoint0: CGPoint { get set }
    /// The upper-right corner of the image to retain after stretching ends.
    var breakpoint1: CGPoint { get set }
    /// The amount of stretching, across and up.
    var growAmount: CGPoint { get set }
}

/// The properties you use to configure a nine-part tiled filter.
public protocol CINinePartTiled: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The lower-left corner of the image to retain before tiling begins.
    var breakpoint0: CGPoint { get set }
    /// The upper-right corner of the image to retain after tiling ends.
    var breakpoint1: CGPoint { get set }
    /// The amount of tiling, across and up.
    var growAmount: CGPoint { get set }
    /// A Boolean value that determines whether tiles are flipped vertically in alternate rows.
    var flipYTiles: Bool { get set }
}

/// The properties you use to configure a palettize filter.
public protocol CIPalettize: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The image whose pixels make up the palette.
    var paletteImage: CIImage? { get set }
    /// A Boolean value that specifies whether colors are compared perceptually.
    var perceptual: Bool { get set }
}

/// The properties you use to configure a k-means filter.
public protocol CIKMeans: CIAreaReductionFilter {
    /// An image whose pixels seed the means.
    var inputMeans: CIImage? { get set }
    /// The number of means.
    var count: Int { get set }
    /// The number of passes to refine the means.
    var passes: Float { get set }
    /// A Boolean value that specifies whether colors are compared perceptually.
    var perceptual: Bool { get set }
}

/// The properties you use to configure a document enhancer filter.
public protocol CIDocumentEnhancer: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The amount of enhancement.
    var amount: Float { get set }
}

/// The properties you use to configure a conversion between RGB and CIE L*a*b*.
public protocol CIConvertLab: CIFilterProtocol {
    /// The image to convert.
    var inputImage: CIImage? { get set }
    /// A Boolean value that determines whether the L*a*b* values are normalized to 0 to 1.
    var normalize: Bool { get set }
}

/// The properties you use to configure a Lab ΔE filter.
public protocol CILabDeltaE: CIFilterProtocol {
    /// The first image.
    var inputImage: CIImage? { get set }
    /// The second image.
    var image2: CIImage? { get set }
}

/// The properties you use to configure a Sobel gradients filter.
public protocol CISobelGradients: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a color curves filter.
public protocol CIColorCurves: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// Data containing the red, green and blue float values of the curves.
    var curvesData: Data { get set }
    /// The input values the curves data spans.
    var curvesDomain: CIVector { get set }
    /// The color space in which the curves apply.
    var colorSpace: CGColorSpace? { get set }
}

/// The properties you use to configure a rounded rectangle stroke generator filter.
public protocol CIRoundedRectangleStrokeGenerator: CIFilterProtocol {
    /// The rectangle to stroke.
    var extent: CGRect { get set }
    /// The radius of the rounded corners.
    var radius: Float { get set }
    /// The color of the stroke.
    var color: CIColor { get set }
    /// The width of the stroke.
    var width: Float { get set }
}

/// The properties you use to configure a blurred rectangle generator filter.
public protocol CIBlurredRectangleGenerator: CIFilterProtocol {
    /// The rectangle to fill.
    var extent: CGRect { get set }
    /// The standard deviation of the blur.
    var sigma: Float { get set }
    /// The color of the rectangle.
    var color: CIColor { get set }
}

/// The properties you use to configure a sixfold rotated tile filter.
public protocol CISixfoldRotatedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a sixfold reflected tile filter.
public protocol CISixfoldReflectedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a twelvefold reflected tile filter.
public protocol CITwelvefoldReflectedTile: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// The x and y position to use as the center of the effect.
    var center: CGPoint { get set }
    /// The angle, in radians, of the tiled pattern.
    var angle: Float { get set }
    /// The width of a tile.
    var width: Float { get set }
}

/// The properties you use to configure a glass distortion filter.
public protocol CIGlassDistortion: CIFilterProtocol {
    /// The image to process.
    var inputImage: CIImage? { get set }
    /// A texture to apply to the source image.
    var textureImage: CIImage? { get set }
    /// The center of the effect as x and y coordinates.
    var center: CGPoint { get set }
    /// The amount of texturing of the resulting image.
    var scale: Float { get set }
}

/// The properties you use to configure a height field from mask filter.
public protocol CIHeightFieldFromMask: CIFilterProtocol {
    /// The white values of the mask define those pixels that are inside the height field.
    var inputImage: CIImage? { get set }
    /// The distance from the edge of the mask for the smooth transition.
    var radius: Float { get set }
}

/// The properties you use to configure a shaded material filter.
public protocol CIShadedMaterial: CIFilterProtocol {
    /// The image to use as a height field.
    var inputImage: CIImage? { get set }
    /// The image to use as the shading: a picture of a lit sphere.
    var shadingImage: CIImage? { get set }
    /// The scale of the effect.
    var scale: Float { get set }
}
