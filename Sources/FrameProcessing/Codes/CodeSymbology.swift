import CZXing

/// A machine-readable code symbology the detector reads, named by the identifier AVFoundation
/// gives it (`AVMetadataObject.ObjectType`'s raw value), with the ZXing-C++ formats behind it.
package enum CodeSymbology: String, CaseIterable, Sendable {
    case upce = "org.gs1.UPC-E"
    case ean8 = "org.gs1.EAN-8"
    case ean13 = "org.gs1.EAN-13"
    case code39 = "org.iso.Code39"
    case code39Mod43 = "org.iso.Code39Mod43"
    case code93 = "com.intermec.Code93"
    case code128 = "org.iso.Code128"
    case pdf417 = "org.iso.PDF417"
    case qr = "org.iso.QRCode"
    case aztec = "org.iso.Aztec"
    case interleaved2of5 = "org.ansi.Interleaved2of5"
    case itf14 = "org.gs1.ITF14"
    case dataMatrix = "org.iso.DataMatrix"
    case codabar = "Codabar"
    case gs1DataBar = "org.gs1.GS1DataBar"
    case gs1DataBarExpanded = "org.gs1.GS1DataBarExpanded"
    case gs1DataBarLimited = "org.gs1.GS1DataBarLimited"
    case microQR = "org.iso.MicroQR"
    case microPDF417 = "org.iso.MicroPDF417"

    /// The ZXing-C++ formats a reader looks for to find this symbology.
    var readerFormats: [ZXing_BarcodeFormat] {
        switch self {
        case .upce: [ZXing_BarcodeFormat_UPCE]
        // A UPC-A code is an EAN-13 code with a leading zero, as AVFoundation reports it.
        case .ean13: [ZXing_BarcodeFormat_EAN13, ZXing_BarcodeFormat_UPCA]
        case .ean8: [ZXing_BarcodeFormat_EAN8]
        case .code39, .code39Mod43: [ZXing_BarcodeFormat_Code39]
        case .code93: [ZXing_BarcodeFormat_Code93]
        case .code128: [ZXing_BarcodeFormat_Code128]
        case .pdf417: [ZXing_BarcodeFormat_PDF417]
        case .qr: [ZXing_BarcodeFormat_QRCode]
        case .aztec: [ZXing_BarcodeFormat_Aztec]
        case .interleaved2of5, .itf14: [ZXing_BarcodeFormat_ITF]
        case .dataMatrix: [ZXing_BarcodeFormat_DataMatrix]
        case .codabar: [ZXing_BarcodeFormat_Codabar]
        case .gs1DataBar, .gs1DataBarExpanded, .gs1DataBarLimited: [ZXing_BarcodeFormat_DataBar]
        case .microQR: [ZXing_BarcodeFormat_MicroQRCode]
        case .microPDF417: [ZXing_BarcodeFormat_MicroPDF417]
        }
    }

    /// The ZXing-C++ format a code of this symbology is drawn with, or nil where it draws none.
    var creatorFormat: ZXing_BarcodeFormat? {
        switch self {
        case .upce: ZXing_BarcodeFormat_UPCE
        case .ean8: ZXing_BarcodeFormat_EAN8
        case .ean13: ZXing_BarcodeFormat_EAN13
        case .code39, .code39Mod43: ZXing_BarcodeFormat_Code39
        case .code93: ZXing_BarcodeFormat_Code93
        case .code128: ZXing_BarcodeFormat_Code128
        case .pdf417: ZXing_BarcodeFormat_PDF417
        case .qr: ZXing_BarcodeFormat_QRCode
        case .aztec: ZXing_BarcodeFormat_Aztec
        case .interleaved2of5, .itf14: ZXing_BarcodeFormat_ITF
        case .dataMatrix: ZXing_BarcodeFormat_DataMatrix
        case .codabar: ZXing_BarcodeFormat_Codabar
        case .gs1DataBar, .gs1DataBarExpanded, .gs1DataBarLimited, .microQR, .microPDF417: nil
        }
    }

    /// Whether codes of this symbology are two-dimensional, so that their corners are the symbol's.
    package var isMatrix: Bool { [.pdf417, .qr, .aztec, .dataMatrix, .microQR, .microPDF417].contains(self) }

    /// The mod 43 check character of a Code 39 payload, or nil when the payload has characters Code 39 lacks.
    package static func code39CheckCharacter(for payload: String) -> Character? {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")
        var sum = 0
        for character in payload {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            sum += value
        }
        return alphabet[sum % 43]
    }
}
