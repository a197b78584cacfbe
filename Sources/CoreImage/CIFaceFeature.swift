import Foundation

/// Information about a face detected in a still or video image.
///
/// On Linux, faces are found by dlib's frontal face detector, and the eyes, the mouth and the
/// face's angle come from its 68-point landmark model where Debian's libdlib-data is installed.
/// Whether eyes are closed and whether the face smiles are not told (`leftEyeClosed`,
/// `rightEyeClosed` and `hasSmile` stay false).
open class CIFaceFeature: CIFeature, @unchecked Sendable {
    /// What the detector found of one face, in the image's coordinates.
    struct Facts {
        var bounds: CGRect
        var leftEye: CGPoint?
        var rightEye: CGPoint?
        var mouth: CGPoint?
        var angle: Float?
        var tracking: (id: Int32, frames: Int32)?

        /// The same facts with their places moved by `transform` (the angle, measured as the face
        /// is seen upright, stays); `keepingShape` keeps the bounds' size, scaled, for a turn by any angle.
        func applying(_ transform: CGAffineTransform, keepingShape: Bool = false) -> Facts {
            var moved = self
            moved.bounds = bounds.applying(transform)
            if keepingShape {
                // Turned by an angle that is not a quarter turn, the face's square stays a square
                // of its own size (scaled as the transform scales) around its moved centre, not the
                // larger box around the turned square.
                let scale = abs(transform.a * transform.d - transform.b * transform.c).squareRoot()
                let width = bounds.width * scale, height = bounds.height * scale
                moved.bounds = CGRect(x: moved.bounds.midX - width / 2, y: moved.bounds.midY - height / 2, width: width, height: height)
            }
            moved.leftEye = leftEye?.applying(transform)
            moved.rightEye = rightEye?.applying(transform)
            moved.mouth = mouth?.applying(transform)
            return moved
        }
    }

    private let facts: Facts

    init(_ facts: Facts) {
        self.facts = facts
        super.init(type: CIFeatureTypeFace, bounds: facts.bounds)
    }

    /// A rectangle indicating the position and extent of the face feature in image coordinates.
    open override var bounds: CGRect { facts.bounds }
    /// A Boolean value that indicates whether the detector found the face’s left eye.
    open var hasLeftEyePosition: Bool { facts.leftEye != nil }
    /// The image coordinate of the center of the left eye (the eye on the observer's left).
    open var leftEyePosition: CGPoint { facts.leftEye ?? .zero }
    /// A Boolean value that indicates whether the detector found the face’s right eye.
    open var hasRightEyePosition: Bool { facts.rightEye != nil }
    /// The image coordinate of the center of the right eye (the eye on the observer's right).
    open var rightEyePosition: CGPoint { facts.rightEye ?? .zero }
    /// A Boolean value that indicates whether the detector found the face’s mouth.
    open var hasMouthPosition: Bool { facts.mouth != nil }
    /// The image coordinate of the center of the mouth.
    open var mouthPosition: CGPoint { facts.mouth ?? .zero }
    /// A Boolean value that indicates whether the face object has a tracking ID.
    open var hasTrackingID: Bool { facts.tracking != nil }
    /// The tracking identifier of the face object.
    open var trackingID: Int32 { facts.tracking?.id ?? 0 }
    /// A Boolean value that indicates the face object has a tracking frame count.
    open var hasTrackingFrameCount: Bool { facts.tracking != nil }
    /// The tracking frame count of the face.
    open var trackingFrameCount: Int32 { facts.tracking?.frames ?? 0 }
    /// A Boolean value that indicates whether information about face rotation is available.
    open var hasFaceAngle: Bool { facts.angle != nil }
    /// The rotation of the face, counterclockwise in degrees; zero when the line between the eyes is horizontal.
    open var faceAngle: Float { facts.angle ?? 0 }
    /// A Boolean value that indicates whether a smile is detected in the face.
    open var hasSmile: Bool { false }
    /// A Boolean value that indicates whether a closed left eye is detected in the face.
    open var leftEyeClosed: Bool { false }
    /// A Boolean value that indicates whether a closed right eye is detected in the face.
    open var rightEyeClosed: Bool { false }
}
