import Foundation

/// A JPEG's IPTC-IIM application record (in the Photoshop resource of its APP13 segment), under
/// Apple's IPTC keys: repeatable datasets (keywords, bylines, ...) as arrays, the rest as strings.
enum IPTCProperties {
    /// Record 2's datasets Apple's IPTC dictionary names, and whether each may repeat.
    private static let datasets: [UInt8: (key: String, repeats: Bool)] = [
        5: (kCGImagePropertyIPTCObjectName as String, false), 7: (kCGImagePropertyIPTCEditStatus as String, false),
        10: (kCGImagePropertyIPTCUrgency as String, false), 15: (kCGImagePropertyIPTCCategory as String, false),
        20: (kCGImagePropertyIPTCSupplementalCategory as String, true), 22: (kCGImagePropertyIPTCFixtureIdentifier as String, false),
        25: (kCGImagePropertyIPTCKeywords as String, true), 30: (kCGImagePropertyIPTCReleaseDate as String, false),
        35: (kCGImagePropertyIPTCReleaseTime as String, false), 40: (kCGImagePropertyIPTCSpecialInstructions as String, false),
        55: (kCGImagePropertyIPTCDateCreated as String, false), 60: (kCGImagePropertyIPTCTimeCreated as String, false),
        62: (kCGImagePropertyIPTCDigitalCreationDate as String, false), 63: (kCGImagePropertyIPTCDigitalCreationTime as String, false),
        65: (kCGImagePropertyIPTCOriginatingProgram as String, false), 70: (kCGImagePropertyIPTCProgramVersion as String, false),
        80: (kCGImagePropertyIPTCByline as String, true), 85: (kCGImagePropertyIPTCBylineTitle as String, true),
        90: (kCGImagePropertyIPTCCity as String, false), 92: (kCGImagePropertyIPTCSubLocation as String, false),
        95: (kCGImagePropertyIPTCProvinceState as String, false), 100: (kCGImagePropertyIPTCCountryPrimaryLocationCode as String, false),
        101: (kCGImagePropertyIPTCCountryPrimaryLocationName as String, false),
        103: (kCGImagePropertyIPTCOriginalTransmissionReference as String, false), 105: (kCGImagePropertyIPTCHeadline as String, false),
        110: (kCGImagePropertyIPTCCredit as String, false), 115: (kCGImagePropertyIPTCSource as String, false),
        116: (kCGImagePropertyIPTCCopyrightNotice as String, false), 118: (kCGImagePropertyIPTCContact as String, true),
        120: (kCGImagePropertyIPTCCaptionAbstract as String, false), 122: (kCGImagePropertyIPTCWriterEditor as String, true),
        135: (kCGImagePropertyIPTCLanguageIdentifier as String, false),
    ]

    /// The IPTC dictionary of a JPEG; nil when it has no IPTC record.
    static func properties(ofJPEG data: Data) -> [String: Any]? {
        guard let record = iimRecord(data) else { return nil }
        var dictionary: [String: Any] = [:]
        var utf8 = false
        record.withUnsafeBytes { bytes in
            var at = 0
            while at + 5 <= bytes.count, bytes[at] == 0x1C {
                let (number, dataset) = (bytes[at + 1], bytes[at + 2])
                let length = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
                // An extended length (the high bit set) is not used for text: it ends the reading.
                guard length & 0x8000 == 0, at + 5 + length <= bytes.count else { return }
                let value = UnsafeRawBufferPointer(rebasing: bytes[(at + 5)..<(at + 5 + length)])
                if number == 1, dataset == 90 {
                    // The coded character set: ESC % G is UTF-8.
                    utf8 = value.elementsEqual([0x1B, 0x25, 0x47])
                } else if number == 2, let (key, repeats) = datasets[dataset] {
                    // UTF-8 when the record says so or the text is valid UTF-8; Latin-1 otherwise.
                    let text =
                        utf8
                        ? String(decoding: value, as: UTF8.self)
                        : String(validating: value, as: UTF8.self) ?? String(value.map { Character(Unicode.Scalar($0)) })
                    if repeats {
                        dictionary[key] = ((dictionary[key] as? [String]) ?? []) + [text]
                    } else {
                        dictionary[key] = text
                    }
                }
                at += 5 + length
            }
        }
        return dictionary.isEmpty ? nil : dictionary
    }

