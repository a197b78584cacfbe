import CoreGraphics
import Foundation
import FrameProcessing

extension FilterDefinition {
    /// The barcode generators beside the QR code's: Aztec, PDF417 and Code 128, drawn by ZXing-C++'s writer.
    static let barcodeFilters: [FilterDefinition] = [aztecCodeGenerator, pdf417BarcodeGenerator, code128BarcodeGenerator]

    private static let barcode = [kCICategoryGenerator, kCICategoryStillImage, kCICategoryBuiltIn]

    /// A message input's bytes: data, or a string's UTF-8.
    static func message(_ inputs: FilterInputs) -> [UInt8]? {
        if let data = Data(bytesOf: inputs.values["inputMessage"]) { return Array(data) }
        return (inputs.values["inputMessage"] as? String).map { Array($0.utf8) }
    }

    /// A code's modules as an image: black on white, opaque, one pixel a module, `margin` pixels of
    /// white around, each row `rowHeight` pixels high.
    static func image(of code: CodeBitmap, margin: Int, rowHeight: Int = 1) -> CIImage {
        let width = code.width + 2 * margin, height = code.height * rowHeight + 2 * margin
        let pixels = OwnedPixels(width: width, height: height) { memory in
            for y in 0..<height {
                let row = (y - margin) / max(1, rowHeight)
                for x in 0..<width {
                    let inside = x >= margin && y >= margin && x < margin + code.width && y < margin + code.height * rowHeight
                    let grey = inside ? code.pixels[row * code.width + x - margin] : 255
                    let pixel = memory + (y * width + x) * 4
                    (pixel[0], pixel[1], pixel[2], pixel[3]) = (grey, grey, grey, 255)
                }
            }
        }
        return CIImage(recipe: .pixels(pixels.source(width: width, height: height)))
    }

    static let aztecCodeGenerator = FilterDefinition(
        name: "CIAztecCodeGenerator", displayName: "Aztec Code Generator", categories: barcode,
        inputs: [
            Input(key: "inputMessage", className: "NSData", displayName: "Message"),
            .scalar("inputCorrectionLevel", "Correction Level", default: 23, min: 5, max: 95, sliderMin: 5, sliderMax: 95),
            Input(
                key: "inputLayers", className: "NSNumber", minimum: 1, maximum: 32, sliderMinimum: 1, sliderMaximum: 32, type: kCIAttributeTypeInteger,
                displayName: "Layers"),
            Input(key: "inputCompactStyle", className: "NSNumber", type: kCIAttributeTypeBoolean, displayName: "Compact Style"),
        ]
    ) { inputs in
        // The error correction as a share of the symbol, and when given, the layers (of a compact
        // symbol, one to four, or a full one); a module of white around, as the QR code's.
        guard let message = message(inputs) else { return nil }
        let level = Int(min(95, max(5, inputs.number("inputCorrectionLevel") ?? 23)).rounded())
        var options = "ecLevel=\(level)%"
        if let layers = inputs.number("inputLayers").map({ Int($0.rounded()) }), layers > 0 {
            let compact = (inputs.number("inputCompactStyle") ?? 0) != 0
            guard layers <= (compact ? 4 : 32) else { return nil }
            options += ", version=\(compact ? layers : layers + 4)"
        }
        guard let code = try? CodeBitmap(.aztec, message: message, options: options) else { return nil }
        return image(of: code, margin: 1)
    }

