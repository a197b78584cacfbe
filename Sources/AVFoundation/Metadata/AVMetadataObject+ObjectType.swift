import CaptureDevices
import Foundation
import FrameProcessing

extension AVMetadataObject.ObjectType {
    /// A constant that identifies the UPC-E symbology.
    public static let upce = Self(rawValue: CodeSymbology.upce.rawValue)
    /// A constant that identifies the EAN-8 symbology.
    public static let ean8 = Self(rawValue: CodeSymbology.ean8.rawValue)
    /// A constant that identifies the EAN-13 symbology; UPC-A codes are reported as EAN-13 codes with a leading zero.
    public static let ean13 = Self(rawValue: CodeSymbology.ean13.rawValue)
    /// A constant that identifies the Code 39 symbology.
    public static let code39 = Self(rawValue: CodeSymbology.code39.rawValue)
    /// A constant that identifies the Code 39 mod 43 symbology.
    public static let code39Mod43 = Self(rawValue: CodeSymbology.code39Mod43.rawValue)
    /// A constant that identifies the Code 93 symbology.
    public static let code93 = Self(rawValue: CodeSymbology.code93.rawValue)
    /// A constant that identifies the Code 128 symbology.
    public static let code128 = Self(rawValue: CodeSymbology.code128.rawValue)
    /// A constant that identifies the PDF417 symbology.
    public static let pdf417 = Self(rawValue: CodeSymbology.pdf417.rawValue)
    /// A constant that identifies the QR code symbology.
    public static let qr = Self(rawValue: CodeSymbology.qr.rawValue)
    /// A constant that identifies the Aztec symbology.
    public static let aztec = Self(rawValue: CodeSymbology.aztec.rawValue)
    /// A constant that identifies the Interleaved 2 of 5 symbology.
    public static let interleaved2of5 = Self(rawValue: CodeSymbology.interleaved2of5.rawValue)
    /// A constant that identifies the ITF-14 symbology.
    public static let itf14 = Self(rawValue: CodeSymbology.itf14.rawValue)
    /// A constant that identifies the Data Matrix symbology.
    public static let dataMatrix = Self(rawValue: CodeSymbology.dataMatrix.rawValue)
    /// A constant that identifies the Codabar symbology.
    public static let codabar = Self(rawValue: CodeSymbology.codabar.rawValue)
    /// A constant that identifies the GS1 DataBar symbology.
    public static let gs1DataBar = Self(rawValue: CodeSymbology.gs1DataBar.rawValue)
    /// A constant that identifies the GS1 DataBar Expanded symbology.
    public static let gs1DataBarExpanded = Self(rawValue: CodeSymbology.gs1DataBarExpanded.rawValue)
    /// A constant that identifies the GS1 DataBar Limited symbology.
    public static let gs1DataBarLimited = Self(rawValue: CodeSymbology.gs1DataBarLimited.rawValue)
    /// A constant that identifies the Micro QR code symbology.
    public static let microQR = Self(rawValue: CodeSymbology.microQR.rawValue)
    /// A constant that identifies the MicroPDF417 symbology.
    public static let microPDF417 = Self(rawValue: CodeSymbology.microPDF417.rawValue)
    /// A constant that identifies faces.
    public static let face = Self(rawValue: "face")

    /// The symbology a machine-readable code type names, or nil for other types.
    var codeSymbology: CodeSymbology? { CodeSymbology(rawValue: rawValue) }
}
