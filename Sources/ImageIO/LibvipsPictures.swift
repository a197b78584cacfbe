import CVips
import CoreVideo
import Foundation
import FrameProcessing

/// TIFF and GIF pictures, read and written by libvips (Debian's libvips42, with libtiff and cgif),
/// loaded by its soname at first use.
enum LibvipsPictures {
    /// The size of a picture and whether it has alpha, from its header; nil when libvips cannot read it.
    static func size(of data: Data) -> (width: Int, height: Int, hasAlpha: Bool)? {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        let read = data.withUnsafeBytes { cvips_picture_size($0.baseAddress, $0.count, &width, &height, &alpha) }
        return read == 0 && width > 0 && height > 0 ? (Int(width), Int(height), alpha != 0) : nil
    }

    /// The picture decoded into a BGRA frame (premultiplied), checked against the pixel limit before
    /// any pixel is decoded; nil when it is too large or cannot be decoded.
    static func decode(_ data: Data) -> (frame: CVPixelBuffer, hasAlpha: Bool)? {
        guard let (width, height, hasAlpha) = size(of: data), width * height <= PictureDecoder.maximumPixels,
            let frame = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return nil }
        let plane = frame.planes[0]
        let decoded = data.withUnsafeBytes {
            cvips_decode_bgra($0.baseAddress, $0.count, plane.baseAddress, plane.bytesPerRow, Int32(width), Int32(height))
        }
        return decoded == 0 ? (frame, hasAlpha) : nil
    }

    /// A BGRA frame encoded in the format of a file name suffix (".tif", ".gif"); nil when it cannot be.
    static func encode(_ frame: CVPixelBuffer, suffix: String, opaque: Bool) -> Data? {
        let plane = frame.planes[0]
        var bytes: UnsafeMutableRawPointer?
        var size = 0
        guard
            cvips_encode(plane.baseAddress, Int32(frame.width), Int32(frame.height), plane.bytesPerRow, opaque ? 1 : 0, suffix, &bytes, &size) == 0,
            let bytes
        else { return nil }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .free)
    }
}
