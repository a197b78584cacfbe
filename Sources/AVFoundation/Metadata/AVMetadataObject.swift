import Foundation

/// The abstract superclass for objects provided by a metadata capture output.
///
/// Bounds are in device coordinates ((0,0) top left, (1,1) bottom right of the unturned
/// picture) as the metadata output delivers them, or in a preview layer's coordinates after
/// `AVCaptureVideoPreviewLayer.transformedMetadataObject(for:)`.
open class AVMetadataObject: NSObject, @unchecked Sendable {
    /// The type of a metadata object.
    public struct ObjectType: RawRepresentable, Hashable, Sendable, _StringConstantBridging {
        /// The type's identifier.
        public let rawValue: String
        /// Creates a type from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// The media time of the frame the object was detected in.
    public let time: CMTime
    /// The duration of the object's detection.
    public let duration: CMTime
    /// The object's bounding rectangle.
    public let bounds: CGRect
    /// The object's type.
    public let type: ObjectType

    init(type: ObjectType, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.type = type
        self.time = time
        self.duration = duration
        self.bounds = bounds
        super.init()
    }

    /// A copy of this object with its geometry converted by `rect`; subclasses convert their other geometry too.
    func transformed(rect convert: (CGRect) -> CGRect, point: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataObject(type: type, time: time, duration: duration, bounds: convert(bounds))
    }
}
