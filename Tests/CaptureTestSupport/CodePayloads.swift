import FrameProcessing

/// Payloads the code tests print and read back.
package enum CodePayloads {
    /// A payload valid for each symbology the writer draws.
    package static let valid: [CodeSymbology: String] = [
        .upce: "01234565", .ean8: "96385074", .ean13: "4006381333931", .code39: "LINUX-AV", .code39Mod43: "CODE39",
        .code93: "CODE93", .code128: "Code 128 text", .pdf417: "PDF417 payload", .qr: "https://example.com/qr",
        .aztec: "Aztec payload", .interleaved2of5: "12345678", .itf14: "10012345678902", .dataMatrix: "Data Matrix",
        .codabar: "A123456B",
    ]
}
