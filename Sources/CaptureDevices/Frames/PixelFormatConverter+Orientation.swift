import CYUV
import CoreVideo

extension PixelFormatConverter {
    /// Converts `source` into `destination` turned by `orientation`: `destination` has the
    /// source's size, width and height swapped for quarter turns. The picture is converted to
    /// the destination's format first (at the source's size, in memory kept between frames), then
    /// rotated and mirrored in one libyuv pass per plane. Returns whether it could.
    @discardableResult
    package func convert(_ source: CVPixelBuffer, into destination: CVPixelBuffer, orientation: PixelOrientation) -> Bool {
        if orientation.isIdentity { return convert(source, into: destination) }
        let (width, height) = orientation.swapsDimensions ? (source.height, source.width) : (source.width, source.height)
        guard destination.width == width, destination.height == height else { return false }
        let format = destination.pixelFormatType
        if Self.turnsDirectly(format) {
            guard let upright = source.pixelFormatType == format ? source : uprightFrame(source, format: format) else { return false }
            return Self.turn(upright, into: destination, orientation)
        }
        // Packed 4:2:2 and RGB: turned as BGRA, then converted.
        guard let upright = source.pixelFormatType == kCVPixelFormatType_32BGRA ? source : uprightFrame(source, format: kCVPixelFormatType_32BGRA) else { return false }
        if turnedScratch?.width != width || turnedScratch?.height != height {
            turnedScratch = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        }
        guard let turned = turnedScratch, Self.turn(upright, into: turned, orientation) else { return false }
        return convert(turned, into: destination)
    }

    /// Whether libyuv turns this format's planes directly.
    private static func turnsDirectly(_ format: OSType) -> Bool {
        [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
         kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange].contains(format)
    }

    /// `source` converted to `format` at its own size, in the converter's kept memory.
    private func uprightFrame(_ source: CVPixelBuffer, format: OSType) -> CVPixelBuffer? {
        if uprightScratch?.width != source.width || uprightScratch?.height != source.height || uprightScratch?.pixelFormatType != format {
            uprightScratch = CVPixelBuffer(width: source.width, height: source.height, pixelFormatType: format)
        }
        guard let upright = uprightScratch, convert(source, into: upright) else { return nil }
        return upright
    }

    /// Rotates and mirrors `source` into `destination` of the same format, plane by plane. Every
    /// plane of the formats turned here is one of 1, 2 or 4 bytes a sample (a chroma pair counts
    /// as one sample), which libyuv's plane, 16-bit plane and ARGB rotations move whole.
    private static func turn(_ source: CVPixelBuffer, into destination: CVPixelBuffer, _ orientation: PixelOrientation) -> Bool {
        let (degrees, flipped) = orientation.asRotationOfFlippedSource
        let mode: RotationMode = degrees == 90 ? kRotate90 : degrees == 180 ? kRotate180 : degrees == 270 ? kRotate270 : kRotate0
        guard let layout = PixelFormatDescription.of(source.pixelFormatType), layout.planes.count == source.planes.count else { return false }
        for (index, plane) in layout.planes.enumerated() {
            let from = source.planes[index], to = destination.planes[index]
            let bytes = plane.bytesPerGroup / plane.pixelsPerGroup
            // A flipped source is read from its last row up.
            var base = from.baseAddress, stride = from.bytesPerRow
            if flipped {
                base += (from.height - 1) * from.bytesPerRow
                stride = -stride
            }
            let (w, h) = (Int32(from.width), Int32(from.height))
            let result: Int32
            switch bytes {
            case 1:
                result = RotatePlane(base.assumingMemoryBound(to: UInt8.self), Int32(stride), to.baseAddress.assumingMemoryBound(to: UInt8.self),
                                     Int32(to.bytesPerRow), w, h, mode)
            case 2:
                result = RotatePlane_16(base.assumingMemoryBound(to: UInt16.self), Int32(stride / 2), to.baseAddress.assumingMemoryBound(to: UInt16.self),
                                        Int32(to.bytesPerRow / 2), w, h, mode)
            case 4:
                result = ARGBRotate(base.assumingMemoryBound(to: UInt8.self), Int32(stride), to.baseAddress.assumingMemoryBound(to: UInt8.self),
                                    Int32(to.bytesPerRow), w, h, mode)
            default:
                return false
            }
            guard result == 0 else { return false }
        }
        return true
    }
}
