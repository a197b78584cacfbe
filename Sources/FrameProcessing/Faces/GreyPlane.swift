import CYUV
import CoreVideo
import Foundation

/// An 8-bit grey plane borrowed from a picture that stays locked while it is read.
package struct GreyPlane {
    /// The first pixel of the first row.
    package var base: UnsafePointer<UInt8>
    /// Pixels in a row.
    package var width: Int
    /// Rows.
    package var height: Int
    /// Bytes from one row to the next.
    package var bytesPerRow: Int

    /// The part of the plane inside `rect` (pixels, clipped to the plane), or nil when too little is left.
    package func cropped(to rect: CGRect, minimumSide: Int = 1) -> (plane: GreyPlane, origin: CGPoint)? {
        let crop = rect.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !crop.isNull, Int(crop.width) >= minimumSide, Int(crop.height) >= minimumSide else { return nil }
        let start = base + Int(crop.minY) * bytesPerRow + Int(crop.minX)
        return (GreyPlane(base: start, width: Int(crop.width), height: Int(crop.height), bytesPerRow: bytesPerRow), crop.origin)
    }
}

/// Reads the brightness of camera pictures: a luma plane as it is, or packed and BGRA pixels
/// converted into a grey scratch buffer made once per picture size.
///
/// Thread ownership: one reader belongs to one thread.
package final class LumaReader {
    private var grey: CVPixelBuffer?

    package init() {}

    /// The grey plane of `image`, which the caller keeps locked while the plane is read; nil for pixel formats cameras do not deliver.
    package func plane(of image: CVPixelBuffer) -> GreyPlane? {
        let format = image.pixelFormatType
        let first = image.planes[0]
        let source = UnsafePointer(first.baseAddress.assumingMemoryBound(to: UInt8.self))
        switch format {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_OneComponent8:
            return GreyPlane(base: source, width: image.width, height: image.height, bytesPerRow: first.bytesPerRow)
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8:
            if grey?.width != image.width || grey?.height != image.height {
                grey = CVPixelBuffer(width: image.width, height: image.height, pixelFormatType: kCVPixelFormatType_OneComponent8)
            }
            guard let grey else { return nil }
            let plane = grey.planes[0]
            let target = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
            let (w, h, s, d) = (Int32(image.width), Int32(image.height), Int32(first.bytesPerRow), Int32(plane.bytesPerRow))
            switch format {
            case kCVPixelFormatType_32BGRA: ARGBToJ400(source, s, target, d, w, h)
            case kCVPixelFormatType_422YpCbCr8_yuvs: YUY2ToY(source, s, target, d, w, h)
            default: UYVYToY(source, s, target, d, w, h)
            }
            return GreyPlane(base: UnsafePointer(target), width: image.width, height: image.height, bytesPerRow: plane.bytesPerRow)
        default:
            return nil
        }
    }
}
