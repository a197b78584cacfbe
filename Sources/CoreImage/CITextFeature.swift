import Foundation
import FrameProcessing

/// Information about a region likely to contain text detected in a still or video image.
///
/// On Linux no detector makes these yet: `CIDetector(ofType: CIDetectorTypeText, ...)` is nil.
open class CITextFeature: CIFeature, @unchecked Sendable {
    private let corners: (topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint)
    private let parts: [CITextFeature]?

    init(topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint, subFeatures: [CITextFeature]?) {
        corners = (topLeft, topRight, bottomLeft, bottomRight)
        parts = subFeatures
        super.init(type: CIFeatureTypeText, bounds: CGRect(boundingBox: [topLeft, topRight, bottomLeft, bottomRight]))
    }

    /// A rectangle indicating the position and extent of the feature in image coordinates.
    open override var bounds: CGRect { super.bounds }
    /// The image coordinate of the upper-left corner of the detected text region.
    open var topLeft: CGPoint { corners.topLeft }
    /// The image coordinate of the upper-right corner of the detected text region.
    open var topRight: CGPoint { corners.topRight }
    /// The image coordinate of the lower-left corner of the detected text region.
    open var bottomLeft: CGPoint { corners.bottomLeft }
    /// The image coordinate of the lower-right corner of the detected text region.
    open var bottomRight: CGPoint { corners.bottomRight }
    /// An array containing additional features detected within the feature.
    open var subFeatures: [Any]? { parts }
}
