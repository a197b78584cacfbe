import CoreGraphics
import Foundation

/// The properties you use to configure a perspective rotate filter.
public protocol CIPerspectiveRotate: CIFilterProtocol {
    /// The image to turn.
    var inputImage: CIImage? { get set }
    /// The 35 mm-equivalent focal length of the camera.
    var focalLength: Float { get set }
    /// The turn, in radians, about the horizontal axis.
    var pitch: Float { get set }
    /// The turn, in radians, about the vertical axis.
    var yaw: Float { get set }
    /// The turn, in radians, about the view axis.
    var roll: Float { get set }
}

/// The properties you use to configure a combined keystone correction filter.
public protocol CIKeystoneCorrectionCombined: CIFourCoordinateGeometryFilter {
    /// The 35 mm-equivalent focal length of the camera.
    var focalLength: Float { get set }
}

/// The properties you use to configure a horizontal keystone correction filter.
public protocol CIKeystoneCorrectionHorizontal: CIFourCoordinateGeometryFilter {
    /// The 35 mm-equivalent focal length of the camera.
    var focalLength: Float { get set }
}

/// The properties you use to configure a vertical keystone correction filter.
public protocol CIKeystoneCorrectionVertical: CIFourCoordinateGeometryFilter {
    /// The 35 mm-equivalent focal length of the camera.
    var focalLength: Float { get set }
}

/// The properties you use to configure a mask to alpha filter.
public protocol CIMaskToAlpha: CIFilterProtocol {
    /// The grayscale image to make a mask of.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a depth to disparity filter.
public protocol CIDepthToDisparity: CIFilterProtocol {
    /// The depth image to convert.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a disparity to depth filter.
public protocol CIDisparityToDepth: CIFilterProtocol {
    /// The disparity image to convert.
    var inputImage: CIImage? { get set }
}

/// The properties you use to configure a mesh generator filter.
public protocol CIMeshGenerator: CIFilterProtocol {
    /// The width of the lines.
    var width: Float { get set }
    /// The color of the lines.
    var color: CIColor { get set }
    /// The lines, each a vector of its start and end points (x0, y0, x1, y1).
    var mesh: [Any] { get set }
}

/// The properties you use to configure a depth of field filter.
public protocol CIDepthOfField: CIFilterProtocol {
    /// The image to blur away from the focus line.
    var inputImage: CIImage? { get set }
    /// A point of the focus line.
    var point0: CGPoint { get set }
    /// Another point of the focus line.
    var point1: CGPoint { get set }
    /// The saturation of the part in focus.
    var saturation: Float { get set }
    /// The radius of the unsharp mask of the part in focus.
    var unsharpMaskRadius: Float { get set }
    /// The intensity of the unsharp mask of the part in focus.
    var unsharpMaskIntensity: Float { get set }
    /// The radius of the blur away from the focus line.
    var radius: Float { get set }
}

/// The typed form of the perspective rotation, the keystone corrections, mask to alpha, the depth
/// and disparity conversions and the mesh generator: each property reads and writes its input by Apple's key.
final class RotationAndMaskTypedFilter: TypedFilter, CIPerspectiveRotate, CIKeystoneCorrectionCombined, CIKeystoneCorrectionHorizontal,
    CIKeystoneCorrectionVertical, CIMaskToAlpha, CIDepthToDisparity, CIDisparityToDepth, CIMeshGenerator, CIDepthOfField, @unchecked Sendable
{

    @Input("inputFocalLength") var focalLength: Float
    @Input("inputPitch") var pitch: Float
    @Input("inputYaw") var yaw: Float
    @Input("inputRoll") var roll: Float
    @Input("inputTopLeft") var topLeft: CGPoint
    @Input("inputTopRight") var topRight: CGPoint
    @Input("inputBottomRight") var bottomRight: CGPoint
    @Input("inputBottomLeft") var bottomLeft: CGPoint
    @Input(kCIInputWidthKey) var width: Float
    @Input(kCIInputColorKey) var color: CIColor
    @Input("inputPoint0") var point0: CGPoint
    @Input("inputPoint1") var point1: CGPoint
    @Input(kCIInputSaturationKey) var saturation: Float
    @Input("inputUnsharpMaskRadius") var unsharpMaskRadius: Float
    @Input("inputUnsharpMaskIntensity") var unsharpMaskIntensity: Float
    @Input(kCIInputRadiusKey) var radius: Float
    var mesh: [Any] {
        get { value(forKey: "inputMesh") as? [Any] ?? (value(forKey: "inputMesh") as? NSArray).map { $0.map { $0 } } ?? [] }
        set { setValue(newValue, forKey: "inputMesh") }
    }
}

extension CIFilter {
    /// Applies a perspective transform to an image as if the camera had turned in space.
    public class func perspectiveRotate() -> CIFilter & CIPerspectiveRotate { RotationAndMaskTypedFilter(definition: .named("CIPerspectiveRotate")) }
    /// Applies keystone correction to an image with combined horizontal and vertical guides.
    public class func keystoneCorrectionCombined() -> CIFilter & CIKeystoneCorrectionCombined {
        RotationAndMaskTypedFilter(definition: .named("CIKeystoneCorrectionCombined"))
    }
    /// Applies horizontal keystone correction to an image with guides.
    public class func keystoneCorrectionHorizontal() -> CIFilter & CIKeystoneCorrectionHorizontal {
        RotationAndMaskTypedFilter(definition: .named("CIKeystoneCorrectionHorizontal"))
    }
    /// Applies vertical keystone correction to an image with guides.
    public class func keystoneCorrectionVertical() -> CIFilter & CIKeystoneCorrectionVertical {
        RotationAndMaskTypedFilter(definition: .named("CIKeystoneCorrectionVertical"))
    }
    /// Converts a grayscale image to a white image that's masked by alpha.
    public class func maskToAlpha() -> CIFilter & CIMaskToAlpha { RotationAndMaskTypedFilter(definition: .named("CIMaskToAlpha")) }
    /// Converts a depth data image to disparity data.
    public class func depthToDisparity() -> CIFilter & CIDepthToDisparity { RotationAndMaskTypedFilter(definition: .named("CIDepthToDisparity")) }
    /// Converts a disparity data image to depth data.
    public class func disparityToDepth() -> CIFilter & CIDisparityToDepth { RotationAndMaskTypedFilter(definition: .named("CIDisparityToDepth")) }
    /// Simulates a depth of field effect.
    public class func depthOfField() -> CIFilter & CIDepthOfField { RotationAndMaskTypedFilter(definition: .named("CIDepthOfField")) }
    /// Generates a mesh of lines.
    public class func meshGenerator() -> CIFilter & CIMeshGenerator { RotationAndMaskTypedFilter(definition: .named("CIMeshGenerator")) }
}
