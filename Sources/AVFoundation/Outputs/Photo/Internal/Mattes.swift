import Foundation

/// An auxiliary image that separates a photo's foreground people from its background.
///
/// No segmenter runs here, so photos carry none; the type exists for code that asks.
public final class AVPortraitEffectsMatte: NSObject, @unchecked Sendable {
    /// The matte: one 8-bit value a pixel, how much of it is a person.
    public let mattingImage: CVPixelBuffer
    /// The matte's pixel format.
    public var pixelFormatType: OSType { mattingImage.pixelFormatType }

    init(mattingImage: CVPixelBuffer) {
        self.mattingImage = mattingImage
        super.init()
    }
}

/// An object that wraps a matting image for a particular semantic segmentation, such as skin or hair.
///
/// No segmenter runs here, so photos carry none; the type exists for code that asks.
public final class AVSemanticSegmentationMatte: NSObject, @unchecked Sendable {
    /// The kind of segmentation the matte holds.
    public let matteType: MatteType
    /// The matte: one 8-bit value a pixel, how much of it belongs to the segment.
    public let mattingImage: CVPixelBuffer
    /// The matte's pixel format.
    public var pixelFormatType: OSType { mattingImage.pixelFormatType }

    init(matteType: MatteType, mattingImage: CVPixelBuffer) {
        self.matteType = matteType
        self.mattingImage = mattingImage
        super.init()
    }

    /// A kind of semantic segmentation matte.
    public struct MatteType: RawRepresentable, Hashable, Sendable {
        /// The matte type's identifier.
        public let rawValue: String
        /// Creates a matte type from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A matte of the people's hair.
        public static let hair = MatteType(rawValue: "AVSemanticSegmentationMatteTypeHair")
        /// A matte of the people's skin.
        public static let skin = MatteType(rawValue: "AVSemanticSegmentationMatteTypeSkin")
        /// A matte of the people's teeth.
        public static let teeth = MatteType(rawValue: "AVSemanticSegmentationMatteTypeTeeth")
        /// A matte of the people's glasses.
        public static let glasses = MatteType(rawValue: "AVSemanticSegmentationMatteTypeGlasses")
        /// A matte of the sky.
        public static let sky = MatteType(rawValue: "AVSemanticSegmentationMatteTypeSky")
    }
}
