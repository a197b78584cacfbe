import CoreGraphics
import Foundation
import FrameProcessing

/// Image I/O's property dictionaries as EXIF: the table of which key is which tag, written into an
/// EXIF block with libexif (photos, image destinations) and read back from JPEG and HEIC files
/// (image sources).
package enum ExifProperties {
    /// How one Image I/O key is written as an EXIF tag.
    private enum Kind { case ascii, short, shorts, long, rational, rationals, signedRational, byte, version, undefinedVersion, degrees, gpsTime }

    private struct Tag {
        let key: String
        let tag: UInt16
        let kind: Kind

        init(key: CFString, tag: UInt16, kind: Kind) {
            self.key = key as String
            self.tag = tag
            self.kind = kind
        }
    }

    private static let tiffTags: [Tag] = [
        Tag(key: kCGImagePropertyTIFFMake, tag: 0x010F, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFModel, tag: 0x0110, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFImageDescription, tag: 0x010E, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFXResolution, tag: 0x011A, kind: .rational),
        Tag(key: kCGImagePropertyTIFFYResolution, tag: 0x011B, kind: .rational),
        Tag(key: kCGImagePropertyTIFFResolutionUnit, tag: 0x0128, kind: .short),
        Tag(key: kCGImagePropertyTIFFSoftware, tag: 0x0131, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFDateTime, tag: 0x0132, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFArtist, tag: 0x013B, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFHostComputer, tag: 0x013C, kind: .ascii),
        Tag(key: kCGImagePropertyTIFFCopyright, tag: 0x8298, kind: .ascii),
    ]

    private static let exifTags: [Tag] = [
        Tag(key: kCGImagePropertyExifExposureTime, tag: 0x829A, kind: .rational),
        Tag(key: kCGImagePropertyExifFNumber, tag: 0x829D, kind: .rational),
        Tag(key: kCGImagePropertyExifExposureProgram, tag: 0x8822, kind: .short),
        Tag(key: kCGImagePropertyExifISOSpeedRatings, tag: 0x8827, kind: .shorts),
        Tag(key: kCGImagePropertyExifVersion, tag: 0x9000, kind: .undefinedVersion),
        Tag(key: kCGImagePropertyExifDateTimeOriginal, tag: 0x9003, kind: .ascii),
        Tag(key: kCGImagePropertyExifDateTimeDigitized, tag: 0x9004, kind: .ascii),
        Tag(key: kCGImagePropertyExifOffsetTime, tag: 0x9010, kind: .ascii),
        Tag(key: kCGImagePropertyExifOffsetTimeOriginal, tag: 0x9011, kind: .ascii),
        Tag(key: kCGImagePropertyExifOffsetTimeDigitized, tag: 0x9012, kind: .ascii),
        Tag(key: kCGImagePropertyExifShutterSpeedValue, tag: 0x9201, kind: .signedRational),
        Tag(key: kCGImagePropertyExifApertureValue, tag: 0x9202, kind: .rational),
        Tag(key: kCGImagePropertyExifBrightnessValue, tag: 0x9203, kind: .signedRational),
        Tag(key: kCGImagePropertyExifExposureBiasValue, tag: 0x9204, kind: .signedRational),
        Tag(key: kCGImagePropertyExifMeteringMode, tag: 0x9207, kind: .short),
        Tag(key: kCGImagePropertyExifFlash, tag: 0x9209, kind: .short),
        Tag(key: kCGImagePropertyExifFocalLength, tag: 0x920A, kind: .rational),
        Tag(key: kCGImagePropertyExifSubsecTime, tag: 0x9290, kind: .ascii),
        Tag(key: kCGImagePropertyExifSubsecTimeOriginal, tag: 0x9291, kind: .ascii),
        Tag(key: kCGImagePropertyExifSubsecTimeDigitized, tag: 0x9292, kind: .ascii),
        Tag(key: kCGImagePropertyExifColorSpace, tag: 0xA001, kind: .short),
        Tag(key: kCGImagePropertyExifPixelXDimension, tag: 0xA002, kind: .long),
        Tag(key: kCGImagePropertyExifPixelYDimension, tag: 0xA003, kind: .long),
        Tag(key: kCGImagePropertyExifSensingMethod, tag: 0xA217, kind: .short),
        Tag(key: kCGImagePropertyExifSceneType, tag: 0xA301, kind: .byte),
        Tag(key: kCGImagePropertyExifExposureMode, tag: 0xA402, kind: .short),
        Tag(key: kCGImagePropertyExifWhiteBalance, tag: 0xA403, kind: .short),
        Tag(key: kCGImagePropertyExifDigitalZoomRatio, tag: 0xA404, kind: .rational),
        Tag(key: kCGImagePropertyExifFocalLenIn35mmFilm, tag: 0xA405, kind: .short),
        Tag(key: kCGImagePropertyExifSceneCaptureType, tag: 0xA406, kind: .short),
        Tag(key: kCGImagePropertyExifCameraOwnerName, tag: 0xA430, kind: .ascii),
        Tag(key: kCGImagePropertyExifBodySerialNumber, tag: 0xA431, kind: .ascii),
        Tag(key: kCGImagePropertyExifLensSpecification, tag: 0xA432, kind: .rationals),
        Tag(key: kCGImagePropertyExifLensMake, tag: 0xA433, kind: .ascii),
        Tag(key: kCGImagePropertyExifLensModel, tag: 0xA434, kind: .ascii),
    ]

    private static let gpsTags: [Tag] = [
        Tag(key: kCGImagePropertyGPSVersion, tag: 0x0000, kind: .version),
        Tag(key: kCGImagePropertyGPSLatitudeRef, tag: 0x0001, kind: .ascii),
        Tag(key: kCGImagePropertyGPSLatitude, tag: 0x0002, kind: .degrees),
        Tag(key: kCGImagePropertyGPSLongitudeRef, tag: 0x0003, kind: .ascii),
        Tag(key: kCGImagePropertyGPSLongitude, tag: 0x0004, kind: .degrees),
        Tag(key: kCGImagePropertyGPSAltitudeRef, tag: 0x0005, kind: .byte),
        Tag(key: kCGImagePropertyGPSAltitude, tag: 0x0006, kind: .rational),
        Tag(key: kCGImagePropertyGPSTimeStamp, tag: 0x0007, kind: .gpsTime),
        Tag(key: kCGImagePropertyGPSSpeedRef, tag: 0x000C, kind: .ascii),
        Tag(key: kCGImagePropertyGPSSpeed, tag: 0x000D, kind: .rational),
        Tag(key: kCGImagePropertyGPSImgDirectionRef, tag: 0x0010, kind: .ascii),
        Tag(key: kCGImagePropertyGPSImgDirection, tag: 0x0011, kind: .rational),
        Tag(key: kCGImagePropertyGPSDateStamp, tag: 0x001D, kind: .ascii),
        Tag(key: kCGImagePropertyGPSHPositioningError, tag: 0x001F, kind: .rational),
    ]

    /// The EXIF block ("Exif\0\0" and the TIFF structure) for `metadata`, with a JPEG thumbnail
    /// when given; nil when it cannot be made.
    ///
    /// Keys this table does not know are left out; values of the wrong type are skipped.
    package static func exif(from metadata: [String: Any], thumbnail: Data? = nil) -> Data? {
        let block = ExifBlock()
        if let thumbnail { block.setThumbnail(thumbnail) }
        if let orientation = number(metadata[kCGImagePropertyOrientation])
            ?? number((metadata[kCGImagePropertyTIFFDictionary] as? [String: Any])?[kCGImagePropertyTIFFOrientation])
        {
            block.set(0x0112, in: .image, shorts: [UInt16(clamping: Int(orientation))])
        }
        write(metadata[kCGImagePropertyTIFFDictionary], tiffTags, .image, into: block)
        write(metadata[kCGImagePropertyExifDictionary], exifTags, .exif, into: block)
        if let gps = metadata[kCGImagePropertyGPSDictionary] as? [String: Any], !gps.isEmpty {
            var withVersion = gps
            if withVersion[kCGImagePropertyGPSVersion] == nil { withVersion[kCGImagePropertyGPSVersion] = [2, 2, 0, 0] }
            write(withVersion, gpsTags, .gps, into: block)
        }
        return block.data()
    }

    private static func write(_ dictionary: Any?, _ tags: [Tag], _ directory: ExifBlock.Directory, into block: ExifBlock) {
        guard let dictionary = dictionary as? [String: Any] else { return }
        for tag in tags {
            guard let value = dictionary[tag.key] else { continue }
            switch tag.kind {
            case .ascii:
                if let string = value as? String { block.set(tag.tag, in: directory, ascii: string) }
            case .short:
                if let number = number(value) { block.set(tag.tag, in: directory, shorts: [UInt16(clamping: Int(number.rounded()))]) }
            case .shorts:
                let values = numbers(value).map { UInt16(clamping: Int($0.rounded())) }
                if !values.isEmpty { block.set(tag.tag, in: directory, shorts: values) }
            case .long:
                if let number = number(value) { block.set(tag.tag, in: directory, long: UInt32(clamping: Int(number.rounded()))) }
            case .rational:
                if let number = number(value) { block.set(tag.tag, in: directory, rationals: [number]) }
            case .rationals:
                let values = numbers(value)
                if !values.isEmpty { block.set(tag.tag, in: directory, rationals: values) }
            case .signedRational:
                if let number = number(value) { block.set(tag.tag, in: directory, signedRational: number) }
            case .byte:
                if let number = number(value) { block.set(tag.tag, in: directory, bytes: [UInt8(clamping: Int(number.rounded()))]) }
            case .version:
                let values = numbers(value).map { UInt8(clamping: Int($0)) }
                if !values.isEmpty { block.set(tag.tag, in: directory, bytes: values) }
            case .undefinedVersion:
                // Exif's version is four ASCII digits: [2, 3, 2] is "0232".
                let digits = numbers(value).map { Int($0) }
                if !digits.isEmpty {
                    let text = String(format: "%02d%d%d", digits[0], digits.count > 1 ? digits[1] : 0, digits.count > 2 ? digits[2] : 0)
                    block.set(tag.tag, in: directory, bytes: Array(text.utf8.prefix(4)), undefined: true)
                }
            case .degrees:
                // Degrees as degrees, minutes and seconds.
                if let number = number(value) {
                    let degrees = abs(number).rounded(.down)
                    let minutes = ((abs(number) - degrees) * 60).rounded(.down)
                    let seconds = (abs(number) - degrees - minutes / 60) * 3600
                    block.set(tag.tag, in: directory, rationals: [degrees, minutes, seconds])
                }
            case .gpsTime:
                // "HH:mm:ss" or "HH:mm:ss.SS", as hours, minutes and seconds.
                if let string = value as? String {
                    let parts = string.split(separator: ":").compactMap { Double($0) }
                    if parts.count == 3 { block.set(tag.tag, in: directory, rationals: parts) }
                }
            }
        }
    }

    /// A number from a dictionary value: any integer or floating-point type, or `NSNumber`.
    package static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: value
        case let value as Int: Double(value)
        case let value as Float: Double(value)
        case let value as CGFloat: Double(value)
        case let value as Int32: Double(value)
        case let value as UInt32: Double(value)
        case let value as Int64: Double(value)
        case let value as UInt16: Double(value)
        case let value as UInt8: Double(value)
        case let value as UInt: Double(value)
        case let value as Bool: value ? 1 : 0
        case let value as NSNumber: value.doubleValue
        case let value as String: Double(value)
        default: nil
        }
    }

    private static func numbers(_ value: Any?) -> [Double] {
        if let array = value as? [Any] { return array.compactMap { number($0) } }
        return number(value).map { [$0] } ?? []
    }

    /// The orientation and the TIFF, EXIF and GPS dictionaries a JPEG file's or an EXIF block's
    /// EXIF holds, under Image I/O's keys, for the tags this table knows.
    package static func properties(fromExif data: Data) -> [String: Any] {
        var properties: [String: Any] = [:]
        if let orientation = PictureDecoder.exifOrientation(data) {
            properties[kCGImagePropertyOrientation] = orientation
        }
        var tiff = read(tiffTags, .image, from: data)
        if let orientation = properties[kCGImagePropertyOrientation] { tiff[kCGImagePropertyTIFFOrientation] = orientation }
        let exif = read(exifTags, .exif, from: data), gps = read(gpsTags, .gps, from: data)
        if !tiff.isEmpty { properties[kCGImagePropertyTIFFDictionary] = tiff }
        if !exif.isEmpty { properties[kCGImagePropertyExifDictionary] = exif }
        if !gps.isEmpty { properties[kCGImagePropertyGPSDictionary] = gps }
        return properties
    }

    /// The values of a table's tags found in one directory, as Image I/O gives them.
    private static func read(_ tags: [Tag], _ directory: PictureDecoder.ExifDirectory, from data: Data) -> [String: Any] {
        var found: [String: Any] = [:]
        for tag in tags {
            switch tag.kind {
            case .ascii:
                if let text = PictureDecoder.exifText(data, in: directory, tag: tag.tag) { found[tag.key] = text }
            case .undefinedVersion:
                // "0232" is [2, 3, 2].
                if let bytes = PictureDecoder.exifNumbers(data, in: directory, tag: tag.tag), bytes.count == 4 {
                    let digits = bytes.map { Int($0) - 0x30 }
                    found[tag.key] = [digits[0] * 10 + digits[1], digits[2], digits[3]]
                }
            case .degrees:
                if let parts = PictureDecoder.exifNumbers(data, in: directory, tag: tag.tag), parts.count == 3 {
                    found[tag.key] = parts[0] + parts[1] / 60 + parts[2] / 3600
                }
            case .gpsTime:
                if let parts = PictureDecoder.exifNumbers(data, in: directory, tag: tag.tag), parts.count == 3 {
                    let seconds = parts[2]
                    found[tag.key] =
                        seconds == seconds.rounded()
                        ? String(format: "%02d:%02d:%02d", Int(parts[0]), Int(parts[1]), Int(seconds))
                        : String(format: "%02d:%02d:%05.2f", Int(parts[0]), Int(parts[1]), seconds)
                }
            case .shorts, .rationals, .version:
                if let values = PictureDecoder.exifNumbers(data, in: directory, tag: tag.tag), !values.isEmpty {
                    found[tag.key] = values.map { $0 == $0.rounded() && tag.kind != .rationals ? Int($0) as Any : $0 as Any }
                }
            case .short, .long, .byte:
                if let value = PictureDecoder.exifNumbers(data, in: directory, tag: tag.tag)?.first { found[tag.key] = Int(value) }
            case .rational, .signedRational:
                if let value = PictureDecoder.exifNumbers(data, in: directory, tag: tag.tag)?.first { found[tag.key] = value }
            }
        }
        return found
    }
}
