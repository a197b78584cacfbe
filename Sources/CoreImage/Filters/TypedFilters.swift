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
    @Input(kCIInputImageKey) var inputImage: CIImage?
}

final class ImageOnlyFilter: TypedFilter, CIColorInvert, CIPhotoEffect, CIMedian, CILinearToSRGBToneCurve, CISRGBToneCurveToLinear,
    CIMaximumComponent, CIMinimumComponent, @unchecked Sendable
{}

final class MixingFilter: TypedFilter, CIMix, CIDissolveTransition, CIBlendWithMask, @unchecked Sendable {
    @Input(kCIInputBackgroundImageKey) var backgroundImage: CIImage?
    @Input(kCIInputTargetImageKey) var targetImage: CIImage?
    @Input(kCIInputMaskImageKey) var maskImage: CIImage?
    @Input(kCIInputAmountKey) var amount: Float
    @Input(kCIInputTimeKey) var time: Float
}

final class CurveFilter: TypedFilter, CIGammaAdjust, CIColorClamp, CIColorPolynomial, CIToneCurve, @unchecked Sendable {

    @Input("inputPower") var power: Float
    @Input("inputMinComponents") var minComponents: CIVector
    @Input("inputMaxComponents") var maxComponents: CIVector
    @Input("inputRedCoefficients") var redCoefficients: CIVector
    @Input("inputGreenCoefficients") var greenCoefficients: CIVector
    @Input("inputBlueCoefficients") var blueCoefficients: CIVector
    @Input("inputAlphaCoefficients") var alphaCoefficients: CIVector
    @Input("inputPoint0") var point0: CGPoint
    @Input("inputPoint1") var point1: CGPoint
    @Input("inputPoint2") var point2: CGPoint
    @Input("inputPoint3") var point3: CGPoint
    @Input("inputPoint4") var point4: CGPoint
}

final class RadiusFilter: TypedFilter, CIBoxBlur, CIDiscBlur, @unchecked Sendable {
    @Input(kCIInputRadiusKey) var radius: Float
}

final class RectangleFilter: TypedFilter, CIMorphologyRectangleMaximum, CIMorphologyRectangleMinimum, @unchecked Sendable {
    @Input(kCIInputWidthKey) var width: Float
    @Input("inputHeight") var height: Float
}

final class GaussianBlurFilter: TypedFilter, CIGaussianBlur, @unchecked Sendable {
    @Input(kCIInputRadiusKey) var radius: Float
}

final class ColorControlsFilter: TypedFilter, CIColorControls, @unchecked Sendable {
    @Input(kCIInputSaturationKey) var saturation: Float
    @Input(kCIInputBrightnessKey) var brightness: Float
    @Input(kCIInputContrastKey) var contrast: Float
}

final class ExposureAdjustFilter: TypedFilter, CIExposureAdjust, @unchecked Sendable {
    @Input(kCIInputEVKey) var ev: Float
}

final class ColorMatrixFilter: TypedFilter, CIColorMatrix, @unchecked Sendable {
    @Input("inputRVector") var rVector: CIVector
    @Input("inputGVector") var gVector: CIVector
    @Input("inputBVector") var bVector: CIVector
    @Input("inputAVector") var aVector: CIVector
    @Input("inputBiasVector") var biasVector: CIVector
}

final class SepiaToneFilter: TypedFilter, CISepiaTone, @unchecked Sendable {
    @Input(kCIInputIntensityKey) var intensity: Float
}

final class LanczosFilter: TypedFilter, CILanczosScaleTransform, @unchecked Sendable {
    @Input(kCIInputScaleKey) var scale: Float
    @Input(kCIInputAspectRatioKey) var aspectRatio: Float
}

final class CompositeFilter: TypedFilter, CICompositeOperation, @unchecked Sendable {
    @Input(kCIInputBackgroundImageKey) var backgroundImage: CIImage?
}

