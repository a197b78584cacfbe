import Foundation

/// A face a metadata output detected (dlib's HOG frontal face detector).
///
/// `faceID` stays the same while the face stays in view; `bounds` is in the device's normalized
/// coordinates. Roll and yaw come from dlib's 68-point landmark model (Debian's libdlib-data);
/// without it, `hasRollAngle` and `hasYawAngle` are false.
open class AVMetadataFaceObject: AVMetadataObject, @unchecked Sendable {
    /// The face's identifier, unique to this face while it stays in view.
    public let faceID: Int
    /// Whether the face has a roll angle.
    public let hasRollAngle: Bool
    /// The face's roll: the line through its eyes, in degrees clockwise in the picture (0 to 360).
    public let rollAngle: CGFloat
    /// Whether the face has a yaw angle.
    public let hasYawAngle: Bool
    /// The face's yaw, in degrees (0 facing the camera, growing as the face turns to the picture's right, 0 to 360).
    public let yawAngle: CGFloat

    init(faceID: Int, time: CMTime, duration: CMTime, bounds: CGRect, rollAngle: CGFloat?, yawAngle: CGFloat?) {
        self.faceID = faceID
        hasRollAngle = rollAngle != nil
        self.rollAngle = rollAngle ?? 0
        hasYawAngle = yawAngle != nil
        self.yawAngle = yawAngle ?? 0
        super.init(type: .face, time: time, duration: duration, bounds: bounds)
    }

    override func transformed(rect convert: (CGRect) -> CGRect, point: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataFaceObject(
            faceID: faceID, time: time, duration: duration, bounds: convert(bounds),
            rollAngle: hasRollAngle ? rollAngle : nil, yawAngle: hasYawAngle ? yawAngle : nil)
    }

    /// A description such as `<AVMetadataFaceObject: face 3 (0.40, 0.22, 0.18, 0.24) roll 4 yaw 0>`.
    open override var description: String {
        String(
            format: "<AVMetadataFaceObject: face %d (%.2f, %.2f, %.2f, %.2f) roll %@ yaw %@>", faceID, bounds.minX, bounds.minY, bounds.width,
            bounds.height, hasRollAngle ? String(format: "%.0f", rollAngle) : "-", hasYawAngle ? String(format: "%.0f", yawAngle) : "-")
    }
}