    static let pdf417BarcodeGenerator = FilterDefinition(
        name: "CIPDF417BarcodeGenerator", displayName: "PDF417 Generator", categories: barcode,
        inputs: [
            Input(key: "inputMessage", className: "NSData", displayName: "Message"),
            Input(key: "inputMinWidth", className: "NSNumber", minimum: 56, maximum: 583, type: kCIAttributeTypeInteger, displayName: "Min Width"),
            Input(key: "inputMaxWidth", className: "NSNumber", minimum: 56, maximum: 583, type: kCIAttributeTypeInteger, displayName: "Max Width"),
            Input(key: "inputMinHeight", className: "NSNumber", minimum: 13, maximum: 283, type: kCIAttributeTypeInteger, displayName: "Min Height"),
            Input(key: "inputMaxHeight", className: "NSNumber", minimum: 13, maximum: 283, type: kCIAttributeTypeInteger, displayName: "Max Height"),
            Input(key: "inputDataColumns", className: "NSNumber", minimum: 1, maximum: 30, type: kCIAttributeTypeInteger, displayName: "Data Columns"),
            Input(key: "inputRows", className: "NSNumber", minimum: 3, maximum: 90, type: kCIAttributeTypeInteger, displayName: "Rows"),
            Input(key: "inputPreferredAspectRatio", className: "NSNumber", minimum: 0, type: kCIAttributeTypeScalar, displayName: "Preferred Aspect Ratio"),
            Input(key: "inputCompactionMode", className: "NSNumber", minimum: 0, maximum: 3, type: kCIAttributeTypeInteger, displayName: "Compaction Mode"),
            Input(key: "inputCompactStyle", className: "NSNumber", type: kCIAttributeTypeBoolean, displayName: "Compact Style"),
            Input(key: "inputCorrectionLevel", className: "NSNumber", minimum: 0, maximum: 8, type: kCIAttributeTypeInteger, displayName: "Correction Level"),
            Input(key: "inputAlwaysSpecifyCompaction", className: "NSNumber", type: kCIAttributeTypeBoolean, displayName: "Always Specify Compaction"),
        ]
    ) { inputs in
        // The data columns, rows and error correction level when given (the writer chooses the
        // rest); each row three modules high, a module of white around.
        guard let message = message(inputs) else { return nil }
        var options: [String] = []
        if let columns = inputs.number("inputDataColumns").map({ Int($0.rounded()) }) {
            guard (1...30).contains(columns) else { return nil }
            options.append("columns=\(columns)")
        }
        if let rows = inputs.number("inputRows").map({ Int($0.rounded()) }) {
            guard (3...90).contains(rows) else { return nil }
            options.append("rows=\(rows)")
        }
        if let level = inputs.number("inputCorrectionLevel").map({ Int($0.rounded()) }) {
            guard (0...8).contains(level) else { return nil }
            options.append("ecLevel=\(level)")
        }
        guard let code = try? CodeBitmap(.pdf417, message: message, options: options.isEmpty ? nil : options.joined(separator: ", ")) else { return nil }
        return image(of: code, margin: 1)
    }

    static let code128BarcodeGenerator = FilterDefinition(
        name: "CICode128BarcodeGenerator", displayName: "Code 128 Barcode Generator", categories: barcode,
        inputs: [
            Input(key: "inputMessage", className: "NSData", displayName: "Message"),
            .scalar("inputQuietSpace", "Quiet Space", default: 7, min: 0, max: 100, sliderMin: 0, sliderMax: 20, type: kCIAttributeTypeInteger),
            .scalar("inputBarcodeHeight", "Barcode Height", default: 32, min: 1, max: 500, sliderMin: 1, sliderMax: 500, type: kCIAttributeTypeInteger),
        ]
    ) { inputs in
        // One pixel a module, `barcodeHeight` pixels high, `quietSpace` pixels of white around.
        // Code 128 holds ASCII only.
        guard let message = message(inputs), message.allSatisfy({ $0 < 128 }) else { return nil }
        let quiet = Int(min(100, max(0, inputs.number("inputQuietSpace") ?? 7)).rounded())
        let height = Int(min(500, max(1, inputs.number("inputBarcodeHeight") ?? 32)).rounded())
        guard let code = try? CodeBitmap(.code128, message: message, options: nil) else { return nil }
        return image(of: code, margin: quiet, rowHeight: height)
    }
}
