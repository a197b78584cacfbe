import CZXing
import CoreVideo
import Foundation

/// A code the reader found: its symbology, payload, and where its corners are.
package struct DetectedCode: Sendable, Equatable {
    /// The code's symbology, as AVFoundation names it.
    package var symbology: CodeSymbology
    /// The payload as text, or nil when it is binary.
    package var text: String?
    /// The payload's bytes.
    package var bytes: [UInt8]
    /// The symbol's corners in pixels of the picture read, in the code's own top-left,
    /// top-right, bottom-right, bottom-left order (a 1D code's are the ends of the lines read).
    package var corners: [CGPoint]
    /// What the reader tells of the symbol beyond its payload.
    package var symbol = SymbolFacts()

    /// A code found at `corners`.
    package init(symbology: CodeSymbology, text: String?, bytes: [UInt8], corners: [CGPoint], symbol: SymbolFacts = SymbolFacts()) {
        self.symbology = symbology
        self.text = text
        self.bytes = bytes
        self.corners = corners
        self.symbol = symbol
    }
}

/// What ZXing-C++ reports of a symbol beyond its payload, as it spells it; empty where it reports nothing.
package struct SymbolFacts: Sendable, Equatable {
    /// The symbol's version: a QR code's 1 to 40 (or M1 to M4), a Data Matrix code's rows x columns ("12x12"), an Aztec code's layers.
    package var version = ""
    /// The error correction level: a QR code's L, M, Q or H; a PDF417 or Aztec code's share of error correction codewords ("23%").
    package var errorCorrectionLevel = ""
    /// A QR code's data mask, 0 to 7.
    package var dataMask: Int?

    /// Facts from nothing.
    package init(version: String = "", errorCorrectionLevel: String = "", dataMask: Int? = nil) {
        self.version = version
        self.errorCorrectionLevel = errorCorrectionLevel
        self.dataMask = dataMask
    }
}

