import Foundation

/// What a picture's headers say beyond its size, under Apple's keys: a PNG's chunks (interlacing,
/// physical pixel size, gamma, sRGB intent, chromaticities, text), a JPEG's JFIF segment and
/// whether it is progressive, and whether a GIF has a global colour table.
enum PictureHeaders {
    /// The keywords of a PNG's text chunks Apple's PNG dictionary names.
    private static let textKeys: [String: String] = [
        "Title": kCGImagePropertyPNGTitle as String, "Author": kCGImagePropertyPNGAuthor as String,
        "Description": kCGImagePropertyPNGDescription as String, "Copyright": kCGImagePropertyPNGCopyright as String,
        "Creation Time": kCGImagePropertyPNGCreationTime as String, "Software": kCGImagePropertyPNGSoftware as String,
        "Disclaimer": kCGImagePropertyPNGDisclaimer as String, "Warning": kCGImagePropertyPNGWarning as String,
        "Source": kCGImagePropertyPNGSource as String, "Comment": kCGImagePropertyPNGComment as String,
        "Modification Time": kCGImagePropertyPNGModificationTime as String,
    ]

    /// A PNG's dictionary, and its resolution in dots per inch where its pHYs chunk gives one in metres.
    static func png(_ data: Data) -> (dictionary: [String: Any], dpi: (Double, Double)?) {
        var dictionary: [String: Any] = [:]
        var dpi: (Double, Double)?
        PNGChunks.walk(data) { type, body in
            switch type {
            case PNGChunks.header where body.count >= 13:
                dictionary[kCGImagePropertyPNGInterlaceType as String] = Int(body[12])
            case PNGChunks.physical where body.count >= 9:
                let (x, y) = (Int(PNGChunks.number(body, 0, 4)), Int(PNGChunks.number(body, 4, 4)))
                dictionary[kCGImagePropertyPNGXPixelsPerMeter as String] = x
                dictionary[kCGImagePropertyPNGYPixelsPerMeter as String] = y
                if body[8] == 1 { dpi = ((Double(x) * 0.0254).rounded(), (Double(y) * 0.0254).rounded()) }
            case PNGChunks.gamma where body.count >= 4:
                dictionary[kCGImagePropertyPNGGamma as String] = Double(PNGChunks.number(body, 0, 4)) / 100_000
            case PNGChunks.standardRGB where body.count >= 1:
                dictionary[kCGImagePropertyPNGsRGBIntent as String] = Int(body[0])
            case PNGChunks.chromaticities where body.count >= 32:
                dictionary[kCGImagePropertyPNGChromaticities as String] = (0..<8).map { Double(PNGChunks.number(body, $0 * 4, 4)) / 100_000 }
            case PNGChunks.text, PNGChunks.internationalText:
                // tEXt: keyword, a zero, Latin-1 text; iTXt: keyword, a zero, compression flag and
                // method, language tag and translated keyword (each ending in a zero), UTF-8 text.
                guard let end = body.firstIndex(of: 0), let key = textKeys[String(decoding: body[..<end], as: UTF8.self)] else { break }
                var text = body[(end + 1)...]
                if type == PNGChunks.internationalText {
                    guard text.count >= 2, text[text.startIndex] == 0 else { break }  // compressed text is not read
                    text = text.dropFirst(2)
                    for _ in 0..<2 {
                        guard let zero = text.firstIndex(of: 0) else { return true }
                        text = text[(zero + 1)...]
                    }
                    dictionary[key] = String(decoding: text, as: UTF8.self)
                } else {
                    dictionary[key] = String(text.map { Character(Unicode.Scalar($0)) })
                }
            default: break
            }
            return true
        }
        return (dictionary, dpi)
    }

    /// A JPEG's JFIF dictionary (nil without a JFIF segment), and its resolution in dots per inch
    /// where the segment gives one.
    static func jfif(_ data: Data) -> (dictionary: [String: Any]?, dpi: (Double, Double)?) {
        guard data.count > 4, data[data.startIndex] == 0xFF, data[data.startIndex + 1] == 0xD8 else { return (nil, nil) }
        return data.withUnsafeBytes { bytes -> ([String: Any]?, (Double, Double)?) in
            var dictionary: [String: Any]?
            var dpi: (Double, Double)?
            var progressive = false
            var at = 2
            // The segments before the scan: APP0's JFIF, and the frame header that says baseline or progressive.
            while at + 4 <= bytes.count, bytes[at] == 0xFF {
                let marker = bytes[at + 1]
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xFF {
                    at += marker == 0xFF ? 1 : 2
                    continue
                }
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2, at + 2 + length <= bytes.count else { break }
                let body = at + 4, size = length - 2
                if marker == 0xE0, size >= 12, bytes[body] == 0x4A, bytes[body + 1] == 0x46, bytes[body + 2] == 0x49, bytes[body + 3] == 0x46,
                    bytes[body + 4] == 0
                {
                    let minor = Int(bytes[body + 6]), unit = Int(bytes[body + 7])
                    let x = Int(bytes[body + 8]) << 8 | Int(bytes[body + 9]), y = Int(bytes[body + 10]) << 8 | Int(bytes[body + 11])
                    dictionary = [
                        kCGImagePropertyJFIFVersion as String: [Int(bytes[body + 5]), minor / 10, minor % 10],
                        kCGImagePropertyJFIFDensityUnit as String: unit, kCGImagePropertyJFIFXDensity as String: x,
                        kCGImagePropertyJFIFYDensity as String: y,
                    ]
                    if unit == 1 { dpi = (Double(x), Double(y)) }
                    if unit == 2 { dpi = ((Double(x) * 2.54).rounded(), (Double(y) * 2.54).rounded()) }
                }
                if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { progressive = true }
                if marker == 0xDA { break }  // the scan begins
                at += 2 + length
            }
            dictionary?[kCGImagePropertyJFIFIsProgressive as String] = progressive
            return (dictionary, dpi)
        }
    }

    /// Whether a JPEG's data reaches its end-of-image marker: its segments walked by their lengths
    /// and its scans' entropy-coded data (where a marker byte is always stuffed or a restart
    /// marker) to the next marker, so that an embedded thumbnail's end is not taken for the picture's.
    static func jpegReachesItsEnd(_ data: Data) -> Bool {
        guard data.count > 4, data[data.startIndex] == 0xFF, data[data.startIndex + 1] == 0xD8 else { return false }
        return data.withUnsafeBytes { bytes -> Bool in
            var at = 2
            while at + 1 < bytes.count {
                guard bytes[at] == 0xFF else { return false }
                let marker = bytes[at + 1]
                if marker == 0xD9 { return true }
                // Fill bytes and markers without a body.
                if marker == 0xFF || marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                    at += marker == 0xFF ? 1 : 2
                    continue
                }
                guard at + 4 <= bytes.count else { return false }
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2 else { return false }
                at += 2 + length
                guard marker == 0xDA else { continue }
                // The scan's data runs to the first 0xFF that is not followed by 0 or a restart marker.
                while at + 1 < bytes.count, !(bytes[at] == 0xFF && bytes[at + 1] != 0 && !(0xD0...0xD7).contains(bytes[at + 1])) { at += 1 }
            }
            return false
        }
    }

    /// Whether a GIF has a global colour table (its logical screen descriptor's flag); nil when the data is not a GIF.
    static func gifHasGlobalColorMap(_ data: Data) -> Bool? {
        guard data.count >= 13, data.prefix(3).elementsEqual([0x47, 0x49, 0x46]) else { return nil }
        return data[data.startIndex + 10] & 0x80 != 0
    }
}
