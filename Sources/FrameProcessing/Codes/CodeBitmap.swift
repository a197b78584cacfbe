import CZXing
import Foundation

/// A machine-readable code drawn by ZXing-C++'s writer (its bundled libzint) as a grey picture
/// one pixel a module, with its quiet zone: what the virtual scene prints codes from.
package struct CodeBitmap: Sendable {
    package let width: Int
    package let height: Int
    /// Grey levels, 0 black to 255 white, row after row.
    package let pixels: [UInt8]
    /// Where the symbol is within the picture (without its quiet zone), in pixels.
    package let symbolBounds: CGRect

    /// Why a code could not be drawn.
    package struct Failure: LocalizedError, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
        package var errorDescription: String? { description }
    }

    /// Draws `payload` as a code of `symbology`; a Code 39 mod 43 code gets its check character.
    package init(_ symbology: CodeSymbology, payload: String) throws(Failure) {
        guard let format = symbology.creatorFormat else { throw Failure(description: "codes of \(symbology.rawValue) cannot be drawn") }
        var text = payload
        if symbology == .code39Mod43 {
            guard let check = CodeSymbology.code39CheckCharacter(for: payload) else {
                throw Failure(description: "\"\(payload)\" has characters Code 39 does not have")
            }
            text.append(check)
        }
        let (width, height, drawn) = try Self.draw(
            format, options: nil, bytes: Array(text.utf8), asText: true, quietZones: true,
            failure: "\"\(payload)\" cannot be a \(symbology.rawValue) code")
        var pixels = drawn
        // One-dimensional codes come a module high: make them a quarter as high as wide, as printed.
        var rows = height
        if symbology.isMatrix == false, height < width / 4 {
            rows = max(height, width / 4)
            var tall: [UInt8] = []
            tall.reserveCapacity(width * rows)
            for row in 0..<rows { tall.append(contentsOf: pixels[(row * height / rows) * width..<(row * height / rows + 1) * width]) }
            pixels = tall
        }
        // The symbol: the box around its dark modules.
        var minX = width, minY = rows, maxX = -1, maxY = -1
        for y in 0..<rows {
            for x in 0..<width where pixels[y * width + x] < 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= minX else { throw Failure(description: "the writer drew an empty code") }
        self.width = width
        self.height = rows
        self.pixels = pixels
        symbolBounds = CGRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Draws `bytes` as a QR code of an error correction level ("L", "M", "Q" or "H"), one pixel
    /// a module, without a quiet zone: as Core Image's QR code generator takes its message.
    package init(qrMessage bytes: [UInt8], correctionLevel: String) throws(Failure) {
        guard ["L", "M", "Q", "H"].contains(correctionLevel) else { throw Failure(description: "the correction level is L, M, Q or H, not \(correctionLevel)") }
        // A message that is UTF-8 text is written as text, so that readers give it back as a
        // string; other bytes as binary.
        let isText = String(validating: bytes, as: UTF8.self) != nil
        let (width, height, pixels) = try Self.draw(
            ZXing_BarcodeFormat_QRCode, options: "ecLevel=\(correctionLevel)", bytes: bytes, asText: isText, quietZones: false,
            failure: "the message cannot be a QR code")
        self.width = width
        self.height = height
        self.pixels = pixels
        symbolBounds = CGRect(x: 0, y: 0, width: width, height: height)
    }

    /// Draws `bytes` as a code of `symbology` with ZXing-C++'s creator options (such as
    /// "ecLevel=23%, version=5"), one pixel a module, without a quiet zone: as Core Image's Aztec,
    /// PDF417 and Code 128 generators take their messages. A one-dimensional code is one row high.
    package init(_ symbology: CodeSymbology, message bytes: [UInt8], options: String?) throws(Failure) {
        guard let format = symbology.creatorFormat else { throw Failure(description: "codes of \(symbology.rawValue) cannot be drawn") }
        let isText = String(validating: bytes, as: UTF8.self) != nil
        var (width, height, pixels) = try Self.draw(
            format, options: options, bytes: bytes, asText: isText, quietZones: false, failure: "the message cannot be a \(symbology.rawValue) code")
        if !symbology.isMatrix, height > 1 {
            pixels = Array(pixels[0..<width])
            height = 1
        }
        self.width = width
        self.height = height
        self.pixels = pixels
        symbolBounds = CGRect(x: 0, y: 0, width: width, height: height)
    }

    /// A code drawn by ZXing-C++'s writer as grey levels, one pixel a module.
    private static func draw(
        _ format: ZXing_BarcodeFormat, options text: String?, bytes: [UInt8], asText: Bool, quietZones: Bool, failure: String
    ) throws(Failure) -> (Int, Int, [UInt8]) {
        guard let options = ZXing_CreatorOptions_new(format) else { throw Failure(description: "no writer for the format") }
        defer { ZXing_CreatorOptions_delete(options) }
        if let text { ZXing_CreatorOptions_setOptions(options, text) }
        guard
            let barcode = bytes.withUnsafeBufferPointer({ buffer in
                asText
                    ? buffer.withMemoryRebound(to: CChar.self) { ZXing_CreateBarcodeFromText($0.baseAddress, Int32($0.count), options) }
                    : ZXing_CreateBarcodeFromBytes(buffer.baseAddress, Int32(buffer.count), options)
            })
        else { throw Failure(description: Self.lastError(or: failure)) }
        defer { ZXing_Barcode_delete(barcode) }
        guard let writer = ZXing_WriterOptions_new() else { throw Failure(description: "no writer options") }
        defer { ZXing_WriterOptions_delete(writer) }
        ZXing_WriterOptions_setScale(writer, 1)
        ZXing_WriterOptions_setAddQuietZones(writer, quietZones)
        ZXing_WriterOptions_setAddHRT(writer, false)
        guard let image = ZXing_WriteBarcodeToImage(barcode, writer) else { throw Failure(description: Self.lastError(or: "the code could not be drawn")) }
        defer { ZXing_Image_delete(image) }
        let width = Int(ZXing_Image_width(image)), height = Int(ZXing_Image_height(image))
        guard width > 0, height > 0, ZXing_Image_format(image) == ZXing_ImageFormat_Lum, let data = ZXing_Image_data(image) else {
            throw Failure(description: "the writer drew no grey picture")
        }
        return (width, height, Array(UnsafeBufferPointer(start: data, count: width * height)))
    }

    private static func lastError(or fallback: String) -> String {
        guard let message = ZXing_LastErrorMsg() else { return fallback }
        defer { ZXing_free(message) }
        return String(cString: message)
    }
}
