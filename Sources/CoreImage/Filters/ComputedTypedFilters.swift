import CoreGraphics
import Foundation

/// The typed form of the gradients, generators, reductions, halftones, distortions and glows:
/// each property reads and writes its input by Apple's key.
final class ComputedTypedFilter: TypedFilter, CILinearGradient, CISmoothLinearGradient, CIRadialGradient, CIGaussianGradient,
    CIRandomGenerator, CIRoundedRectangleGenerator, CIAreaMaximum, CIAreaMinimum, CIAreaMinMax, CIAreaMinMaxRed, CIRowAverage,
    CIColumnAverage, CIColorPosterize, CIDotScreen, CILineScreen, CICircularScreen, CITwirlDistortion, CIVortexDistortion,
    CIPinchDistortion, CIBumpDistortion, CIHoleDistortion, CICircleSplashDistortion, CIBloom, CIGloom, CIEdges, CIVignetteEffect,
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
    var levels: Float {
        get { float("inputLevels") }
        set { setFloat(newValue, "inputLevels") }
    }
}
