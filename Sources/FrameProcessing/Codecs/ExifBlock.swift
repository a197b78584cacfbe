import CPhotoCodecs
import Foundation

/// An EXIF block built tag by tag with libexif, for the photos the outputs write.
///
/// Thread ownership: one block belongs to one thread at a time.
package final class ExifBlock {
    /// The directory a tag belongs in.
    package enum Directory: Sendable {
        /// The main image's directory (IFD0): make, model, orientation, date.
        case image
        /// The EXIF directory: exposure, lens, capture dates.
        case exif
        /// The GPS directory.
        case gps

        var ifd: cpc_exif_ifd {
            switch self {
            case .image: CPC_IFD_0
            case .exif: CPC_IFD_EXIF
            case .gps: CPC_IFD_GPS
            }
        }
    }

    private let block: OpaquePointer?

    /// Creates an empty block.
    package init() { block = cpc_exif_new() }
    deinit { cpc_exif_free(block) }

    /// Sets `tag` to a string.
    package func set(_ tag: UInt16, in directory: Directory, ascii value: String) {
        _ = cpc_exif_set_ascii(block, directory.ifd, tag, value)
    }

    /// Sets `tag` to one or more unsigned shorts.
    package func set(_ tag: UInt16, in directory: Directory, shorts values: [UInt16]) {
        _ = values.withUnsafeBufferPointer { cpc_exif_set_shorts(block, directory.ifd, tag, $0.baseAddress, UInt32($0.count)) }
    }

    /// Sets `tag` to an unsigned long.
    package func set(_ tag: UInt16, in directory: Directory, long value: UInt32) {
        _ = cpc_exif_set_long(block, directory.ifd, tag, value)
    }

    /// Sets `tag` to one or more unsigned rationals, each approximated from a non-negative value.
    package func set(_ tag: UInt16, in directory: Directory, rationals values: [Double]) {
        let pairs = values.flatMap { value -> [UInt32] in
            let (numerator, denominator) = Self.rational(max(0, value))
            return [UInt32(numerator), UInt32(denominator)]
        }
        _ = pairs.withUnsafeBufferPointer { cpc_exif_set_rationals(block, directory.ifd, tag, $0.baseAddress, UInt32(values.count)) }
    }

    /// Sets `tag` to a signed rational approximating `value`.
    package func set(_ tag: UInt16, in directory: Directory, signedRational value: Double) {
        let (numerator, denominator) = Self.rational(abs(value))
        _ = cpc_exif_set_srational(block, directory.ifd, tag, Int32(value < 0 ? -numerator : numerator), Int32(denominator))
    }

    /// Sets `tag` to bytes, of EXIF's BYTE type or, when `undefined`, its UNDEFINED type.
    package func set(_ tag: UInt16, in directory: Directory, bytes values: [UInt8], undefined: Bool = false) {
        _ = values.withUnsafeBufferPointer { cpc_exif_set_bytes(block, directory.ifd, tag, $0.baseAddress, UInt32($0.count), undefined ? 1 : 0) }
    }

    /// Embeds a JPEG thumbnail (at most 60,000 bytes, so the block fits one JPEG segment); false when it cannot.
    @discardableResult
    package func setThumbnail(_ jpeg: Data) -> Bool {
        jpeg.withUnsafeBytes { cpc_exif_set_thumbnail(block, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) == 0 }
    }

    /// The block as it goes into a file: "Exif\0\0" and the TIFF structure; nil when it cannot be made.
    package func data() -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard cpc_exif_save(block, &bytes, &size) == 0, let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// A fraction close to `value` whose parts fit in 31 bits: exposure times as 1/n, others over a power of ten.
    package static func rational(_ value: Double) -> (Int64, Int64) {
        guard value.isFinite, value > 0 else { return (0, 1) }
        if value < 1, (1 / value).rounded() < 1_000_000, abs(1 / (1 / value).rounded() - value) < value * 1e-6 {
            return (1, Int64((1 / value).rounded()))
        }
        var denominator: Int64 = 1_000_000
        while denominator > 1, value * Double(denominator) > Double(Int32.max) { denominator /= 10 }
        let numerator = min(Int64((value * Double(denominator)).rounded()), Int64(Int32.max))
        let divisor = gcd(numerator, denominator)
        return (numerator / max(divisor, 1), denominator / max(divisor, 1))
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
}

extension Data {
    /// A JPEG file with `exif` (from "Exif\0\0") as an APP1 segment right after its start of image,
    /// replacing any APP1 EXIF segment it had; nil when this is not a JPEG or the block is too large.
    package func insertingJPEGExif(_ exif: Data) -> Data? {
        guard count >= 4, self[startIndex] == 0xFF, self[startIndex + 1] == 0xD8, exif.count + 2 <= 0xFFFF else { return nil }
        // Walk the segments before the image data, leaving out an existing EXIF APP1.
        var kept = Data()
        var index = startIndex + 2
        while index + 4 <= endIndex, self[index] == 0xFF {
            let marker = self[index + 1]
            if marker == 0xDA || marker == 0xD9 { break }  // start of scan: the rest is image data
            let length = Int(self[index + 2]) << 8 | Int(self[index + 3])
            guard length >= 2, index + 2 + length <= endIndex else { return nil }
            let segment = self[index..<(index + 2 + length)]
            let isExif = marker == 0xE1 && segment.count >= 10 && segment.dropFirst(4).prefix(6).elementsEqual("Exif\0\0".utf8)
            if !isExif { kept.append(segment) }
            index += 2 + length
        }
        var result = Data(capacity: count + exif.count + 4)
        result.append(contentsOf: [0xFF, 0xD8])
        // JFIF's APP0 must come first when present.
        var rest = kept
        if kept.count >= 4, kept[kept.startIndex + 1] == 0xE0 {
            let length = Int(kept[kept.startIndex + 2]) << 8 | Int(kept[kept.startIndex + 3])
            result.append(kept.prefix(2 + length))
            rest = kept.dropFirst(2 + length)
        }
        let length = exif.count + 2
        result.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)])
        result.append(exif)
        result.append(rest)
        result.append(self[index...])
        return result
    }
}