final class ColorEffectFilter: TypedFilter, CIColorMonochrome, CIFalseColor, CIHueAdjust, CIWhitePointAdjust, @unchecked Sendable {
    @Input(kCIInputColorKey) var color: CIColor
    @Input(kCIInputIntensityKey) var intensity: Float
    @Input("inputColor0") var color0: CIColor
    @Input("inputColor1") var color1: CIColor
    @Input(kCIInputAngleKey) var angle: Float
}

final class AreaReductionFilter: TypedFilter, CIAreaAverage, @unchecked Sendable {
    @Input(kCIInputExtentKey) var extent: CGRect
}

final class ConvolutionFilter: TypedFilter, CIConvolution, @unchecked Sendable {
    @Input(kCIInputWeightsKey) var weights: CIVector
    @Input(kCIInputBiasKey) var bias: Float
}

final class AffineTileFilter: TypedFilter, CIAffineClamp, CIAffineTile, @unchecked Sendable {
    var transform: CGAffineTransform {
        get { value(forKey: kCIInputTransformKey) as? CGAffineTransform ?? .identity }
        set { setValue(newValue, forKey: kCIInputTransformKey) }
    }
}

final class PatternFilter: CIFilter, CICheckerboardGenerator, CIStripesGenerator, @unchecked Sendable {
    @Input(kCIInputCenterKey) var center: CGPoint
    @Input("inputColor0") var color0: CIColor
    @Input("inputColor1") var color1: CIColor
    @Input(kCIInputWidthKey) var width: Float
    @Input(kCIInputSharpnessKey) var sharpness: Float
}

final class StylizeFilter: TypedFilter, CIPixellate, CIMotionBlur, CISharpenLuminance, CIUnsharpMask, @unchecked Sendable {
    @Input(kCIInputCenterKey) var center: CGPoint
    @Input(kCIInputScaleKey) var scale: Float
    @Input(kCIInputRadiusKey) var radius: Float
    @Input(kCIInputAngleKey) var angle: Float
    @Input(kCIInputSharpnessKey) var sharpness: Float
    @Input(kCIInputIntensityKey) var intensity: Float
}

final class QRCodeFilter: CIFilter, CIQRCodeGenerator, @unchecked Sendable {
    @Input("inputMessage") var message: Data
    var correctionLevel: String {
        get { value(forKey: "inputCorrectionLevel") as? String ?? "M" }
        set { setValue(newValue, forKey: "inputCorrectionLevel") }
    }
}

final class VignetteFilter: TypedFilter, CIVignette, @unchecked Sendable {
    @Input(kCIInputIntensityKey) var intensity: Float
    @Input(kCIInputRadiusKey) var radius: Float
}

final class PerspectiveFilter: TypedFilter, CIPerspectiveCorrection, CIPerspectiveTransform, CIPerspectiveTransformWithExtent, @unchecked Sendable {
    @Input(kCIInputExtentKey) var extent: CGRect

    @Input("inputTopLeft") var topLeft: CGPoint
    @Input("inputTopRight") var topRight: CGPoint
    @Input("inputBottomRight") var bottomRight: CGPoint
    @Input("inputBottomLeft") var bottomLeft: CGPoint
    @Input("inputCrop") var crop: Bool
}

final class TemperatureAndTintFilter: TypedFilter, CITemperatureAndTint, @unchecked Sendable {
    @Input("inputNeutral") var neutral: CIVector
    @Input("inputTargetNeutral") var targetNeutral: CIVector
}

final class VibranceFilter: TypedFilter, CIVibrance, @unchecked Sendable {
    @Input(kCIInputAmountKey) var amount: Float
}

final class HighlightShadowAdjustFilter: TypedFilter, CIHighlightShadowAdjust, @unchecked Sendable {
    @Input(kCIInputRadiusKey) var radius: Float
    @Input("inputShadowAmount") var shadowAmount: Float
    @Input("inputHighlightAmount") var highlightAmount: Float
}
