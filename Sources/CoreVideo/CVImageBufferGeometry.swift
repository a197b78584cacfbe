import Foundation

/// The attachment key for an image's clean aperture, a dictionary of its width, height and offsets.
nonisolated(unsafe) public let kCVImageBufferCleanApertureKey: CFString = "CVCleanAperture"
/// The attachment key for the clean aperture the image's source prefers.
nonisolated(unsafe) public let kCVImageBufferPreferredCleanApertureKey: CFString = "CVPreferredCleanAperture"
/// The clean aperture's width, in encoded pixels.
nonisolated(unsafe) public let kCVImageBufferCleanApertureWidthKey: CFString = "Width"
/// The clean aperture's height, in encoded pixels.
nonisolated(unsafe) public let kCVImageBufferCleanApertureHeightKey: CFString = "Height"
/// How far right of the image's centre the clean aperture's centre is, in encoded pixels.
nonisolated(unsafe) public let kCVImageBufferCleanApertureHorizontalOffsetKey: CFString = "HorizontalOffset"
/// How far down from the image's centre the clean aperture's centre is, in encoded pixels.
nonisolated(unsafe) public let kCVImageBufferCleanApertureVerticalOffsetKey: CFString = "VerticalOffset"
/// The attachment key for an image's pixel aspect ratio, a dictionary of its two spacings.
nonisolated(unsafe) public let kCVImageBufferPixelAspectRatioKey: CFString = "CVPixelAspectRatio"
/// The horizontal spacing of the pixel aspect ratio: a pixel is this wide...
nonisolated(unsafe) public let kCVImageBufferPixelAspectRatioHorizontalSpacingKey: CFString = "HorizontalSpacing"
/// The vertical spacing of the pixel aspect ratio: ...for this high.
nonisolated(unsafe) public let kCVImageBufferPixelAspectRatioVerticalSpacingKey: CFString = "VerticalSpacing"

