import Foundation
import FrameProcessing

/// Information about a rectangular region detected in a still or video image.
///
/// On Linux no detector makes these yet: `CIDetector(ofType: CIDetectorTypeRectangle, ...)` is nil.
open class CIRectangleFeature: CIFeature, @unchecked Sendable {
    private let corners: (topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint)

    init(topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint) {
        corners = (topLeft, topRight, bottomLeft, bottomRight)
        super.init(type: CIFeatureTypeRectangle, bounds: CGRect(boundingBox: [topLeft, topRight, bottomLeft, bottomRight]))
    }

    /// A rectangle indicating the position and extent of the feature in image coordinates.
    open override var bounds: CGRect { super.bounds }
    /// The image coordinate of the upper-left corner of the detected rectangle.
    open var topLeft: CGPoint { corners.topLeft }
    /// The image coordinate of the upper-right corner of the detected rectangle.
    open var topRight: CGPoint { corners.topRight }
    /// The image coordinate of the lower-left corner of the detected rectangle.
    open var bottomLeft: CGPoint { corners.bottomLeft }
    /// The image coordinate of the lower-right corner of the detected rectangle.
    open var bottomRight: CGPoint { corners.bottomRight }
}
