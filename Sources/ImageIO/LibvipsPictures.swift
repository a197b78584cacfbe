import CVips
import CoreVideo
import Foundation
import FrameProcessing

/// TIFF and GIF pictures, read and written by libvips (Debian's libvips42, with libtiff and cgif),
/// loaded by its soname at first use.
enum LibvipsPictures {
    /// How many pages a picture has (a GIF's frames, a TIFF's pages), how often it loops (nil when it
    /// says nothing; 0 for ever) and each frame's delay in seconds; nil when libvips cannot read it.
    static func pages(of data: Data) -> (count: Int, loop: Int?, delays: [Double])? {
        var count: Int32 = 0, loop: Int32 = 0, delayCount: Int32 = 0
        var delays = [Int32](repeating: 0, count: 4096)
        let read = data.withUnsafeBytes { bytes in
            delays.withUnsafeMutableBufferPointer { cvips_picture_pages(bytes.baseAddress, bytes.count, &count, &loop, $0.baseAddress, 4096, &delayCount) }
        }
        guard read == 0, count >= 1 else { return nil }
        return (Int(count), loop >= 0 ? Int(loop) : nil, delays.prefix(Int(delayCount)).map { Double($0) / 1000 })
    }

    /// The size of a picture's page and whether it has alpha, from its header; nil when libvips cannot read it.
    static func size(of data: Data, page: Int = 0) -> (width: Int, height: Int, hasAlpha: Bool)? {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        let read = data.withUnsafeBytes { cvips_picture_size($0.baseAddress, $0.count, Int32(page), &width, &height, &alpha) }
        return read == 0 && width > 0 && height > 0 ? (Int(width), Int(height), alpha != 0) : nil
    }

    /// The picture decoded into a BGRA frame (premultiplied), checked against the pixel limit before
    /// any pixel is decoded; nil when it is too large or cannot be decoded (or, unless `arrived`, is
    /// cut short: with it, a picture whose data has come in part is decoded as far as it goes).
    static func decode(_ data: Data, page: Int = 0, arrived: Bool = false) -> (frame: CVPixelBuffer, hasAlpha: Bool)? {
        guard let (width, height, hasAlpha) = size(of: data, page: page), width * height <= PictureDecoder.maximumPixels,
            let frame = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return nil }
        let plane = frame.planes[0]
        let decoded = data.withUnsafeBytes {
            arrived
                ? cvips_decode_bgra_arrived($0.baseAddress, $0.count, Int32(page), plane.baseAddress, plane.bytesPerRow, Int32(width), Int32(height))
                : cvips_decode_bgra($0.baseAddress, $0.count, Int32(page), plane.baseAddress, plane.bytesPerRow, Int32(width), Int32(height))
        }
        return decoded == 0 ? (frame, hasAlpha) : nil
    }

    /// Whether a picture's page holds floating-point samples (a float TIFF), from its header.
    static func hasFloatSamples(_ data: Data, page: Int = 0) -> Bool {
        data.withUnsafeBytes { cvips_picture_is_float($0.baseAddress, $0.count, Int32(page)) } == 1
    }

    /// A picture of floating-point samples decoded into 32-bit float R, G, B, A, premultiplied,
    /// each value as the file holds it (1 the full value), checked against the pixel limit before any
    /// pixel is decoded; nil when it is too large, not of floats, or cannot be decoded.
    static func decodeFloats(_ data: Data, page: Int = 0) -> (pixels: Data, width: Int, height: Int, hasAlpha: Bool)? {
        guard let (width, height, hasAlpha) = size(of: data, page: page), width * height <= PictureDecoder.maximumPixels else { return nil }
        var pixels = Data(count: width * height * 16)
        let decoded = pixels.withUnsafeMutableBytes { out in
            data.withUnsafeBytes {
                cvips_decode_float_rgba(
                    $0.baseAddress, $0.count, Int32(page), out.baseAddress?.assumingMemoryBound(to: Float.self), width * 16, Int32(width), Int32(height))
            }
        }
        return decoded == 0 ? (pixels, width, height, hasAlpha) : nil
    }

    /// An image of 32-bit float R, G, B, A (premultiplied, or its alpha skipped) as a TIFF of float
    /// samples, unpremultiplied, its values as they are (beyond 0-1 too); nil when it cannot be.
    static func encodeFloatTIFF(_ image: CGImage) -> Data? {
        guard let provider = image.dataProvider else { return nil }
        var bytes: UnsafeMutableRawPointer?
        var size = 0
        let encoded = provider.withBytes { pixels in
            cvips_encode_float_tiff(
                pixels.baseAddress, Int32(image.width), Int32(image.height), image.bytesPerRow, image.alphaInfo == .premultipliedLast ? 1 : 0, &bytes, &size)
        }
        guard encoded == 0, let bytes else { return nil }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .free)
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

    /// Opaque BGRA frames of one size encoded as an animated GIF, each shown for its delay
    /// (seconds, in hundredths as GIF keeps them), looped `loop` times (0 for ever); nil when they cannot be.
    static func encodeAnimation(_ frames: [CVPixelBuffer], delays: [Double], loop: Int) -> Data? {
        guard let first = frames.first, frames.allSatisfy({ $0.width == first.width && $0.height == first.height }),
            frames.allSatisfy({ $0.planes[0].bytesPerRow == first.planes[0].bytesPerRow })
        else { return nil }
        let milliseconds = delays.map { Int32(max(0, min(655_350, ($0.isFinite ? $0 : 0) * 100)).rounded() * 10) }
        let pointers: [UnsafeRawPointer?] = frames.map { UnsafeRawPointer($0.planes[0].baseAddress) }
        var bytes: UnsafeMutableRawPointer?
        var size = 0
        let encoded = withExtendedLifetime(frames) {
            pointers.withUnsafeBufferPointer { list in
                milliseconds.withUnsafeBufferPointer {
                    cvips_encode_animation(
                        list.baseAddress, Int32(frames.count), Int32(first.width), Int32(first.height), first.planes[0].bytesPerRow, $0.baseAddress,
                        Int32(max(0, min(65535, loop))), &bytes, &size)
                }
            }
        }
        guard encoded == 0, let bytes else { return nil }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .free)
    }
}
