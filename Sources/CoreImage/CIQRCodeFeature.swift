import Foundation
import FrameProcessing

/// Information about a Quick Response code detected in a still or video image.
///
/// The corners are the symbol's own (as the code is printed), in the image's coordinates.
open class CIQRCodeFeature: CIFeature, NSSecureCoding, NSCopying, @unchecked Sendable {
    /// A Boolean value that indicates whether the class supports secure coding: it does.
    public class var supportsSecureCoding: Bool { true }

    private let corners: (topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint)
    private let message: String?
    private let descriptor: CIQRCodeDescriptor?

    init(topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint, message: String?, descriptor: CIQRCodeDescriptor?) {
        corners = (topLeft, topRight, bottomLeft, bottomRight)
        self.message = message
        self.descriptor = descriptor
        super.init(type: CIFeatureTypeQRCode, bounds: CGRect(boundingBox: [topLeft, topRight, bottomLeft, bottomRight]))
    }

    /// Creates a QR code feature from an archive.
    public required convenience init?(coder: NSCoder) {
        func point(_ key: String) -> CGPoint {
            CGPoint(x: coder.decodeDouble(forKey: key + ".x"), y: coder.decodeDouble(forKey: key + ".y"))
        }
        self.init(
            topLeft: point("topLeft"), topRight: point("topRight"), bottomLeft: point("bottomLeft"), bottomRight: point("bottomRight"),
            message: coder.decodeObject(of: NSString.self, forKey: "messageString").map { String($0) },
            descriptor: coder.decodeObject(of: CIQRCodeDescriptor.self, forKey: "symbolDescriptor"))
    }

    /// Archives the QR code feature.
    open func encode(with coder: NSCoder) {
        for (key, point) in [("topLeft", topLeft), ("topRight", topRight), ("bottomLeft", bottomLeft), ("bottomRight", bottomRight)] {
            coder.encode(Double(point.x), forKey: key + ".x")
            coder.encode(Double(point.y), forKey: key + ".y")
        }
        if let message { coder.encode(message, forKey: "messageString") }
        if let descriptor { coder.encode(descriptor, forKey: "symbolDescriptor") }
    }

    /// Returns the feature itself: features are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// A rectangle indicating the position and extent of the feature in image coordinates.
    open override var bounds: CGRect { super.bounds }
    /// The image coordinate of the upper-left corner of the detected QR code.
    open var topLeft: CGPoint { corners.topLeft }
    /// The image coordinate of the upper-right corner of the detected QR code.
    open var topRight: CGPoint { corners.topRight }
    /// The image coordinate of the lower-left corner of the detected QR code.
    open var bottomLeft: CGPoint { corners.bottomLeft }
    /// The image coordinate of the lower-right corner of the detected QR code.
    open var bottomRight: CGPoint { corners.bottomRight }
    /// The string decoded from the detected barcode.
    open var messageString: String? { message }
    /// An abstract representation of a QR Code symbol.
    open var symbolDescriptor: CIQRCodeDescriptor? { descriptor }

}
