import Foundation

/// Reads the fields of an H.264 or HEVC parameter set: bits, and Exp-Golomb codes (ITU-T H.264
/// 9.1), from its payload with the emulation prevention bytes (00 00 03) taken out.
struct ParameterSetBits {
    private let bytes: [UInt8]
    private var position = 0

    /// A reader of a NAL unit's payload (the bytes after its header).
    init<Bytes: Sequence>(payload: Bytes) where Bytes.Element == UInt8 {
        var rbsp: [UInt8] = []
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        bytes = rbsp
    }

    /// The payload's bytes without emulation prevention.
    var rawBytes: [UInt8] { bytes }

    /// The next bit, or nil past the end.
    mutating func bit() -> Int? {
        guard position / 8 < bytes.count else { return nil }
        defer { position += 1 }
        return Int(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
    }

    /// The next `count` bits as a number, or nil past the end.
    mutating func bits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let b = bit() else { return nil }
            value = value << 1 | b
        }
        return value
    }

    /// Skips `count` bits; false past the end.
    mutating func skip(_ count: Int) -> Bool { bits(count) != nil || count == 0 }

    /// The next unsigned Exp-Golomb code.
    mutating func unsignedGolomb() -> Int? {
        var zeros = 0
        while let b = bit(), b == 0 {
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// The next signed Exp-Golomb code.
    mutating func signedGolomb() -> Int? {
        guard let k = unsignedGolomb() else { return nil }
        return k % 2 == 1 ? (k + 1) / 2 : -(k / 2)
    }
}
