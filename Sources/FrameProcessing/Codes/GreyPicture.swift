import CJPEGCodec
import CPhotoCodecs
import CoreVideo
import Foundation

/// Still pictures read from files as grey pixels, for reading the codes in them: JPEG through
/// libjpeg-turbo's libjpeg API (scaled as it decodes, at most 100 scans), PNG through libpng, and
/// binary PGM and PPM; every picture larger than `workingPixels` is scaled down to about that.
package enum GreyPicture {
    /// Why a picture could not be read.
    package struct Failure: LocalizedError, CustomStringConvertible {
        package let description: String
        package var errorDescription: String? { description }
    }

    /// The largest picture read, in pixels: about 100 megapixels.
    static let maximumPixels = 100_000_000

    /// The most pixels a picture is looked at with: a larger one is scaled down to about this as
    /// it is decoded (a code that fills less than a 4096th of a side of such a picture is not
    /// there to read), so that a picture costs the reader a bounded time and memory.
    package static let workingPixels = 16_777_216

    /// The picture in `data` as an 8-bit grey pixel buffer, scaled down to at most
    /// `workingPixels` where it is larger. Decoding waits for its share of `DecodingBudget.shared`.
    package static func decode(_ data: Data) throws(Failure) -> CVPixelBuffer {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8]) { return try jpeg(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try png(bytes) }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") || bytes[1] == UInt8(ascii: "6") { return try netpbm(bytes) }
        throw Failure(description: "not a JPEG, PNG, PGM or PPM picture")
    }

    /// Refuses a picture of no pixels or of more than `maximumPixels`.
    private static func checkSize(_ width: Int, _ height: Int) throws(Failure) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= maximumPixels, width <= 1 << 20, height <= 1 << 20 else {
            throw Failure(description: "a picture of \(width)x\(height) pixels, more than the \(maximumPixels) a picture may have")
        }
    }

    /// The size a `width` x `height` picture is looked at: its own, or scaled to fit `workingPixels`.
    static func workingSize(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
        guard width * height > workingPixels else { return (width, height) }
        let scale = (Double(workingPixels) / Double(width * height)).squareRoot()
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }

    private static func buffer(width: Int, height: Int, fill: (UnsafeMutablePointer<UInt8>, Int) throws(Failure) -> Void) throws(Failure) -> CVPixelBuffer {
        try checkSize(width, height)
        guard let image = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_OneComponent8) else {
            throw Failure(description: "no memory for a picture of \(width)x\(height) pixels")
        }
        let plane = image.planes[0]
        try fill(plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow)
        return image
    }

    /// A grey plane in memory someone else owns, as a buffer of at most `workingPixels`: scaled (box filter) where it is larger.
    private static func working(from pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) throws(Failure) -> CVPixelBuffer {
        let size = workingSize(width, height)
        return try buffer(width: size.width, height: size.height) { destination, destinationStride in
            if size == (width, height) {
                for row in 0..<height { (destination + row * destinationStride).update(from: pixels + row * stride, count: width) }
            } else {
                PlaneScaling.scaleSamples(
                    .init(UnsafeMutablePointer(mutating: pixels), bytesPerRow: stride, width: width, height: height),
                    into: .init(destination, bytesPerRow: destinationStride, width: size.width, height: size.height), filter: .box)
            }
        }
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
        try checkSize(Int(width), Int(height))
        // libjpeg decodes at 1/2, 1/4 or 1/8 of the size for a fraction of the work: the largest of
        // those within the working size (a picture of at most `maximumPixels` needs 1/4 at most).
        let denominator = [1, 2, 4, 8].first { Self.scaled(width, by: $0) * Self.scaled(height, by: $0) <= workingPixels } ?? 8
        let (decodedWidth, decodedHeight) = (Self.scaled(width, by: denominator), Self.scaled(height, by: denominator))
        let reservation = DecodingBudget.shared.reserve(bytes: decodedWidth * decodedHeight)
        defer { DecodingBudget.shared.release(reservation) }
        return try buffer(width: decodedWidth, height: decodedHeight) { (pixels, stride) throws(Failure) in
            guard
                cjd_decode_gray_scaled(decoder, bytes, bytes.count, Int32(denominator), pixels, Int32(stride), Int32(decodedWidth), Int32(decodedHeight))
                    == 0
            else { throw damaged() }
        }
    }

    /// A side of `length` pixels decoded at 1/`denominator`, as libjpeg rounds it: up.
    private static func scaled(_ length: Int32, by denominator: Int) -> Int { (Int(length) + denominator - 1) / denominator }

    private static func png(_ bytes: [UInt8]) throws(Failure) -> CVPixelBuffer {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        // The size from the header (width and height, big-endian, at 16 and 20), for the budget: libpng checks it again.
        let declared = bytes.count >= 24 ? bytes[16..<24].reduce(0) { $0 << 8 | Int($1) } : 0
        let reservation = DecodingBudget.shared.reserve(bytes: min(maximumPixels, (declared >> 32) * (declared & 0xFFFF_FFFF)))
        defer { DecodingBudget.shared.release(reservation) }
        guard cpc_png_decode_gray(bytes, bytes.count, maximumPixels, &pixels, &width, &height, &message, message.count) == 0, let pixels else {
            throw Failure(
                description: "a PNG that cannot be read: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { free(pixels) }
        return try working(from: pixels, width: Int(width), height: Int(height), stride: Int(width))
    }

    /// Binary PGM (P5) and PPM (P6) with 8-bit samples. The header is three decimal numbers
    /// (width, height, maximum value) between white space and comments, and nothing else.
    private static func netpbm(_ bytes: [UInt8]) throws(Failure) -> CVPixelBuffer {
        var index = 2
        var fields: [Int] = []
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C]
        while fields.count < 3, index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if (0x30...0x39).contains(byte) {
                var value = 0
                while index < bytes.count, (0x30...0x39).contains(bytes[index]), value < 1_000_000 { value = value * 10 + Int(bytes[index] - 0x30); index += 1 }
                fields.append(value)
                continue
            } else if !space.contains(byte) {
                throw Failure(description: "a PGM or PPM whose header is not a width, a height and a maximum value")
            }
            index += 1
        }
        index += 1  // the single whitespace after the maximum value
        let colour = bytes[1] == UInt8(ascii: "6")
        guard fields.count == 3, fields[2] > 0, fields[2] < 256 else { throw Failure(description: "a PGM or PPM with other than 8-bit samples") }
        let (width, height) = (fields[0], fields[1])
        try checkSize(width, height)
        guard bytes.count - index >= width * height * (colour ? 3 : 1) else { throw Failure(description: "a truncated PGM or PPM") }
        let reservation = DecodingBudget.shared.reserve(bytes: colour ? width * height : 0)
        defer { DecodingBudget.shared.release(reservation) }
        return try bytes.withUnsafeBufferPointer { (all) throws(Failure) in
            let samples = all.baseAddress! + index
            guard colour else { return try working(from: samples, width: width, height: height, stride: width) }
            var grey = [UInt8](repeating: 0, count: width * height)
            for at in 0..<(width * height) {
                let red: Int = 299 * Int(samples[at * 3]), green: Int = 587 * Int(samples[at * 3 + 1]), blue: Int = 114 * Int(samples[at * 3 + 2])
                grey[at] = UInt8((red + green + blue) / 1000)
            }
            return try grey.withUnsafeBufferPointer { (pixels) throws(Failure) in
                try working(from: pixels.baseAddress!, width: width, height: height, stride: width)
            }
        }
    }
}
