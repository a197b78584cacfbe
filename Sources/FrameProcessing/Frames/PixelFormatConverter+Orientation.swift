import CYUV
import CoreVideo

extension PixelFormatConverter {
    /// Converts `source` into `destination` turned by `orientation`: `destination` has the
    /// source's size, width and height swapped for quarter turns. The picture is turned in
    /// whichever of the two formats holds it in fewer bytes (a libyuv pass per plane, in memory
    /// kept between frames), and converted once. Returns whether it could.
    @discardableResult
    package func convert(_ source: CVPixelBuffer, into destination: CVPixelBuffer, orientation: PixelOrientation) -> Bool {
        if orientation.isIdentity { return convert(source, into: destination) }
        let (width, height) = orientation.swapsDimensions ? (source.height, source.width) : (source.width, source.height)
        guard destination.width == width, destination.height == height else { return false }
        let format = destination.pixelFormatType
        // Turn the picture where it is smallest: a 4:2:0 frame turns in 1.5 bytes a pixel, BGRA in 4.
        if source.pixelFormatType != format, Self.turnsDirectly(source.pixelFormatType),
            Self.bytesPerPixel(source.pixelFormatType) < Self.bytesPerPixel(format)
        {
            if turnedScratch?.width != width || turnedScratch?.height != height || turnedScratch?.pixelFormatType != source.pixelFormatType {
                turnedScratch = CVPixelBuffer(width: width, height: height, pixelFormatType: source.pixelFormatType)
            }
            guard let turned = turnedScratch, Self.turn(source, into: turned, orientation) else { return false }
            VideoColorimetry.copy(from: source, to: turned)
            return convert(turned, into: destination)
        }
        if Self.turnsDirectly(format) {
            guard let upright = source.pixelFormatType == format ? source : uprightFrame(source, format: format),
                Self.turn(upright, into: destination, orientation)
            else { return false }
            VideoColorimetry.copy(from: upright, to: destination)
            return true
        }
        // Packed 4:2:2 and RGB: turned as BGRA, then converted.
        guard let upright = source.pixelFormatType == kCVPixelFormatType_32BGRA ? source : uprightFrame(source, format: kCVPixelFormatType_32BGRA) else {
            return false
        }
        if turnedScratch?.width != width || turnedScratch?.height != height || turnedScratch?.pixelFormatType != kCVPixelFormatType_32BGRA {
            turnedScratch = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        }
        guard let turned = turnedScratch, Self.turn(upright, into: turned, orientation) else { return false }
        VideoColorimetry.copy(from: upright, to: turned)
        return convert(turned, into: destination)
    }

    /// The bytes a pixel of a format takes, over all its planes.
    private static func bytesPerPixel(_ format: OSType) -> Double {
        guard let layout = PixelFormatDescription.of(format) else { return .infinity }
        return layout.planes.reduce(0) { total, plane in
            total + Double(plane.bytesPerGroup) / Double(plane.pixelsPerGroup * plane.horizontalSubsampling * plane.verticalSubsampling)
        }
    }

    /// Whether libyuv turns this format's planes directly.
    private static func turnsDirectly(_ format: OSType) -> Bool {
        [
            kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange,
        ].contains(format)
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
                result = RotatePlane(
                    base.assumingMemoryBound(to: UInt8.self), Int32(stride), to.baseAddress.assumingMemoryBound(to: UInt8.self),
                    Int32(to.bytesPerRow), w, h, mode)
            case 2:
                result = RotatePlane_16(
                    base.assumingMemoryBound(to: UInt16.self), Int32(stride / 2), to.baseAddress.assumingMemoryBound(to: UInt16.self),
                    Int32(to.bytesPerRow / 2), w, h, mode)
            case 4:
                result = ARGBRotate(
                    base.assumingMemoryBound(to: UInt8.self), Int32(stride), to.baseAddress.assumingMemoryBound(to: UInt8.self),
                    Int32(to.bytesPerRow), w, h, mode)
            default:
                return false
            }
            guard result == 0 else { return false }
        }
        return true
    }
}
