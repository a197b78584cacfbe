import Foundation

/// Float TIFFs for tests of pictures of floating-point samples.
public enum FloatTIFF {
    /// An uncompressed little-endian TIFF of 32-bit float samples, written here byte by byte from
    /// the TIFF 6.0 specification: `samples` per pixel (1 grey, 3 RGB, 4 RGB with unassociated alpha).
    public static func encode(width: Int, height: Int, samples: Int, values: [Float]) -> Data {
        precondition(values.count == width * height * samples)
        var data = Data()
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        var entries: [(tag: Int, type: Int, count: Int, value: Int)] = []
        let pixelsAt = 8
        let pixelBytes = values.count * 4
        // Arrays of more than two shorts go after the pixels.
        let arraysAt = pixelsAt + pixelBytes
        let short = 3, long = 4
        let inline = samples <= 2
        entries.append((256, long, 1, width))
        entries.append((257, long, 1, height))
        entries.append((258, short, samples, inline ? 32 | (samples == 2 ? 32 << 16 : 0) : arraysAt))
        entries.append((259, short, 1, 1))
        entries.append((262, short, 1, samples >= 3 ? 2 : 1))
        entries.append((273, long, 1, pixelsAt))
        entries.append((277, short, 1, samples))
        entries.append((278, long, 1, height))
        entries.append((279, long, 1, pixelBytes))
        entries.append((284, short, 1, 1))
        if samples == 2 || samples == 4 { entries.append((338, short, 1, 2)) }
        entries.append((339, short, samples, inline ? 3 | (samples == 2 ? 3 << 16 : 0) : arraysAt + samples * 2))
        let ifdAt = arraysAt + (inline ? 0 : samples * 4)
        data.append(contentsOf: [0x49, 0x49, 42, 0])
        u32(ifdAt)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        if !inline {
            for _ in 0..<samples { u16(32) }
            for _ in 0..<samples { u16(3) }
        }
        u16(entries.count)
        for entry in entries {
            u16(entry.tag)
            u16(entry.type)
            u32(entry.count)
            u32(entry.value)
        }
        u32(0)
        return data
    }
}
