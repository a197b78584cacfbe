import Foundation

/// The abstract superclass for objects representing notable features detected in an image.
///
/// A feature's coordinates are the image's own: Core Image's, whose origin is at the bottom left.
open class CIFeature: NSObject, @unchecked Sendable {
    private let featureType: String
    private let featureBounds: CGRect

    init(type: String, bounds: CGRect) {
        featureType = type
        featureBounds = bounds
    }

    /// The type of feature that was discovered.
    open var type: String { featureType }

    /// The rectangle that holds the discovered feature.
    open var bounds: CGRect { featureBounds }
}

/// A Core Image feature type for a person's face.
public let CIFeatureTypeFace = "Face"
/// A Core Image feature type for rectangular object.
public let CIFeatureTypeRectangle = "Rectangle"
/// A Core Image feature type for QR code object.
public let CIFeatureTypeQRCode = "QRCode"
/// A Core Image feature type for text.
public let CIFeatureTypeText = "Text"
