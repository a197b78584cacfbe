import Foundation

/// JPEG files with an EXIF orientation, as cameras write them.
public enum JPEGOrientation {
    /// A JPEG with an EXIF block (after its start marker) whose only tag is the orientation, 1 to 8.
    public static func tagged(_ jpeg: Data, _ orientation: UInt8) -> Data {
        var tiff: [UInt8] = Array("II".utf8) + [0x2A, 0, 8, 0, 0, 0]
        tiff += [1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var out = Data(jpeg.prefix(2))
        out.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        out.append(jpeg.dropFirst(2))
        return out
    }
}
