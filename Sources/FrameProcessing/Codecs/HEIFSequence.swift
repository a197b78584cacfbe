import CPhotoCodecs
import CoreVideo
import Foundation

/// HEIF image sequences (HEICS): frames with their delays and loop count, read and written through a
/// libheif that has sequence tracks (1.21 or newer; Debian 12's 1.15 has none), for Image I/O.
///
/// Stateless and thread-safe; the library is loaded once, the first time it is asked for.
package enum HEIFSequence {
    /// Why a sequence cannot be read or written.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, in words.
        package let description: String
    }

    /// Why sequences cannot be read or written here, or nil when they can.
    package static var unavailableReason: String? { cpc_heics_load().map { String(cString: $0) } }

    /// Whether sequences can be read and written here.
    package static var isAvailable: Bool { unavailableReason == nil }

    /// The most frames a sequence read may have; a file that says more is refused.
    package static let maximumFrames = 10_000

    /// What a sequence holds: its frames' delays in seconds, how many times it plays (0 for ever),
    /// its pictures' size and whether they have alpha.
    package struct Contents: Sendable {
        /// Each frame's delay in seconds, in order.
        package let delays: [Double]
        /// How many times the sequence plays; 0 for ever.
        package let plays: Int
        /// The pictures' width in pixels.
        package let width: Int
        /// The pictures' height in pixels.
        package let height: Int
        /// Whether the pictures have alpha.
        package let hasAlpha: Bool
    }

    /// Whether a HEIF file's brands say it may hold an image sequence (ISO/IEC 23008-12's `msf1`, or an
    /// HEVC sequence's `hevc`/`hevs`), read from its `ftyp` box without loading a library.
    package static func mayHoldSequence(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(64))
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return false }
        let boxSize = min(head.count, Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3]))
        let brands = stride(from: 8, to: boxSize - 3, by: 4).filter { $0 != 12 }.map { String(decoding: head[$0..<$0 + 4], as: UTF8.self) }
        return brands.contains { ["msf1", "hevc", "hevs", "hevx"].contains($0) }
    }

    /// The sequence a HEIF file holds, or nil when it holds none (or none this system reads).
    package static func contents(of data: Data) -> Contents? {
        guard mayHoldSequence(data), isAvailable else { return nil }
        var count: Int32 = 0, plays: Int32 = 0, width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        var delays = [Double](repeating: 0, count: 64)
        func read(_ capacity: Int) -> Int32 {
            delays = [Double](repeating: 0, count: capacity)
            return data.withUnsafeBytes { bytes in
                delays.withUnsafeMutableBufferPointer {
                    cpc_heics_frames(
                        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, Int32(maximumFrames), PictureDecoder.maximumPixels,
                        &count, $0.baseAddress, Int32(capacity), &plays, &width, &height, &alpha)
                }
            }
        }
        guard read(delays.count) == 0 else { return nil }
        // A longer sequence is read again with room for every delay.
        if Int(count) > delays.count, read(Int(count)) != 0 { return nil }
        return Contents(delays: Array(delays.prefix(Int(count))), plays: Int(plays), width: Int(width), height: Int(height), hasAlpha: alpha != 0)
    }

    /// A sequence's frames decoded in turn from a copy of its file: the next frame costs one
    /// decoding, an earlier one the sequence's decoding from its start (a frame may depend on the
    /// ones before it). Thread-safe: one decoding at a time.
    package final class Reader: @unchecked Sendable {
        private let reader: OpaquePointer
        private let lock = NSLock()

        /// A reader of the sequence `data` holds; nil when sequences cannot be read here.
        package init?(_ data: Data) {
            guard let reader = data.withUnsafeBytes({ cpc_heics_reader_create($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) })
            else { return nil }
            self.reader = reader
        }

        deinit { cpc_heics_reader_free(reader) }

        /// Frame `index`, decoded into a BGRA frame (premultiplied).
        package func decode(frame index: Int) throws(PictureDecoder.Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
            lock.lock()
            defer { lock.unlock() }
            return try PictureDecoder.decoded(as: "HEIF image sequence") { maxPixels, pixels, width, height, alpha, message, messageSize in
                cpc_heics_reader_decode_bgra(reader, Int32(clamping: index), maxPixels, pixels, width, height, alpha, message, messageSize)
            }
        }
    }

    /// Opaque BGRA frames of one size as a HEIF image sequence at `quality` (0...1): each shown for
    /// its delay in seconds, played `plays` times (0 for ever).
    package static func encode(_ frames: [CVPixelBuffer], delays: [Double], plays: Int, quality: Double) throws(Failure) -> Data {
        guard let first = frames.first, frames.count == delays.count else { throw Failure(description: "no frames, or not one delay a frame") }
        let (width, height) = (first.width, first.height)
        guard frames.allSatisfy({ $0.width == width && $0.height == height && $0.pixelFormatType == kCVPixelFormatType_32BGRA }),
            frames.allSatisfy({ $0.planes[0].bytesPerRow == first.planes[0].bytesPerRow })
        else { throw Failure(description: "a sequence's frames are BGRA pictures of one size") }
        for frame in frames { CVPixelBufferLockBaseAddress(frame, .readOnly) }
        defer { for frame in frames { CVPixelBufferUnlockBaseAddress(frame, .readOnly) } }
        let pointers: [UnsafePointer<UInt8>?] = frames.map { UnsafePointer($0.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)) }
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 512)
        let unit = quality.isNaN ? 0.85 : min(1, max(0, quality))
        let status = pointers.withUnsafeBufferPointer { pointers in
            cpc_heics_encode(
                pointers.baseAddress, Int32(frames.count), Int32(width), Int32(height), first.planes[0].bytesPerRow, delays,
                Int32(clamping: max(0, plays)), Int32((unit * 100).rounded()), &bytes, &size, &message, message.count)
        }
        guard status == 0, let bytes else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}
