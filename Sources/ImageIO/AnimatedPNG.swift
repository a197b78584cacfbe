import CMediaCodecs
import CoreVideo
import Foundation
import FrameProcessing

/// Animated PNGs (APNG): their frames and delays read from the file's chunks, pictures decoded and
/// written by FFmpeg (CAnimatedPNG.h), as Debian's libpng reads only an APNG's default image.
enum AnimatedPNG {
    /// The most frames read from a file, as for GIFs.
    static let maximumFrames = 4096

    /// An animated PNG's frame count, how often it plays (0 for ever) and each frame's delay in
    /// seconds, from its `acTL` and `fcTL` chunks; nil for a still PNG or data that is not a PNG.
    static func pages(of data: Data) -> (count: Int, loop: Int, delays: [Double])? {
        var plays: Int?, delays: [Double] = [], still = false
        let isPNG = PNGChunks.walk(data) { type, body in
            switch type {
            case PNGChunks.animationControl where body.count >= 8:  // frames and plays, before the first IDAT
                plays = Int(PNGChunks.number(body, 4, 4))
            case PNGChunks.frameControl where body.count >= 26 && delays.count < maximumFrames:  // a frame's delay as a fraction
                let numerator = Double(PNGChunks.number(body, 20, 2)), denominator = Double(PNGChunks.number(body, 22, 2))
                delays.append(numerator / (denominator == 0 ? 100 : denominator))
            case PNGChunks.imageData where plays == nil:  // IDAT before any acTL: a still picture
                still = true
                return false
            default: break
            }
            return true
        }
        guard isPNG, !still, let plays, !delays.isEmpty else { return nil }
        return (delays.count, plays, delays)
    }

    /// Frame `page` of an animated PNG composed on its canvas, as a premultiplied BGRA frame; nil
    /// when it is too large, has no such frame or cannot be decoded.
    static func decode(_ data: Data, page: Int) -> CVPixelBuffer? {
        guard let size = PictureDecoder.size(of: data), size.width * size.height <= PictureDecoder.maximumPixels,
            let frame = CVPixelBuffer(width: size.width, height: size.height, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return nil }
        let plane = frame.planes[0]
        let decoded = data.withUnsafeBytes {
            cmc_apng_decode_frame(
                $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, Int32(page), plane.baseAddress.assumingMemoryBound(to: UInt8.self),
                plane.bytesPerRow, Int32(size.width), Int32(size.height))
        }
        return decoded == 0 ? frame : nil
    }

    /// Opaque BGRA frames of one size as an animated PNG, each shown for its delay (seconds, kept
    /// in milliseconds), played `loop` times (0 for ever); nil when they cannot be.
    static func encode(_ frames: [CVPixelBuffer], delays: [Double], loop: Int) -> Data? {
        guard let first = frames.first, frames.count == delays.count,
            frames.allSatisfy({ $0.width == first.width && $0.height == first.height && $0.planes[0].bytesPerRow == first.planes[0].bytesPerRow })
        else { return nil }
        let milliseconds = delays.map { Int32(($0.isFinite ? max(0, min(65.535, $0)) : 0) * 1000) }
        let pointers: [UnsafePointer<UInt8>?] = frames.map { UnsafePointer($0.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)) }
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let encoded = withExtendedLifetime(frames) {
            pointers.withUnsafeBufferPointer { list in
                milliseconds.withUnsafeBufferPointer {
                    cmc_apng_encode(
                        list.baseAddress, Int32(frames.count), Int32(first.width), Int32(first.height), first.planes[0].bytesPerRow, $0.baseAddress,
                        Int32(max(0, min(65535, loop))), &bytes, &size)
                }
            }
        }
        guard encoded == 0, let bytes else { return nil }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .free)
    }
}
