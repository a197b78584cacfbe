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
    private func point(_ key: String) -> CGPoint { CGPoint(x: vector(key).x, y: vector(key).y) }
    private func setPoint(_ point: CGPoint, _ key: String) { setValue(CIVector(cgPoint: point), forKey: key) }

    var point0: CGPoint {
        get { point("inputPoint0") }
        set { setPoint(newValue, "inputPoint0") }
    }
    var point1: CGPoint {
        get { point("inputPoint1") }
        set { setPoint(newValue, "inputPoint1") }
    }
    var center: CGPoint {
        get { point(kCIInputCenterKey) }
        set { setPoint(newValue, kCIInputCenterKey) }
    }
    var color0: CIColor {
        get { color("inputColor0") }
        set { setValue(newValue, forKey: "inputColor0") }
    }
    var color1: CIColor {
        get { color("inputColor1") }
        set { setValue(newValue, forKey: "inputColor1") }
    }
    var color: CIColor {
        get { color(kCIInputColorKey) }
        set { setValue(newValue, forKey: kCIInputColorKey) }
    }
    var extent: CGRect {
        get { vector(kCIInputExtentKey).cgRectValue }
        set { setValue(CIVector(cgRect: newValue), forKey: kCIInputExtentKey) }
    }
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
    var radius0: Float {
        get { float("inputRadius0") }
        set { setFloat(newValue, "inputRadius0") }
    }
    var radius1: Float {
        get { float("inputRadius1") }
        set { setFloat(newValue, "inputRadius1") }
    }
    var angle: Float {
        get { float(kCIInputAngleKey) }
        set { setFloat(newValue, kCIInputAngleKey) }
    }
    var scale: Float {
        get { float(kCIInputScaleKey) }
        set { setFloat(newValue, kCIInputScaleKey) }
    }
    var width: Float {
        get { float(kCIInputWidthKey) }
        set { setFloat(newValue, kCIInputWidthKey) }
    }
    var sharpness: Float {
        get { float(kCIInputSharpnessKey) }
        set { setFloat(newValue, kCIInputSharpnessKey) }
    }
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
    }
    var falloff: Float {
        get { float("inputFalloff") }
        set { setFloat(newValue, "inputFalloff") }
    }
    var aspectRatio: Float {
        get { float(kCIInputAspectRatioKey) }
        set { setFloat(newValue, kCIInputAspectRatioKey) }
    }
    var parameterB: Float {
        get { float("inputB") }
        set { setFloat(newValue, "inputB") }
    }
    var parameterC: Float {
        get { float("inputC") }
        set { setFloat(newValue, "inputC") }
    }
    var acuteAngle: Float {
        get { float("inputAcuteAngle") }
        set { setFloat(newValue, "inputAcuteAngle") }
    }
    var count: Int {
        get { Int(float("inputCount")) }
        set { setValue(NSNumber(value: newValue), forKey: "inputCount") }
    }
    var value: Float {
        get { float("inputValue") }
        set { setFloat(newValue, "inputValue") }
    }
    var softness: Float {
        get { float("inputSoftness") }
        set { setFloat(newValue, "inputSoftness") }
    }
    var dither: Float {
        get { float("inputDither") }
        set { setFloat(newValue, "inputDither") }
    }
    var colorSpace: CGColorSpace? {
        get { value(forKey: "inputColorSpace").map { $0 as AnyObject } as? CGColorSpace }
        set { setValue(newValue, forKey: "inputColorSpace") }
    }
    var displacementImage: CIImage? {
        get { value(forKey: "inputDisplacementImage") as? CIImage }
        set { setValue(newValue, forKey: "inputDisplacementImage") }
    }
    var amount: Float {
        get { float(kCIInputAmountKey) }
        set { setFloat(newValue, kCIInputAmountKey) }
    }
    var minimumStop: Float {
        get { float("inputMinimumStop") }
        set { setFloat(newValue, "inputMinimumStop") }
    }
    var maximumStop: Float {
        get { float("inputMaximumStop") }
        set { setFloat(newValue, "inputMaximumStop") }
    }
    var height: Float {
        get { float("inputHeight") }
        set { setFloat(newValue, "inputHeight") }
    }
    var highLimit: Float {
        get { float("inputHighLimit") }
        set { setFloat(newValue, "inputHighLimit") }
    }
    var lowLimit: Float {
        get { float("inputLowLimit") }
        set { setFloat(newValue, "inputLowLimit") }
    }
    var mask: CIImage? {
        get { value(forKey: "inputMask") as? CIImage }
        set { setValue(newValue, forKey: "inputMask") }
    }
    var noiseLevel: Float {
        get { float("inputNoiseLevel") }
        set { setFloat(newValue, "inputNoiseLevel") }
    }
    var ringAmount: Float {
        get { float("inputRingAmount") }
        set { setFloat(newValue, "inputRingAmount") }
    }
    var ringSize: Float {
        get { float("inputRingSize") }
        set { setFloat(newValue, "inputRingSize") }
    }
    var lightPosition: CIVector {
        get { vector("inputLightPosition") }
        set { setValue(newValue, forKey: "inputLightPosition") }
    }
    var lightPointsAt: CIVector {
        get { vector("inputLightPointsAt") }
        set { setValue(newValue, forKey: "inputLightPointsAt") }
    }
    var brightness: Float {
        get { float("inputBrightness") }
        set { setFloat(newValue, "inputBrightness") }
    }
    var concentration: Float {
        get { float("inputConcentration") }
        set { setFloat(newValue, "inputConcentration") }
    }
    var nrNoiseLevel: Float {
        get { float("inputNRNoiseLevel") }
        set { setFloat(newValue, "inputNRNoiseLevel") }
    }
    var nrSharpness: Float {
        get { float("inputNRSharpness") }
        set { setFloat(newValue, "inputNRSharpness") }
    }
    var edgeIntensity: Float {
        get { float("inputEdgeIntensity") }
        set { setFloat(newValue, "inputEdgeIntensity") }
    }
    var threshold: Float {
        get { float("inputThreshold") }
        set { setFloat(newValue, "inputThreshold") }
    }
    var contrast: Float {
        get { float(kCIInputContrastKey) }
        set { setFloat(newValue, kCIInputContrastKey) }
    }
    var grayComponentReplacement: Float {
        get { float("inputGCR") }
        set { setFloat(newValue, "inputGCR") }
    }
    var underColorRemoval: Float {
        get { float("inputUCR") }
        set { setFloat(newValue, "inputUCR") }
    }
    private func point(_ key: String, default fallback: CGPoint = .zero) -> CGPoint {
        (value(forKey: key) as? CIVector).map { CGPoint(x: $0.x, y: $0.y) } ?? fallback
    }
    var breakpoint0: CGPoint {
        get { point("inputBreakpoint0") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputBreakpoint0") }
    }
    var breakpoint1: CGPoint {
        get { point("inputBreakpoint1") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputBreakpoint1") }
    }
    var growAmount: CGPoint {
        get { point("inputGrowAmount") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputGrowAmount") }
    }
    var flipYTiles: Bool {
        get { float("inputFlipYTiles") != 0 }
        set { setFloat(newValue ? 1 : 0, "inputFlipYTiles") }
    }
    var paletteImage: CIImage? {
        get { value(forKey: "inputPaletteImage") as? CIImage }
        set { setValue(newValue, forKey: "inputPaletteImage") }
    }
    var perceptual: Bool {
        get { float("inputPerceptual") != 0 }
        set { setFloat(newValue ? 1 : 0, "inputPerceptual") }
    }
    var inputMeans: CIImage? {
        get { value(forKey: "inputMeans") as? CIImage }
        set { setValue(newValue, forKey: "inputMeans") }
    }
    var passes: Float {
        get { float("inputPasses") }
        set { setFloat(newValue, "inputPasses") }
    }
    var normalize: Bool {
        get { float("inputNormalize") != 0 }
        set { setFloat(newValue ? 1 : 0, "inputNormalize") }
    }
    var image2: CIImage? {
        get { value(forKey: "inputImage2") as? CIImage }
        set { setValue(newValue, forKey: "inputImage2") }
    }
    var curvesData: Data {
        get { value(forKey: "inputCurvesData") as? Data ?? Data() }
        set { setValue(newValue, forKey: "inputCurvesData") }
    }
    var curvesDomain: CIVector {
        get { vector("inputCurvesDomain") }
        set { setValue(newValue, forKey: "inputCurvesDomain") }
    }
    var sigma: Float {
        get { float("inputSigma") }
        set { setFloat(newValue, "inputSigma") }
    }
    var textureImage: CIImage? {
        get { value(forKey: "inputTexture") as? CIImage }
        set { setValue(newValue, forKey: "inputTexture") }
    }
    var shadingImage: CIImage? {
        get { value(forKey: "inputShadingImage") as? CIImage }
        set { setValue(newValue, forKey: "inputShadingImage") }
    }
    var levels: Float {
        get { float("inputLevels") }
        set { setFloat(newValue, "inputLevels") }
    }
}

/// The typed form of the Aztec, PDF417 and Code 128 generators.
final class BarcodeGeneratorFilter: CIFilter, CIAztecCodeGenerator, CIPDF417BarcodeGenerator, CICode128BarcodeGenerator, @unchecked Sendable {
    var message: Data {
        get { value(forKey: "inputMessage") as? Data ?? Data() }
        set { setValue(newValue, forKey: "inputMessage") }
    }
    var correctionLevel: Float {
        get { float("inputCorrectionLevel") }
        set { setFloat(newValue, "inputCorrectionLevel") }
    }
    var layers: Float {
        get { float("inputLayers") }
        set { setFloat(newValue, "inputLayers") }
    }
    var compactStyle: Float {
        get { float("inputCompactStyle") }
        set { setFloat(newValue, "inputCompactStyle") }
    }
    var minWidth: Float {
        get { float("inputMinWidth") }
        set { setFloat(newValue, "inputMinWidth") }
    }
    var maxWidth: Float {
        get { float("inputMaxWidth") }
        set { setFloat(newValue, "inputMaxWidth") }
    }
    var minHeight: Float {
        get { float("inputMinHeight") }
        set { setFloat(newValue, "inputMinHeight") }
    }
    var maxHeight: Float {
        get { float("inputMaxHeight") }
        set { setFloat(newValue, "inputMaxHeight") }
    }
    var dataColumns: Float {
        get { float("inputDataColumns") }
        set { setFloat(newValue, "inputDataColumns") }
    }
    var rows: Float {
        get { float("inputRows") }
        set { setFloat(newValue, "inputRows") }
    }
    var preferredAspectRatio: Float {
        get { float("inputPreferredAspectRatio") }
        set { setFloat(newValue, "inputPreferredAspectRatio") }
    }
    var compactionMode: Float {
        get { float("inputCompactionMode") }
        set { setFloat(newValue, "inputCompactionMode") }
    }
    var alwaysSpecifyCompaction: Float {
        get { float("inputAlwaysSpecifyCompaction") }
        set { setFloat(newValue, "inputAlwaysSpecifyCompaction") }
    }
    var quietSpace: Float {
        get { float("inputQuietSpace") }
        set { setFloat(newValue, "inputQuietSpace") }
    }
    var barcodeHeight: Float {
        get { float("inputBarcodeHeight") }
        set { setFloat(newValue, "inputBarcodeHeight") }
    }
}

/// The typed form of the colour tables and the band-by-band colour filters.
final class ColorTableTypedFilter: TypedFilter, CIColorCube, CIColorCubeWithColorSpace, CIColorCubesMixedWithMask, CIColorMap, CIThermal, CIXRay,
    CIColorThreshold, CIColorThresholdOtsu, CIColorAbsoluteDifference, CIColorCrossPolynomial, CIDither, @unchecked Sendable
{
    private func data(_ key: String) -> Data { value(forKey: key) as? Data ?? Data() }
    private func image(_ key: String) -> CIImage? { value(forKey: key) as? CIImage }

    var cubeDimension: Float {
        get { float("inputCubeDimension") }
        set { setFloat(newValue, "inputCubeDimension") }
    }
    var cubeData: Data {
        get { data("inputCubeData") }
        set { setValue(newValue, forKey: "inputCubeData") }
    }
    var cube0Data: Data {
        get { data("inputCube0Data") }
        set { setValue(newValue, forKey: "inputCube0Data") }
    }
    var cube1Data: Data {
        get { data("inputCube1Data") }
        set { setValue(newValue, forKey: "inputCube1Data") }
    }
    var extrapolate: Bool {
        get { float("inputExtrapolate") != 0 }
        set { setFloat(newValue ? 1 : 0, "inputExtrapolate") }
    }
    var colorSpace: CGColorSpace? {
        get { value(forKey: "inputColorSpace").map { $0 as AnyObject } as? CGColorSpace }
        set { setValue(newValue, forKey: "inputColorSpace") }
    }
    var maskImage: CIImage? {
        get { image(kCIInputMaskImageKey) }
        set { setValue(newValue, forKey: kCIInputMaskImageKey) }
    }
    var gradientImage: CIImage? {
        get { image("inputGradientImage") }
        set { setValue(newValue, forKey: "inputGradientImage") }
    }
    var inputImage2: CIImage? {
        get { image("inputImage2") }
        set { setValue(newValue, forKey: "inputImage2") }
    }
    var threshold: Float {
        get { float("inputThreshold") }
        set { setFloat(newValue, "inputThreshold") }
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
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
    }
}

/// The typed form of the swipe, copy machine, bars swipe and disintegrate transitions.
final class TransitionTypedFilter: TypedFilter, CISwipeTransition, CICopyMachineTransition, CIBarsSwipeTransition, CIDisintegrateWithMaskTransition,
    @unchecked Sendable
{
    var targetImage: CIImage? {
        get { value(forKey: kCIInputTargetImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputTargetImageKey) }
    }
    var maskImage: CIImage? {
        get { value(forKey: kCIInputMaskImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputMaskImageKey) }
    }
    var time: Float {
        get { float(kCIInputTimeKey) }
        set { setFloat(newValue, kCIInputTimeKey) }
    }
    var extent: CGRect {
        get { vector(kCIInputExtentKey).cgRectValue }
        set { setValue(CIVector(cgRect: newValue), forKey: kCIInputExtentKey) }
    }
    var color: CIColor {
        get { color(kCIInputColorKey) }
        set { setValue(newValue, forKey: kCIInputColorKey) }
    }
    var angle: Float {
        get { float(kCIInputAngleKey) }
        set { setFloat(newValue, kCIInputAngleKey) }
    }
    var width: Float {
        get { float(kCIInputWidthKey) }
        set { setFloat(newValue, kCIInputWidthKey) }
    }
    var opacity: Float {
        get { float("inputOpacity") }
        set { setFloat(newValue, "inputOpacity") }
    }
    var barOffset: Float {
        get { float("inputBarOffset") }
        set { setFloat(newValue, "inputBarOffset") }
    }
    var shadowRadius: Float {
        get { float("inputShadowRadius") }
        set { setFloat(newValue, "inputShadowRadius") }
    }
    var shadowDensity: Float {
        get { float("inputShadowDensity") }
        set { setFloat(newValue, "inputShadowDensity") }
    }
    var shadowOffset: CGPoint {
        get { CGPoint(x: vector("inputShadowOffset").x, y: vector("inputShadowOffset").y) }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputShadowOffset") }
    }
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
    var fontSize: Float {
        get { float("inputFontSize") }
        set { setFloat(newValue, "inputFontSize") }
    }
    var scaleFactor: Float {
        get { float("inputScaleFactor") }
        set { setFloat(newValue, "inputScaleFactor") }
    }
    var padding: Float {
        get { float("inputPadding") }
        set { setFloat(newValue, "inputPadding") }
    }
}
