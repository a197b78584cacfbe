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
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count > 8, data.prefix(8).elementsEqual(signature) else { return nil }
        return data.withUnsafeBytes { bytes -> (Int, Int, [Double])? in
            func number(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
            var at = 8, plays: Int?, delays: [Double] = []
            while at + 12 <= bytes.count {
                let length = number(at, 4), type = number(at + 4, 4), body = at + 8
                guard length >= 0, length <= bytes.count - body - 4 else { break }
                switch type {
                case 0x6163_544C where length >= 8:  // acTL: frames and plays, before the first IDAT
                    plays = number(body + 4, 4)
                case 0x6663_544C where length >= 26 && delays.count < maximumFrames:  // fcTL: a frame's delay as a fraction
                    let numerator = number(body + 20, 2), denominator = number(body + 22, 2)
                    delays.append(Double(numerator) / Double(denominator == 0 ? 100 : denominator))
                case 0x4944_4154 where plays == nil:  // IDAT before any acTL: a still picture
                    return nil
                case 0x4945_4E44:  // IEND
                    at = bytes.count
                    continue
                default: break
                }
                at = body + length + 4
            }
            guard let plays, !delays.isEmpty else { return nil }
            return (delays.count, plays, delays)
        }
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
