import CoreGraphics
import Foundation

// The classes behind the typed filters: each sets and reads its definition's inputs by key.

/// Typed reads and writes of a filter's inputs, which every typed filter's properties are made of.
extension CIFilter {
    func float(_ key: String) -> Float { Float(FilterInputs(values: [key: value(forKey: key) as Any]).number(key) ?? 0) }
    func setFloat(_ value: Float, _ key: String) { setValue(NSNumber(value: value), forKey: key) }
    func vector(_ key: String) -> CIVector { value(forKey: key) as? CIVector ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
    func color(_ key: String) -> CIColor { value(forKey: key) as? CIColor ?? CIColor(red: 0, green: 0, blue: 0) }
}

/// A built-in filter with its inputs as typed properties.
class TypedFilter: CIFilter, @unchecked Sendable {
    /// The input image.
    var inputImage: CIImage? {
        get { value(forKey: kCIInputImageKey) as? CIImage }
        set { setValue(newValue, forKey: kCIInputImageKey) }
    }
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
        set { setFloat(newValue, kCIInputWidthKey) }
    }
    var sharpness: Float {
        get { float(kCIInputSharpnessKey) }
        set { setFloat(newValue, kCIInputSharpnessKey) }
    }
}

final class StylizeFilter: TypedFilter, CIPixellate, CIMotionBlur, CISharpenLuminance, CIUnsharpMask, @unchecked Sendable {
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
    var intensity: Float {
        get { float(kCIInputIntensityKey) }
        set { setFloat(newValue, kCIInputIntensityKey) }
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

final class PerspectiveFilter: TypedFilter, CIPerspectiveCorrection, CIPerspectiveTransform, CIPerspectiveTransformWithExtent, @unchecked Sendable {
    var extent: CGRect {
        get { vector(kCIInputExtentKey).cgRectValue }
        set { setValue(CIVector(cgRect: newValue), forKey: kCIInputExtentKey) }
    }
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

final class TemperatureAndTintFilter: TypedFilter, CITemperatureAndTint, @unchecked Sendable {
    var neutral: CIVector {
        get { vector("inputNeutral") }
        set { setValue(newValue, forKey: "inputNeutral") }
    }
    var targetNeutral: CIVector {
        get { vector("inputTargetNeutral") }
        set { setValue(newValue, forKey: "inputTargetNeutral") }
    }
}

final class VibranceFilter: TypedFilter, CIVibrance, @unchecked Sendable {
    var amount: Float {
        get { float(kCIInputAmountKey) }
        set { setFloat(newValue, kCIInputAmountKey) }
    }
}

final class HighlightShadowAdjustFilter: TypedFilter, CIHighlightShadowAdjust, @unchecked Sendable {
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setFloat(newValue, kCIInputRadiusKey) }
    }
    var shadowAmount: Float {
        get { float("inputShadowAmount") }
        set { setFloat(newValue, "inputShadowAmount") }
    }
    var highlightAmount: Float {
        get { float("inputHighlightAmount") }
        set { setFloat(newValue, "inputHighlightAmount") }
    }
}
