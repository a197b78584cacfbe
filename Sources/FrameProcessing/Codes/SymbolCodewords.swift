/// Data codewords that carry a payload as a symbology's specification lays them out, for Core
/// Image's barcode descriptors.
///
/// ZXing-C++ returns a symbol's payload, not the codewords it read it from, so these are the
/// codewords of the simplest encodation of the same bytes: a standard parser of the codewords
/// gets the payload back, but a symbol that used other modes (a QR code's numeric or
/// alphanumeric segments, a Data Matrix code's C40 or Base 256) had other codewords, and the
/// pad codewords that fill the rest of the symbol are not reproduced.
package enum SymbolCodewords {
    /// A QR code's data codewords for `bytes` in one 8-bit byte mode segment (ISO/IEC 18004
    /// 7.4.5): mode indicator 0100, the byte count in 8 bits (versions 1 to 9) or 16 (10 to 40),
    /// the bytes, and the terminator 0000, padded with zero bits to a whole codeword.
    package static func qrCode(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version <= 9 ? 8 : 16)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: 4)
        return bits.codewords
    }

    /// A Data Matrix (ECC 200) code's data codewords for `bytes` in ASCII encodation (ISO/IEC
    /// 16022 5.2.3): a pair of digits as 130 plus its value, other ASCII as its value plus one,
    /// and a byte above 127 as Upper Shift (235) and its value less 127.
    package static func dataMatrix(_ bytes: [UInt8]) -> [UInt8] {
        var codewords: [UInt8] = []
        var index = 0
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        while index < bytes.count {
            let byte = bytes[index]
            if index + 1 < bytes.count, digits.contains(byte), digits.contains(bytes[index + 1]) {
                codewords.append(130 + (byte - 48) * 10 + (bytes[index + 1] - 48))
                index += 2
                continue
            }
            if byte < 128 { codewords.append(byte + 1) } else { codewords += [235, byte - 127] }
            index += 1
        }
        return codewords
    }

    /// Bits written most significant first into whole bytes.
    private struct BitWriter {
        private(set) var codewords: [UInt8] = []
        private var used = 8

        mutating func append(_ value: Int, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) {
                if used == 8 { codewords.append(0); used = 0 }
                codewords[codewords.count - 1] |= UInt8((value >> shift) & 1) << (7 - used)
                used += 1
            }
        }
    }
}
