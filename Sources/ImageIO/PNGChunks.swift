import Foundation

/// A PNG file's chunks, walked in order from its signature: each chunk's type and body, checked
/// against the data's length before it is read.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Chunk types as their four letters read big-endian.
    static let header: UInt32 = 0x4948_4452, animationControl: UInt32 = 0x6163_544C, frameControl: UInt32 = 0x6663_544C
    static let imageData: UInt32 = 0x4944_4154, end: UInt32 = 0x4945_4E44, physical: UInt32 = 0x7048_5973, gamma: UInt32 = 0x6741_4D41
    static let standardRGB: UInt32 = 0x7352_4742, chromaticities: UInt32 = 0x6348_524D, text: UInt32 = 0x7445_5874, internationalText: UInt32 = 0x6954_5874

    /// Calls `visit` with each chunk's type and body until it returns false, the end chunk comes,
    /// or a chunk runs past the data; false when the data is not a PNG.
    @discardableResult
    static func walk(_ data: Data, _ visit: (UInt32, UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard data.count > 8, data.prefix(8).elementsEqual(signature) else { return false }
        data.withUnsafeBytes { bytes in
            var at = 8
            while at + 12 <= bytes.count {
                let length = Int(number(bytes, at, 4)), type = UInt32(number(bytes, at + 4, 4)), body = at + 8
                guard length <= bytes.count - body - 4, type != end else { return }
                guard visit(type, UnsafeRawBufferPointer(rebasing: bytes[body..<(body + length)])) else { return }
                at = body + length + 4
            }
        }
        return true
    }

    /// The big-endian number of `width` bytes at `at`.
    static func number(_ bytes: UnsafeRawBufferPointer, _ at: Int, _ width: Int) -> UInt64 {
        (0..<width).reduce(0) { $0 << 8 | UInt64(bytes[at + $1]) }
    }
}
