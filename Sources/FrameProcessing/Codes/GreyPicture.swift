import CJPEGCodec
import CPhotoCodecs
import CoreVideo
import Foundation

/// Still pictures read from files as grey pixels, for reading the codes in them: JPEG through
/// libjpeg-turbo's libjpeg API, PNG through libpng, and binary PGM and PPM.
package enum GreyPicture {
    /// Why a picture could not be read.
    package struct Failure: LocalizedError, CustomStringConvertible {
        package let description: String
        package var errorDescription: String? { description }
    }

    /// The largest picture read, in pixels: about 100 megapixels.
    static let maximumPixels = 100_000_000

    /// The picture in `data` as an 8-bit grey pixel buffer.
    package static func decode(_ data: Data) throws(Failure) -> CVPixelBuffer {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8]) { return try jpeg(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try png(bytes) }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") || bytes[1] == UInt8(ascii: "6") { return try netpbm(bytes) }
        throw Failure(description: "not a JPEG, PNG, PGM or PPM picture")
    }

    private static func buffer(width: Int, height: Int, fill: (UnsafeMutablePointer<UInt8>, Int) throws(Failure) -> Void) throws(Failure) -> CVPixelBuffer {
        guard width > 0, height > 0, width * height <= maximumPixels,
            let image = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_OneComponent8)
        else {
            throw Failure(description: "a picture of \(width)x\(height) pixels, more than the \(maximumPixels) a picture may have")
        }
        let plane = image.planes[0]
        try fill(plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow)
        return image
    }

    private static func jpeg(_ bytes: [UInt8]) throws(Failure) -> CVPixelBuffer {
        guard let decoder = cjd_new() else { throw Failure(description: "libjpeg-turbo could not start") }
        defer { cjd_free(decoder) }
        func damaged() -> Failure {
            var message = [CChar](repeating: 0, count: 200)
            cjd_last_error(decoder, &message, message.count)
            let said = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Failure(description: said.isEmpty ? "a damaged JPEG" : "a damaged JPEG: \(said)")
        }
        var width: Int32 = 0, height: Int32 = 0
        guard cjd_read_size(decoder, bytes, bytes.count, &width, &height) == 0 else { throw damaged() }
        return try buffer(width: Int(width), height: Int(height)) { (pixels, stride) throws(Failure) in
            guard cjd_decode_gray(decoder, bytes, bytes.count, pixels, Int32(stride), width, height) == 0 else { throw damaged() }
        }
    }

    private static func png(_ bytes: [UInt8]) throws(Failure) -> CVPixelBuffer {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard cpc_png_decode_gray(bytes, bytes.count, maximumPixels, &pixels, &width, &height, &message, message.count) == 0, let pixels else {
            throw Failure(
                description: "a PNG that cannot be read: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { free(pixels) }
        return try buffer(width: Int(width), height: Int(height)) { destination, stride in
            for row in 0..<Int(height) { (destination + row * stride).update(from: pixels + row * Int(width), count: Int(width)) }
        }
    }

    /// Binary PGM (P5) and PPM (P6) with 8-bit samples.
    private static func netpbm(_ bytes: [UInt8]) throws(Failure) -> CVPixelBuffer {
        var index = 2
        var fields: [Int] = []
        while fields.count < 3, index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if (0x30...0x39).contains(byte) {
                var value = 0
                while index < bytes.count, (0x30...0x39).contains(bytes[index]), value < 1_000_000 { value = value * 10 + Int(bytes[index] - 0x30); index += 1 }
                fields.append(value)
                continue
            }
            index += 1
        }
        index += 1  // the single whitespace after the maximum value
        let colour = bytes[1] == UInt8(ascii: "6")
        guard fields.count == 3, fields[2] > 0, fields[2] < 256 else { throw Failure(description: "a PGM or PPM with other than 8-bit samples") }
        let (width, height) = (fields[0], fields[1])
        guard width > 0, height > 0, width * height <= maximumPixels, bytes.count - index >= width * height * (colour ? 3 : 1) else {
            throw Failure(description: "a truncated PGM or PPM")
        }
        return try buffer(width: width, height: height) { destination, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let at: Int = index + (y * width + x) * (colour ? 3 : 1)
                    var grey: Int = Int(bytes[at])
                    if colour {
                        let red: Int = 299 * Int(bytes[at]), green: Int = 587 * Int(bytes[at + 1]), blue: Int = 114 * Int(bytes[at + 2])
                        grey = (red + green + blue) / 1000
                    }
                    destination[y * stride + x] = UInt8(grey)
                }
            }
        }
    }
}