/// Reads machine-readable codes from pictures with ZXing-C++ 3, straight from the picture's
/// luma (or BGRA) memory, never copying it.
///
/// Thread ownership: one reader belongs to one thread at a time; ZXing-C++ keeps no state
/// between reads.
package final class CodeReader: @unchecked Sendable {
    package let symbologies: Set<CodeSymbology>
    package let maximumCodes: Int
    private let formats: [ZXing_BarcodeFormat]
    private let options: OpaquePointer

    /// A reader of `symbologies` that reports at most `maximumCodes` codes a picture.
    package init(symbologies: Set<CodeSymbology>, maximumCodes: Int = 4) {
        self.symbologies = symbologies
        self.maximumCodes = max(1, maximumCodes)
        var formats: [ZXing_BarcodeFormat] = []
        for symbology in CodeSymbology.allCases where symbologies.contains(symbology) {
            for format in symbology.readerFormats where !formats.contains(format) { formats.append(format) }
        }
        self.formats = formats
        options = Self.options(formats: formats, maximumCodes: self.maximumCodes, binarizer: ZXing_Binarizer_LocalAverage)
    }

    deinit { ZXing_ReaderOptions_delete(options) }

    /// ZXing's options for reading `formats` with `binarizer`; the caller deletes them.
    static func options(formats: [ZXing_BarcodeFormat], maximumCodes: Int, binarizer: ZXing_Binarizer) -> OpaquePointer {
        let options = ZXing_ReaderOptions_new()!
        ZXing_ReaderOptions_setFormats(options, formats, Int32(formats.count))
        ZXing_ReaderOptions_setMaxNumberOfSymbols(options, Int32(maximumCodes))
        ZXing_ReaderOptions_setBinarizer(options, binarizer)
        return options
    }

    /// Options like the reader's own but with `binarizer`, and without ZXing's own second looks
    /// (inverted and downscaled); the caller deletes them.
    func options(binarizer: ZXing_Binarizer) -> OpaquePointer {
        let options = Self.options(formats: formats, maximumCodes: maximumCodes, binarizer: binarizer)
        ZXing_ReaderOptions_setTryInvert(options, false)
        ZXing_ReaderOptions_setTryDownscale(options, false)
        return options
    }

    /// The pixel formats the reader reads.
    package static let readableFormats: Set<OSType> = [
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_OneComponent8,
    ]

    /// The codes in `image`, searching only `region` (in pixels; the whole picture when nil).
    package func read(_ image: CVPixelBuffer, region: CGRect? = nil) -> [DetectedCode] {
        let format = CVPixelBufferGetPixelFormatType(image)
        guard Self.readableFormats.contains(format), !symbologies.isEmpty else { return [] }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let planar = CVPixelBufferIsPlanar(image)
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(image, 0) : CVPixelBufferGetBaseAddress(image) else { return [] }
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(image, 0) : CVPixelBufferGetBytesPerRow(image)
        let width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        var bytes = base.assumingMemoryBound(to: UInt8.self)
        let layout: (ZXing_ImageFormat, Int32)
        switch format {
        case kCVPixelFormatType_32BGRA: layout = (ZXing_ImageFormat_BGRA, 4)
        case kCVPixelFormatType_422YpCbCr8_yuvs: layout = (ZXing_ImageFormat_Lum, 2)
        case kCVPixelFormatType_422YpCbCr8: layout = (ZXing_ImageFormat_Lum, 2); bytes += 1
        default: layout = (ZXing_ImageFormat_Lum, 1)
        }
        return read(luma: UnsafePointer(bytes), width: width, height: height, rowStride: stride, format: layout.0, pixelStride: layout.1, region: region)
    }

    /// The codes in a picture in memory (`format` one of ZXing's, `pixelStride` bytes between pixels).
    func read(
        luma bytes: UnsafePointer<UInt8>, width: Int, height: Int, rowStride: Int, format: ZXing_ImageFormat, pixelStride: Int32,
        region: CGRect?, options: OpaquePointer? = nil
    ) -> [DetectedCode] {
        guard let view = ZXing_ImageView_new(bytes, Int32(width), Int32(height), format, Int32(rowStride), pixelStride) else { return [] }
        defer { ZXing_ImageView_delete(view) }
        var origin = CGPoint.zero
        if let region {
            let crop = region.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
            guard crop.width >= 8, crop.height >= 8 else { return [] }
            ZXing_ImageView_crop(view, Int32(crop.minX), Int32(crop.minY), Int32(crop.width), Int32(crop.height))
            origin = crop.origin
        }
        guard let barcodes = ZXing_ReadBarcodes(view, options ?? self.options) else { return [] }
        defer { ZXing_Barcodes_delete(barcodes) }
        var codes: [DetectedCode] = []
        for index in 0..<ZXing_Barcodes_size(barcodes) {
            guard let barcode = ZXing_Barcodes_at(barcodes, index), ZXing_Barcode_isValid(barcode),
                let code = Self.code(from: barcode, origin: origin, wanted: symbologies)
            else { continue }
            codes.append(code)
        }
        return Array(Self.withoutPartialReads(codes).prefix(maximumCodes))
    }

    /// Interleaved 2 of 5 has no check digit of its own, so a scan line crossing a turned ITF-14
    /// code can read a shorter number from part of it: a code of that family on a scan line near a
    /// longer one's (within half its length, where ZXing-C++ gives a one-dimensional code's position
    /// as the line it was read along) is such a partial read, and is left out.
    static func withoutPartialReads(_ codes: [DetectedCode]) -> [DetectedCode] {
        // A comparison, not a Set: a set's first use costs a process the runtime's search for its
        // Hashable conformance, a noticeable part of a one-picture scan's start.
        func inFamily(_ symbology: CodeSymbology) -> Bool { symbology == .interleaved2of5 || symbology == .itf14 }
        return codes.filter { code in
            guard inFamily(code.symbology) else { return true }
            let box = Self.box(code.corners)
            return !codes.contains { other in
                guard inFamily(other.symbology), other.bytes.count > code.bytes.count else { return false }
                let longer = Self.box(other.corners)
                let reach = max(longer.width, longer.height) / 2
                return longer.insetBy(dx: -reach, dy: -reach).intersects(box)
            }
        }
    }

    private static func box(_ points: [CGPoint]) -> CGRect {
        let xs = points.map(\.x), ys = points.map(\.y)
        return CGRect(x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
    }

    /// A found barcode as the symbology AVFoundation names, if it is one of `wanted`.
    private static func code(from barcode: OpaquePointer, origin: CGPoint, wanted: Set<CodeSymbology>) -> DetectedCode? {
        let format = ZXing_Barcode_format(barcode)
        var length: Int32 = 0
        var bytes: [UInt8] = []
        if let raw = ZXing_Barcode_bytes(barcode, &length) {
            bytes = Array(UnsafeBufferPointer(start: raw, count: Int(length)))
            ZXing_free(raw)
        }
        var text: String?
        if ZXing_Barcode_contentType(barcode) != ZXing_ContentType_Binary, let raw = ZXing_Barcode_text(barcode) {
            text = String(cString: raw)
            ZXing_free(raw)
        }
        let symbology: CodeSymbology
        switch format {
        case ZXing_BarcodeFormat_UPCA:
            symbology = .ean13
            text = text.map { "0" + $0 }
        case ZXing_BarcodeFormat_EAN13: symbology = .ean13
        case ZXing_BarcodeFormat_EAN8: symbology = .ean8
        case ZXing_BarcodeFormat_UPCE:
            // ZXing-C++ gives the UPC-A number the code stands for; AVFoundation gives its eight digits.
            symbology = .upce
            text = text.map { Self.upcE(fromExpanded: $0) ?? $0 }
        case ZXing_BarcodeFormat_Code93: symbology = .code93
        case ZXing_BarcodeFormat_Code128: symbology = .code128
        case ZXing_BarcodeFormat_Codabar: symbology = .codabar
        case ZXing_BarcodeFormat_DataMatrix: symbology = .dataMatrix
        case ZXing_BarcodeFormat_MicroQRCode: symbology = .microQR
        case ZXing_BarcodeFormat_MicroPDF417: symbology = .microPDF417
        case ZXing_BarcodeFormat_DataBarExp, ZXing_BarcodeFormat_DataBarExpStk: symbology = .gs1DataBarExpanded
        case ZXing_BarcodeFormat_DataBarLtd: symbology = .gs1DataBarLimited
        default:
            switch ZXing_BarcodeFormatSymbology(format) {
            case ZXing_BarcodeFormat_Code39:
                // A Code 39 mod 43 code ends in the check character of what precedes it, which is not part of the payload.
                if wanted.contains(.code39Mod43), let payload = text, payload.count > 1,
                    CodeSymbology.code39CheckCharacter(for: String(payload.dropLast())) == payload.last
                {
                    symbology = .code39Mod43
                    text = String(payload.dropLast())
                    bytes.removeLast()
                } else {
                    symbology = .code39
                }
            case ZXing_BarcodeFormat_ITF:
                let digits = text ?? ""
                symbology = wanted.contains(.itf14) && digits.count == 14 && Self.hasGS1CheckDigit(digits) ? .itf14 : .interleaved2of5
            case ZXing_BarcodeFormat_DataBar: symbology = .gs1DataBar
            case ZXing_BarcodeFormat_PDF417: symbology = .pdf417
            case ZXing_BarcodeFormat_QRCode: symbology = .qr
            case ZXing_BarcodeFormat_Aztec: symbology = .aztec
            default: return nil
            }
        }
        guard wanted.contains(symbology) else { return nil }
        let position = ZXing_Barcode_position(barcode)
        let corners = [position.topLeft, position.topRight, position.bottomRight, position.bottomLeft].map {
            CGPoint(x: CGFloat($0.x) + origin.x, y: CGFloat($0.y) + origin.y)
        }
        // Only QR and Data Matrix codes have descriptors: other codes skip the lookups (each a copy
        // out of ZXing), which run for every code of every frame searched.
        var symbol = SymbolFacts()
        if symbology == .qr {
            symbol = SymbolFacts(
                version: extra(barcode, "Version"), errorCorrectionLevel: extra(barcode, "ECLevel"),
                dataMask: Int(extra(barcode, "DataMask")))
        } else if symbology == .dataMatrix {
            symbol = SymbolFacts(version: extra(barcode, "Version"))
        }
        return DetectedCode(symbology: symbology, text: text, bytes: bytes, corners: corners, symbol: symbol)
    }

    /// One of ZXing's extra facts about a barcode ("" when it has none).
    private static func extra(_ barcode: OpaquePointer, _ key: String) -> String {
        guard let raw = ZXing_Barcode_extra(barcode, key) else { return "" }
        defer { ZXing_free(raw) }
        return String(cString: raw)
    }

    /// The eight digits of a UPC-E code from the 12- or 13-digit number it stands for (zero suppression reversed).
    package static func upcE(fromExpanded number: String) -> String? {
        let digits = Array(number.count == 13 && number.first == "0" ? String(number.dropFirst()) : number)
        guard digits.count == 12, digits.allSatisfy(\.isNumber), digits[0] == "0" || digits[0] == "1" else { return nil }
        let m = String(digits[1...5]), p = String(digits[6...10])
        let m3 = digits[3], m4m5 = String(digits[4...5])
        let middle: String
        if m4m5 == "00", "012".contains(m3), p.hasPrefix("00") {
            middle = String(digits[1...2]) + String(digits[8...10]) + String(m3)
        } else if m4m5 == "00", p.hasPrefix("000") {
            middle = String(digits[1...3]) + String(digits[9...10]) + "3"
        } else if digits[5] == "0", p.hasPrefix("0000") {
            middle = String(digits[1...4]) + String(digits[10]) + "4"
        } else if p.hasPrefix("0000"), "56789".contains(digits[10]) {
            middle = m + String(digits[10])
        } else {
            return nil
        }
        return String(digits[0]) + middle + String(digits[11])
    }

    /// Whether a string of digits ends in its GS1 (mod 10) check digit.
    static func hasGS1CheckDigit(_ digits: String) -> Bool {
        let values = digits.compactMap(\.wholeNumberValue)
        guard values.count == digits.count, values.count > 1 else { return false }
        var sum = 0
        for (offset, value) in values.dropLast().reversed().enumerated() { sum += value * (offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == values.last
    }
}