/// The shape an image is shown in: the pixel aspect ratio and the clean aperture that attachments
/// and format description extensions describe (ISO/IEC 14496-12's `pasp` and `clap` boxes).
package struct ImageGeometry: Sendable, Hashable {
    /// How wide a pixel is against how high, as whole spacings; nil for square pixels.
    package var pixelAspectRatio: (horizontal: Int, vertical: Int)?
    /// The clean aperture, in encoded pixels: its size and its centre's offset from the image's.
    package var cleanAperture: (width: Double, height: Double, horizontalOffset: Double, verticalOffset: Double)?

    /// Square pixels and no clean aperture.
    package init() {}

    /// The geometry a dictionary of attachments or extensions describes; malformed entries
    /// (missing, zero, negative or not finite) are ignored, as if absent.
    package init(_ dictionary: [String: Any]) {
        if let spacing = dictionary[kCVImageBufferPixelAspectRatioKey as String] as? [String: Any],
            let horizontal = attributeInt(spacing[kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String]),
            let vertical = attributeInt(spacing[kCVImageBufferPixelAspectRatioVerticalSpacingKey as String]), horizontal > 0, vertical > 0
        {
            pixelAspectRatio = (horizontal, vertical)
        }
        if let aperture = dictionary[kCVImageBufferCleanApertureKey as String] as? [String: Any],
            let width = Self.number(aperture[kCVImageBufferCleanApertureWidthKey as String]),
            let height = Self.number(aperture[kCVImageBufferCleanApertureHeightKey as String]), width > 0, height > 0
        {
            let horizontal = Self.number(aperture[kCVImageBufferCleanApertureHorizontalOffsetKey as String]) ?? 0
            let vertical = Self.number(aperture[kCVImageBufferCleanApertureVerticalOffsetKey as String]) ?? 0
            cleanAperture = (width, height, horizontal, vertical)
        }
    }

    /// The geometry as the dictionary entries that describe it: none for square pixels and no aperture.
    package var dictionary: [String: Any] {
        var result: [String: Any] = [:]
        if let pixelAspectRatio {
            result[kCVImageBufferPixelAspectRatioKey as String] = [
                kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String: pixelAspectRatio.horizontal,
                kCVImageBufferPixelAspectRatioVerticalSpacingKey as String: pixelAspectRatio.vertical,
            ]
        }
        if let cleanAperture {
            result[kCVImageBufferCleanApertureKey as String] = [
                kCVImageBufferCleanApertureWidthKey as String: cleanAperture.width,
                kCVImageBufferCleanApertureHeightKey as String: cleanAperture.height,
                kCVImageBufferCleanApertureHorizontalOffsetKey as String: cleanAperture.horizontalOffset,
                kCVImageBufferCleanApertureVerticalOffsetKey as String: cleanAperture.verticalOffset,
            ]
        }
        return result
    }

    /// The rectangle of an image of `width` by `height` encoded pixels that is shown: the clean
    /// aperture, centred and then offset, or the whole image.
    package func cleanRect(width: Int, height: Int) -> CGRect {
        guard let cleanAperture else { return CGRect(x: 0, y: 0, width: width, height: height) }
        return CGRect(
            x: (Double(width) - cleanAperture.width) / 2 + cleanAperture.horizontalOffset,
            y: (Double(height) - cleanAperture.height) / 2 + cleanAperture.verticalOffset, width: cleanAperture.width, height: cleanAperture.height)
    }

    /// The size an image of `width` by `height` encoded pixels is shown at in square pixels: its
    /// clean aperture if asked for, widened (or narrowed) by the pixel aspect ratio if asked for.
    package func presentationSize(width: Int, height: Int, usePixelAspectRatio: Bool = true, useCleanAperture: Bool = true) -> CGSize {
        var size = useCleanAperture ? cleanRect(width: width, height: height).size : CGSize(width: width, height: height)
        if usePixelAspectRatio, let pixelAspectRatio {
            size.width = size.width * CGFloat(pixelAspectRatio.horizontal) / CGFloat(pixelAspectRatio.vertical)
        }
        return size
    }

    private static func number(_ value: Any?) -> Double? {
        let number: Double?
        switch value {
        case let value as Double: number = value
        case let value as Float: number = Double(value)
        case let value as NSNumber: number = value.doubleValue
        default: number = attributeInt(value).map(Double.init)
        }
        guard let number, number.isFinite else { return nil }
        return number
    }

    package static func == (lhs: ImageGeometry, rhs: ImageGeometry) -> Bool {
        lhs.pixelAspectRatio?.horizontal == rhs.pixelAspectRatio?.horizontal && lhs.pixelAspectRatio?.vertical == rhs.pixelAspectRatio?.vertical
            && lhs.cleanAperture?.width == rhs.cleanAperture?.width && lhs.cleanAperture?.height == rhs.cleanAperture?.height
            && lhs.cleanAperture?.horizontalOffset == rhs.cleanAperture?.horizontalOffset
            && lhs.cleanAperture?.verticalOffset == rhs.cleanAperture?.verticalOffset
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(pixelAspectRatio?.horizontal)
        hasher.combine(pixelAspectRatio?.vertical)
        hasher.combine(cleanAperture?.width)
        hasher.combine(cleanAperture?.height)
    }
}

extension CVBuffer {
    /// The geometry the buffer's attachments describe. A buffer with neither attachment (every
    /// frame a camera delivers) answers without building anything: format descriptions are made
    /// for frames one by one.
    package var imageGeometry: ImageGeometry {
        let aspect = _attachmentStorage.get(kCVImageBufferPixelAspectRatioKey)?.0
        let aperture = _attachmentStorage.get(kCVImageBufferCleanApertureKey)?.0
        guard aspect != nil || aperture != nil else { return ImageGeometry() }
        var entries: [String: Any] = [:]
        entries[kCVImageBufferPixelAspectRatioKey as String] = aspect
        entries[kCVImageBufferCleanApertureKey as String] = aperture
        return ImageGeometry(entries)
    }
}

/// Returns the rectangle of an image buffer that is shown: its clean aperture, in encoded pixels
/// from the top left, or the whole buffer when it has none.
public func CVImageBufferGetCleanRect(_ imageBuffer: CVImageBuffer) -> CGRect {
    imageBuffer.imageGeometry.cleanRect(width: imageBuffer.width, height: imageBuffer.height)
}
