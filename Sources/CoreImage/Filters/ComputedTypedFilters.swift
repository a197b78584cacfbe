import CoreGraphics
import Foundation

/// The typed form of the gradients, generators, reductions, halftones, distortions and glows:
/// each property reads and writes its input by Apple's key.
final class ComputedTypedFilter: TypedFilter, CILinearGradient, CISmoothLinearGradient, CIRadialGradient, CIGaussianGradient,
    CIRandomGenerator, CIRoundedRectangleGenerator, CIAreaMaximum, CIAreaMinimum, CIAreaMinMax, CIAreaMinMaxRed, CIRowAverage,
    CIColumnAverage, CIColorPosterize, CIDotScreen, CILineScreen, CICircularScreen, CITwirlDistortion, CIVortexDistortion,
    CIPinchDistortion, CIBumpDistortion, CIHoleDistortion, CICircleSplashDistortion, CIBloom, CIGloom, CIEdges, CIVignetteEffect,
    CIMorphologyMaximum, CIMorphologyMinimum, CIMorphologyGradient, CIStraighten, CIBicubicScaleTransform, CIFourfoldTranslatedTile,
    CIFourfoldReflectedTile, CIParallelogramTile, CIFourfoldRotatedTile, CIEightfoldReflectedTile, CIGlideReflectedTile, CIKaleidoscope,
    CIHatchedScreen, CIHueSaturationValueGradient, CIDisplacementDistortion, CIBumpDistortionLinear, CIZoomBlur, CIAreaHistogram,
    CIAreaLogarithmicHistogram, CIHistogramDisplay, CIAreaMaximumAlpha, CIAreaMinimumAlpha, CIHexagonalPixellate, CICrystallize,
    CIMaskedVariableBlur, CINoiseReduction, CIBokehBlur, CISpotLight, CILineOverlay, CICMYKHalftone, CIComicEffect, CINinePartStretched,
    CINinePartTiled, CIPalettize, CIKMeans, CIDocumentEnhancer, CIConvertLab, CILabDeltaE, CISobelGradients, CIColorCurves,
    CIRoundedRectangleStrokeGenerator, CIBlurredRectangleGenerator, CISixfoldRotatedTile, CISixfoldReflectedTile, CITwelvefoldReflectedTile,
    CIGlassDistortion, CIHeightFieldFromMask, CIShadedMaterial,
    @unchecked Sendable
{

    @Input("inputPoint0") var point0: CGPoint
    @Input("inputPoint1") var point1: CGPoint
    @Input(kCIInputCenterKey) var center: CGPoint
    @Input("inputColor0") var color0: CIColor
    @Input("inputColor1") var color1: CIColor
    @Input(kCIInputColorKey) var color: CIColor
    @Input(kCIInputExtentKey) var extent: CGRect
    @Input(kCIInputRadiusKey) var radius: Float
    @Input("inputRadius0") var radius0: Float
    @Input("inputRadius1") var radius1: Float
    @Input(kCIInputAngleKey) var angle: Float
    @Input(kCIInputScaleKey) var scale: Float
    @Input(kCIInputWidthKey) var width: Float
    @Input(kCIInputSharpnessKey) var sharpness: Float
    @Input(kCIInputIntensityKey) var intensity: Float
    @Input("inputFalloff") var falloff: Float
    @Input(kCIInputAspectRatioKey) var aspectRatio: Float
    @Input("inputB") var parameterB: Float
    @Input("inputC") var parameterC: Float
    @Input("inputAcuteAngle") var acuteAngle: Float
    @Input("inputCount") var count: Int
    @Input("inputValue") var value: Float
    @Input("inputSoftness") var softness: Float
    @Input("inputDither") var dither: Float
    var colorSpace: CGColorSpace? {
        get { value(forKey: "inputColorSpace").map { $0 as AnyObject } as? CGColorSpace }
        set { setValue(newValue, forKey: "inputColorSpace") }
    }
    @Input("inputDisplacementImage") var displacementImage: CIImage?
    @Input(kCIInputAmountKey) var amount: Float
    @Input("inputMinimumStop") var minimumStop: Float
    @Input("inputMaximumStop") var maximumStop: Float
    @Input("inputHeight") var height: Float
    @Input("inputHighLimit") var highLimit: Float
    @Input("inputLowLimit") var lowLimit: Float
    @Input("inputMask") var mask: CIImage?
    @Input("inputNoiseLevel") var noiseLevel: Float
    @Input("inputRingAmount") var ringAmount: Float
    @Input("inputRingSize") var ringSize: Float
    @Input("inputLightPosition") var lightPosition: CIVector
    @Input("inputLightPointsAt") var lightPointsAt: CIVector
    @Input("inputBrightness") var brightness: Float
    @Input("inputConcentration") var concentration: Float
    @Input("inputNRNoiseLevel") var nrNoiseLevel: Float
    @Input("inputNRSharpness") var nrSharpness: Float
    @Input("inputEdgeIntensity") var edgeIntensity: Float
    @Input("inputThreshold") var threshold: Float
    @Input(kCIInputContrastKey) var contrast: Float
    @Input("inputGCR") var grayComponentReplacement: Float
    @Input("inputUCR") var underColorRemoval: Float
    @Input("inputBreakpoint0") var breakpoint0: CGPoint
    @Input("inputBreakpoint1") var breakpoint1: CGPoint
    @Input("inputGrowAmount") var growAmount: CGPoint
    @Input("inputFlipYTiles") var flipYTiles: Bool
    @Input("inputPaletteImage") var paletteImage: CIImage?
    @Input("inputPerceptual") var perceptual: Bool
    @Input("inputMeans") var inputMeans: CIImage?
    @Input("inputPasses") var passes: Float
    @Input("inputNormalize") var normalize: Bool
    @Input("inputImage2") var image2: CIImage?
    @Input("inputCurvesData") var curvesData: Data
    @Input("inputCurvesDomain") var curvesDomain: CIVector
    @Input("inputSigma") var sigma: Float
    @Input("inputTexture") var textureImage: CIImage?
    @Input("inputShadingImage") var shadingImage: CIImage?
    @Input("inputLevels") var levels: Float
}

