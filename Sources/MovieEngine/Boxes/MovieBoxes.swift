import Foundation

/// The boxes of an ISO base media file (MPEG-4, QuickTime) as the few edits FFmpeg cannot make
/// need them: found by walking sizes and types, never trusting a size that runs past its parent.
///
/// Thread ownership: values; the file functions read and write the file they are given.
package enum MovieBoxes {
    /// One box within a byte buffer: where its header starts, where its contents start and where it ends.
    package struct Box: Equatable {
        package var type: String
        package var start: Int
        package var contentStart: Int
        package var end: Int

        /// Where its contents lie.
        package var body: Range<Int> { contentStart..<end }
    }

    /// The boxes laid end to end in `bytes[range]`; stops at the first malformed one.
    package static func children(of bytes: [UInt8], in range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(bigEndian32(bytes, offset))
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { break }
                let large = bigEndian64(bytes, offset + 8)
                guard large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { break }
            boxes.append(Box(type: fourCC(bytes, offset + 4), start: offset, contentStart: offset + header, end: offset + size))
            offset += size
        }
        return boxes
    }

    /// The first child of `box` whose type is `type`.
    package static func child(_ type: String, of box: Box, in bytes: [UInt8], skipping fields: Int = 0) -> Box? {
        children(of: bytes, in: (box.contentStart + fields)..<box.end).first { $0.type == type }
    }

    /// The top-level boxes of a file: their types and where they lie, read from their headers alone.
    package static func topLevel(of handle: FileHandle) throws -> [(type: String, start: UInt64, size: UInt64)] {
        let length = try handle.seekToEnd()
        var boxes: [(String, UInt64, UInt64)] = []
        var offset: UInt64 = 0
        while offset + 8 <= length {
            try handle.seek(toOffset: offset)
            guard let header = try handle.read(upToCount: 16), header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var size = UInt64(bigEndian32(bytes, 0))
            if size == 1 {
                guard bytes.count == 16 else { break }
                size = bigEndian64(bytes, 8)
            } else if size == 0 {
                size = length - offset
            }
            guard size >= 8, offset + size <= length else { break }
            boxes.append((fourCC(bytes, 4), offset, size))
            offset += size
        }
        return boxes
    }

    static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func bigEndian64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        bytes[offset..<(offset + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func setBigEndian32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }

    static func setBigEndian64(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt64) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
    }

    static func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    /// Grows the size field of `box` by `delta` bytes.
    static func grow(_ box: Box, by delta: Int, in bytes: inout [UInt8]) {
        if box.contentStart - box.start == 16 {
            setBigEndian64(&bytes, box.start + 8, bigEndian64(bytes, box.start + 8) + UInt64(delta))
        } else {
            setBigEndian32(&bytes, box.start, bigEndian32(bytes, box.start) + UInt32(delta))
        }
    }
}
