import CJPEGCodec
import CPhotoCodecs
import CoreVideo
import Foundation

/// Picture files decoded into BGRA frames, and what their EXIF says: JPEG with libjpeg-turbo,
/// PNG with libpng, HEIC with libheif, EXIF with libexif, for Image I/O's image sources.
package enum PictureDecoder {
    /// The file types a picture's first bytes say.
    package enum Kind: Sendable {
        case jpeg, png, heic, tiff, gif, webp
    }

    /// Why a picture cannot be decoded.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, in words.
        package let description: String
    }

    /// The most pixels a decoded picture may have: refused from its header before memory is taken.
    package static let maximumPixels = 100_000_000

    /// The type a file's first bytes say, or nil for none this system knows.
    package static func kind(of data: Data) -> Kind? {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc", "hevx"].contains(brand) { return .heic }
        }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if head.starts(with: Array("GIF8".utf8)) { return .gif }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// The picture's size from its header, without decoding it.
    package static func size(of data: Data) -> (width: Int, height: Int)? {
        switch kind(of: data) {
        case .jpeg:
            guard let decoder = cjd_new() else { return nil }
            defer { cjd_free(decoder) }
            var width: Int32 = 0, height: Int32 = 0
            let read = data.withUnsafeBytes { cjd_read_size(decoder, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, &width, &height) }
            return read == 0 ? (Int(width), Int(height)) : nil
        case .png:
            // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
            guard data.count >= 24 else { return nil }
            let bytes = [UInt8](data[data.startIndex + 16..<data.startIndex + 24])
            let width = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }, height = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
            return width > 0 && height > 0 ? (width, height) : nil
        case .heic:
            return heicInfo(data).map { ($0.width, $0.height) }
        default: return nil
        }
    }

    /// A HEIC picture's displayed size and whether it has an alpha plane, from its boxes.
    package static func heicInfo(_ data: Data) -> (width: Int, height: Int, hasAlpha: Bool)? {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        let status = data.withUnsafeBytes { cpc_heic_info($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, &width, &height, &alpha) }
        return status == 0 ? (Int(width), Int(height), alpha != 0) : nil
    }

    /// Whether a PNG has transparency, from its chunks rather than its pixels: a colour type with
    /// alpha (4, grey and alpha; 6, RGBA) in its header, or a tRNS chunk before its image data.
    package static func pngHasAlpha(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count >= 26, kind(of: data) == .png else { return false }
        if bytes[25] == 4 || bytes[25] == 6 { return true }
        var at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            if type == "tRNS" { return true }
            if type == "IDAT" || type == "IEND" || length < 0 || length > bytes.count { return false }
            at += 12 + length
        }
        return false
    }

    /// The picture decoded into a BGRA frame (premultiplied), and whether it has transparency.
    package static func decodeBGRA(_ data: Data) throws(Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
        switch kind(of: data) {
        case .jpeg: return (try jpeg(data), false)
        case .png: return try png(data)
        case .heic: return try heic(data)
        case .tiff, .gif, .webp, nil: throw Failure(description: "not a JPEG, PNG or HEIC picture")
        }
    }

    /// Decodes as much of a PNG as its data holds (an incremental source's), its missing rows
    /// transparent. (A JPEG cut short already decodes through `decodeBGRA`, its missing blocks grey.)
    package static func decodeArrivedPNG(_ data: Data) throws(Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
        try decoded(data, as: "PNG", by: cpc_png_decode_arrived_bgra)
    }

    private static func jpeg(_ data: Data) throws(Failure) -> CVPixelBuffer {
        guard let decoder = cjd_new() else { throw Failure(description: "libjpeg-turbo could not start") }
        defer { cjd_free(decoder) }
        func damaged() -> Failure {
            var message = [CChar](repeating: 0, count: 200)
            cjd_last_error(decoder, &message, message.count)
            let said = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Failure(description: said.isEmpty ? "a damaged JPEG" : "a damaged JPEG: \(said)")
        }
        var failure: Failure?
        let decoded = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> CVPixelBuffer? in
            let bytes = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var width: Int32 = 0, height: Int32 = 0
            guard cjd_read_size(decoder, bytes, raw.count, &width, &height) == 0 else {
                failure = damaged()
                return nil
            }
            guard Int(width) * Int(height) <= maximumPixels,
                let frame = CVPixelBuffer(width: Int(width), height: Int(height), pixelFormatType: kCVPixelFormatType_32BGRA)
            else {
                failure = Failure(description: "a JPEG of \(width)x\(height) pixels is too large")
                return nil
            }
            let plane = frame.planes[0]
            guard
                cjd_decode_bgra(decoder, bytes, raw.count, plane.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow), width, height) == 0
            else {
                failure = damaged()
                return nil
            }
            return frame
        }
        guard let decoded else { throw failure ?? Failure(description: "a damaged JPEG") }
        return decoded
    }

    private static func png(_ data: Data) throws(Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
        try decoded(data, as: "PNG", by: cpc_png_decode_bgra)
    }

    private static func heic(_ data: Data) throws(Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
        try decoded(data, as: "HEIC", by: cpc_heic_decode_bgra)
    }

    /// A picture a C decoder gives as tightly packed premultiplied BGRA, copied into a frame.
    private static func decoded(
        _ data: Data, as kind: String,
        by decode: (
            UnsafePointer<UInt8>?, Int, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<CChar>?, Int
        ) -> Int32
    ) throws(Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
        try decoded(as: kind) { maxPixels, pixels, width, height, alpha, message, messageSize in
            data.withUnsafeBytes {
                decode($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, maxPixels, pixels, width, height, alpha, message, messageSize)
            }
        }
    }

    /// A picture a C decoder gives as tightly packed premultiplied BGRA (given the most pixels it may
    /// have), copied into a frame; HEIFSequence's reader decodes frames with it too.
    static func decoded(
        as kind: String,
        by decode: (
            Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<CChar>?, Int
        ) -> Int32
    ) throws(Failure) -> (frame: CVPixelBuffer, hasAlpha: Bool) {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = decode(maximumPixels, &pixels, &width, &height, &alpha, &message, message.count)
        guard status == 0, let pixels else {
            throw Failure(
                description: "a \(kind) that cannot be read: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { free(pixels) }
        guard let frame = CVPixelBuffer(width: Int(width), height: Int(height), pixelFormatType: kCVPixelFormatType_32BGRA) else {
            throw Failure(description: "no memory for a \(width)x\(height) picture")
        }
        let plane = frame.planes[0]
        for row in 0..<Int(height) {
            plane.baseAddress.advanced(by: row * plane.bytesPerRow).copyMemory(from: pixels + row * Int(width) * 4, byteCount: Int(width) * 4)
        }
        return (frame, alpha != 0)
    }

    /// The orientation (1...8) a JPEG's (or an EXIF block's) EXIF says, or nil.
    package static func exifOrientation(_ data: Data) -> Int? {
        let value = data.withUnsafeBytes { cpc_exif_read_orientation($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
        return value == 0 ? nil : Int(value)
    }

    /// Where an EXIF tag is.
    package enum ExifDirectory: Sendable {
        case image, exif, gps

        var ifd: cpc_exif_ifd {
            switch self {
            case .image: CPC_IFD_0
            case .exif: CPC_IFD_EXIF
            case .gps: CPC_IFD_GPS
            }
        }
    }

    /// A tag's value in a JPEG's (or an EXIF block's) EXIF, in libexif's words, or nil.
    package static func exifText(_ data: Data, in directory: ExifDirectory, tag: UInt16) -> String? {
        var text = [CChar](repeating: 0, count: 256)
        let found = data.withUnsafeBytes {
            cpc_exif_read_text($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, directory.ifd, tag, &text, text.count)
        }
        guard found == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A numeric tag's values in a JPEG's (or an EXIF block's) EXIF, as numbers, or nil when it is not there.
    package static func exifNumbers(_ data: Data, in directory: ExifDirectory, tag: UInt16) -> [Double]? {
        var values = [Double](repeating: 0, count: 64)
        let count = data.withUnsafeBytes {
            cpc_exif_read_numbers($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, directory.ifd, tag, &values, UInt32(values.count))
        }
        return count < 0 ? nil : Array(values.prefix(Int(count)))
    }

    /// A HEIC's depth image: each pixel's stored value as a fraction of its range, and what the
    /// values stand for.
    package struct HEICDepth: Sendable {
        /// The values, rows from the top, `width` x `height`.
        package let values: [Float]
        package let width: Int
        package let height: Int
        /// Whether the values are disparities (else depths).
        package let isDisparity: Bool
        /// What 0 and 1 stand for, in metres (depth) or 1 / metres (disparity), when the file says;
        /// an inverse depth (1 / Z) otherwise runs from 1 / near to 1 / far.
        package let range: (low: Double, high: Double)?
        /// Whether the values are spread evenly over 1 / Z (ISO/IEC 23002-3's uniform inverse Z).
        package let isInverseZ: Bool
    }

    /// The depth image of a HEIC's primary picture; nil when it has none or it cannot be read.
    package static func heicDepth(_ data: Data, maxPixels: Int = 64 << 20) -> HEICDepth? {
        var values: UnsafeMutablePointer<Float>?
        var (width, height, representation, hasRange): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        var (low, high) = (0.0, 0.0)
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes in
            cpc_heic_depth(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, maxPixels, &values, &width, &height, &representation, &hasRange, &low,
                &high, &message, message.count)
        }
        guard status == 0, let values else { return nil }
        defer { free(values) }
        let count = Int(width) * Int(height)
        let disparity = representation == Int32(CPC_DEPTH_DISPARITY) || representation == Int32(CPC_DEPTH_NONUNIFORM_DISPARITY)
        return HEICDepth(
            values: Array(UnsafeBufferPointer(start: values, count: count)), width: Int(width), height: Int(height), isDisparity: disparity,
            range: hasRange != 0 ? (low, high) : nil, isInverseZ: representation == Int32(CPC_DEPTH_INVERSE_Z))
    }

    /// A HEIC's EXIF as an EXIF block ("Exif\0\0" and the TIFF structure), or nil when it has none.
    package static func heicExif(_ data: Data) -> Data? {
        var block: UnsafeMutablePointer<UInt8>?
        var size = 0
        let found = data.withUnsafeBytes { cpc_heic_exif($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &block, &size) }
        guard found == 0, let block else { return nil }
        return Data(bytesNoCopy: block, count: size, deallocator: .free)
    }
}