/// The typed form of the Aztec, PDF417 and Code 128 generators.
final class BarcodeGeneratorFilter: CIFilter, CIAztecCodeGenerator, CIPDF417BarcodeGenerator, CICode128BarcodeGenerator, @unchecked Sendable {
    @Input("inputMessage") var message: Data
    @Input("inputCorrectionLevel") var correctionLevel: Float
    @Input("inputLayers") var layers: Float
    @Input("inputCompactStyle") var compactStyle: Float
    @Input("inputMinWidth") var minWidth: Float
    @Input("inputMaxWidth") var maxWidth: Float
    @Input("inputMinHeight") var minHeight: Float
    @Input("inputMaxHeight") var maxHeight: Float
    @Input("inputDataColumns") var dataColumns: Float
    @Input("inputRows") var rows: Float
    @Input("inputPreferredAspectRatio") var preferredAspectRatio: Float
    @Input("inputCompactionMode") var compactionMode: Float
    @Input("inputAlwaysSpecifyCompaction") var alwaysSpecifyCompaction: Float
    @Input("inputQuietSpace") var quietSpace: Float
    @Input("inputBarcodeHeight") var barcodeHeight: Float
}

/// The typed form of the colour tables and the band-by-band colour filters.
final class ColorTableTypedFilter: TypedFilter, CIColorCube, CIColorCubeWithColorSpace, CIColorCubesMixedWithMask, CIColorMap, CIThermal, CIXRay,
    CIColorThreshold, CIColorThresholdOtsu, CIColorAbsoluteDifference, CIColorCrossPolynomial, CIDither, @unchecked Sendable
{

    @Input("inputCubeDimension") var cubeDimension: Float
    @Input("inputCubeData") var cubeData: Data
    @Input("inputCube0Data") var cube0Data: Data
    @Input("inputCube1Data") var cube1Data: Data
    @Input("inputExtrapolate") var extrapolate: Bool
    var colorSpace: CGColorSpace? {
        get { value(forKey: "inputColorSpace").map { $0 as AnyObject } as? CGColorSpace }
        set { setValue(newValue, forKey: "inputColorSpace") }
    }
    @Input(kCIInputMaskImageKey) var maskImage: CIImage?
    @Input("inputGradientImage") var gradientImage: CIImage?
    @Input("inputImage2") var inputImage2: CIImage?
    @Input("inputThreshold") var threshold: Float
    @Input("inputRedCoefficients") var redCoefficients: CIVector
    @Input("inputGreenCoefficients") var greenCoefficients: CIVector
    @Input("inputBlueCoefficients") var blueCoefficients: CIVector
    @Input(kCIInputIntensityKey) var intensity: Float
}

/// The typed form of the swipe, copy machine, bars swipe and disintegrate transitions.
final class TransitionTypedFilter: TypedFilter, CISwipeTransition, CICopyMachineTransition, CIBarsSwipeTransition, CIDisintegrateWithMaskTransition,
    @unchecked Sendable
{
    @Input(kCIInputTargetImageKey) var targetImage: CIImage?
    @Input(kCIInputMaskImageKey) var maskImage: CIImage?
    @Input(kCIInputTimeKey) var time: Float
    @Input(kCIInputExtentKey) var extent: CGRect
    @Input(kCIInputColorKey) var color: CIColor
    @Input(kCIInputAngleKey) var angle: Float
    @Input(kCIInputWidthKey) var width: Float
    @Input("inputOpacity") var opacity: Float
    @Input("inputBarOffset") var barOffset: Float
    @Input("inputShadowRadius") var shadowRadius: Float
    @Input("inputShadowDensity") var shadowDensity: Float
    @Input("inputShadowOffset") var shadowOffset: CGPoint
}

/// The typed form of the text image generator.
final class TextImageGeneratorFilter: CIFilter, CITextImageGenerator, @unchecked Sendable {
    var text: String {
        get { value(forKey: "inputText") as? String ?? "" }
        set { setValue(newValue, forKey: "inputText") }
    }
    var fontName: String {
        get { value(forKey: "inputFontName") as? String ?? "" }
        set { setValue(newValue, forKey: "inputFontName") }
    }
    @Input("inputFontSize") var fontSize: Float
    @Input("inputScaleFactor") var scaleFactor: Float
    @Input("inputPadding") var padding: Float
}
