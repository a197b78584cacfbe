import Foundation
import FrameProcessing

extension CIBarcodeDescriptor {
    /// Core Image's description of a QR or Data Matrix code's symbol, from what the reader reports
    /// of it; nil for other codes, or when the reader could not tell the symbol's facts.
    package static func describing(_ code: DetectedCode) -> CIBarcodeDescriptor? {
        switch code.symbology {
        case .qr:
            let levels: [String: CIQRCodeDescriptor.ErrorCorrectionLevel] = ["L": .levelL, "M": .levelM, "Q": .levelQ, "H": .levelH]
            guard let version = Int(code.symbol.version), let mask = code.symbol.dataMask, let level = levels[code.symbol.errorCorrectionLevel] else {
                return nil
            }
            return CIQRCodeDescriptor(
                payload: Data(SymbolCodewords.qrCode(code.bytes, version: version)), symbolVersion: version,
                maskPattern: UInt8(clamping: mask), errorCorrectionLevel: level)
        case .dataMatrix:
            let size = code.symbol.version.split(separator: "x").compactMap { Int($0) }
            guard size.count == 2 else { return nil }
            return CIDataMatrixCodeDescriptor(
                payload: Data(SymbolCodewords.dataMatrix(code.bytes)), rowCount: size[0], columnCount: size[1],
                eccVersion: .v200)
        default:
            return nil
        }
    }
}
