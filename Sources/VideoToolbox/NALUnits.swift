import CoreMedia
import Foundation

/// H.264 and HEVC NAL units as encoders write them (Annex B: each after a start code) and as
/// Apple's sample buffers carry them (each after its length, 4 bytes big-endian).
enum NALUnits {
    /// The units of an Annex B stream, as ranges of `bytes` without their start codes.
    static func annexB(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var units: [Range<Int>] = []
        forEachUnit(in: bytes) { units.append($0) }
        return units
    }

    /// Whether a unit is a parameter set, which sample buffers leave to their format description.
    static func isParameterSet(_ first: UInt8, hevc: Bool) -> Bool {
        hevc ? (32...34).contains(first >> 1 & 0x3F) : (7...8).contains(first & 0x1F)
    }

    /// Calls `body` with each unit of an Annex B stream (its range in `bytes`, without its start
    /// code), in one pass and without collecting them.
    static func forEachUnit(in bytes: UnsafeRawBufferPointer, _ body: (Range<Int>) -> Void) {
        var start: Int?
        var index = 0
        let count = bytes.count
        while index + 2 < count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let start {
                    var end = index
                    while end > start, bytes[end - 1] == 0 { end -= 1 }
                    body(start..<end)
                }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start, start < count { body(start..<count) }
    }

    /// Whether a sample buffer carries a unit: not a parameter set or an access unit delimiter.
    private static func isCarried(_ first: UInt8, hevc: Bool) -> Bool {
        let delimiter = hevc ? first >> 1 & 0x3F == 35 : first & 0x1F == 9
        return !isParameterSet(first, hevc: hevc) && !delimiter
    }

    /// The bytes an Annex B picture takes as 4-byte length-prefixed units, without parameter sets and access unit delimiters.
    static func lengthPrefixedSize(_ bytes: UnsafeRawBufferPointer, hevc: Bool) -> Int {
        var size = 0
        forEachUnit(in: bytes) { range in
            if !range.isEmpty, isCarried(bytes[range.lowerBound], hevc: hevc) { size += 4 + range.count }
        }
        return size
    }

    /// Writes an Annex B picture into `block` (of `lengthPrefixedSize` bytes) as 4-byte length-prefixed units.
    static func writeLengthPrefixed(_ bytes: UnsafeRawBufferPointer, hevc: Bool, into block: CMBlockBuffer) {
        var at = 0
        forEachUnit(in: bytes) { range in
            guard !range.isEmpty, isCarried(bytes[range.lowerBound], hevc: hevc) else { return }
            let length = UInt32(range.count).bigEndian
            withUnsafeBytes(of: length) { (block.bytes + at).copyMemory(from: $0.baseAddress!, byteCount: 4) }
            (block.bytes + at + 4).copyMemory(from: bytes.baseAddress! + range.lowerBound, byteCount: range.count)
            at += 4 + range.count
        }
    }

    /// The format description of an encoder's out-of-band parameter sets (Annex B), for length-prefixed samples of 4-byte lengths.
    static func formatDescription(parameterSets: Data, hevc: Bool) -> CMFormatDescription? {
        parameterSets.withUnsafeBytes { bytes -> CMFormatDescription? in
            let units = annexB(bytes).map { Data(bytes[$0]) }.filter { !$0.isEmpty }
            let kept = units.filter { unit in
                hevc ? [32, 33, 34, 39].contains(unit[unit.startIndex] >> 1 & 0x3F) : isParameterSet(unit[unit.startIndex], hevc: false)
            }
            var description: CMFormatDescription?
            let pointers = kept.map { unit -> UnsafePointer<UInt8> in
                let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: unit.count)
                unit.copyBytes(to: copy, count: unit.count)
                return UnsafePointer(copy)
            }
            defer { for pointer in pointers { pointer.deallocate() } }
            let sizes = kept.map(\.count)
            let status =
                hevc
                ? CMVideoFormatDescriptionCreateFromHEVCParameterSets(
                    allocator: nil, parameterSetCount: kept.count, parameterSetPointers: pointers, parameterSetSizes: sizes, nalUnitHeaderLength: 4,
                    extensions: nil, formatDescriptionOut: &description)
                : CMVideoFormatDescriptionCreateFromH264ParameterSets(
                    allocator: nil, parameterSetCount: kept.count, parameterSetPointers: pointers, parameterSetSizes: sizes, nalUnitHeaderLength: 4,
                    formatDescriptionOut: &description)
            return status == noErr ? description : nil
        }
    }
}