    /// A JPEG with an IPTC dictionary's values written into it: an APP13 segment (Photoshop's
    /// resource 0x0404 holding an IIM record in UTF-8) after its JFIF and EXIF segments; nil when
    /// the data is not a JPEG or the record would not fit in a segment.
    static func inserting(_ dictionary: [String: Any], intoJPEG jpeg: Data) -> Data? {
        var record = Data([0x1C, 1, 90, 0, 3, 0x1B, 0x25, 0x47])  // the coded character set: UTF-8
        for (dataset, entry) in datasets.sorted(by: { $0.key < $1.key }) {
            let values: [String] =
                switch dictionary[entry.key] {
                case let text as String: [text]
                case let texts as [String]: entry.repeats ? texts : Array(texts.prefix(1))
                case let number as NSNumber: [number.stringValue]
                default: []
                }
            for value in values {
                let bytes = Array(value.utf8.prefix(0x7FFF))
                record.append(contentsOf: [0x1C, 2, dataset, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes)
            }
        }
        guard record.count > 8 else { return jpeg }
        var resource = Data("Photoshop 3.0\0".utf8) + Data("8BIM".utf8) + Data([0x04, 0x04, 0, 0])
        resource.append(contentsOf: withUnsafeBytes(of: UInt32(record.count).bigEndian, Array.init))
        resource.append(record)
        if record.count % 2 == 1 { resource.append(0) }
        guard resource.count + 2 <= 0xFFFF, jpeg.count > 4, jpeg[jpeg.startIndex] == 0xFF, jpeg[jpeg.startIndex + 1] == 0xD8 else { return nil }
        // After the SOI, and the JFIF APP0 and EXIF or XMP APP1 segments that follow it.
        var at = jpeg.startIndex + 2
        while at + 4 <= jpeg.endIndex, jpeg[at] == 0xFF, jpeg[at + 1] == 0xE0 || jpeg[at + 1] == 0xE1 {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard length >= 2, at + 2 + length <= jpeg.endIndex else { return nil }
            at += 2 + length
        }
        let length = resource.count + 2
        var result = Data(capacity: jpeg.count + length + 2)
        result.append(jpeg[jpeg.startIndex..<at])
        result.append(contentsOf: [0xFF, 0xED, UInt8(length >> 8), UInt8(length & 0xFF)])
        result.append(resource)
        result.append(jpeg[at...])
        return result
    }

    /// The IPTC-IIM record of a JPEG: Photoshop's image resource 0x0404 in an APP13 segment.
    private static func iimRecord(_ data: Data) -> Data? {
        guard data.count > 4, data[data.startIndex] == 0xFF, data[data.startIndex + 1] == 0xD8 else { return nil }
        return data.withUnsafeBytes { bytes -> Data? in
            var at = 2
            while at + 4 <= bytes.count, bytes[at] == 0xFF {
                let marker = bytes[at + 1]
                if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                    at += marker == 0xFF ? 1 : 2
                    continue
                }
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2, at + 2 + length <= bytes.count else { return nil }
                if marker == 0xDA { return nil }  // the scan: no APP13 before it
                let signature = Array("Photoshop 3.0\0".utf8)
                let body = at + 4, end = at + 2 + length
                if marker == 0xED, end - body > signature.count, bytes[body..<(body + signature.count)].elementsEqual(signature) {
                    // Image resources: "8BIM", an identifier, a Pascal name padded to even, a size, the data padded to even.
                    var resource = body + signature.count
                    while resource + 12 <= end, bytes[resource..<(resource + 4)].elementsEqual(Array("8BIM".utf8)) {
                        let identifier = Int(bytes[resource + 4]) << 8 | Int(bytes[resource + 5])
                        var name = Int(bytes[resource + 6]) + 1
                        name += name % 2
                        let sizeAt = resource + 6 + name
                        guard sizeAt + 4 <= end else { return nil }
                        let size = (0..<4).reduce(0) { $0 << 8 | Int(bytes[sizeAt + $1]) }
                        let start = sizeAt + 4
                        guard size >= 0, size <= end - start else { return nil }
                        if identifier == 0x0404 { return Data(bytes[start..<(start + size)]) }
                        resource = start + size + size % 2
                    }
                }
                at = end
            }
            return nil
        }
    }
}
