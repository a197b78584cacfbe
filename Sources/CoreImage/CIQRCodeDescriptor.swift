import Foundation

/// A concrete subclass of the Core Image Barcode Descriptor that represents a square QR code symbol.
///
/// ISO/IEC 18004 defines versions from 1 to 40, where a higher symbol version indicates a larger
/// data-carrying capacity.
open class CIQRCodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// QR code error correction levels.
    public enum ErrorCorrectionLevel: Int, Sendable {
        /// Level L: about 7 % of the codewords can be restored.
        case levelL = 76
        /// Level M: about 15 % of the codewords can be restored.
        case levelM = 77
        /// Level Q: about 25 % of the codewords can be restored.
        case levelQ = 81
        /// Level H: about 30 % of the codewords can be restored.
        case levelH = 72
    }

    /// The error-corrected codeword payload that comprises the QR code symbol.
    public let errorCorrectedPayload: Data
    /// The version of the QR code which corresponds to the size of the QR code symbol.
    public let symbolVersion: Int
    /// The data mask pattern for the QR code symbol, from 0 to 7.
    public let maskPattern: UInt8
    /// The QR code's error correction level.
    public let errorCorrectionLevel: CIQRCodeDescriptor.ErrorCorrectionLevel

    /// Initializes a QR code descriptor for the given payload and parameters.
    public init?(
        payload errorCorrectedPayload: Data, symbolVersion: Int, maskPattern: UInt8,
        errorCorrectionLevel: CIQRCodeDescriptor.ErrorCorrectionLevel
    ) {
        guard (1...40).contains(symbolVersion), maskPattern <= 7, !errorCorrectedPayload.isEmpty else { return nil }
        self.errorCorrectedPayload = errorCorrectedPayload
        self.symbolVersion = symbolVersion
        self.maskPattern = maskPattern
        self.errorCorrectionLevel = errorCorrectionLevel
        super.init()
    }

    /// Creates a QR code descriptor from an archive.
    public required init?(coder: NSCoder) {
        guard let payload = coder.decodeObject(forKey: "errorCorrectedPayload") as? Data,
            let level = ErrorCorrectionLevel(rawValue: coder.decodeInteger(forKey: "errorCorrectionLevel"))
        else { return nil }
        errorCorrectedPayload = payload
        symbolVersion = coder.decodeInteger(forKey: "symbolVersion")
        maskPattern = UInt8(clamping: coder.decodeInteger(forKey: "maskPattern"))
        errorCorrectionLevel = level
        super.init()
    }

    /// Archives the QR code descriptor.
    open override func encode(with coder: NSCoder) {
        coder.encode(errorCorrectedPayload, forKey: "errorCorrectedPayload")
        coder.encode(symbolVersion, forKey: "symbolVersion")
        coder.encode(Int(maskPattern), forKey: "maskPattern")
        coder.encode(errorCorrectionLevel.rawValue, forKey: "errorCorrectionLevel")
    }

    /// Whether `object` is a QR code descriptor of the same symbol.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIQRCodeDescriptor else { return false }
        return errorCorrectedPayload == other.errorCorrectedPayload && symbolVersion == other.symbolVersion
            && maskPattern == other.maskPattern && errorCorrectionLevel == other.errorCorrectionLevel
    }

    /// A hash of the descriptor's fields.
    open override var hash: Int { errorCorrectedPayload.hashValue ^ symbolVersion ^ Int(maskPattern) << 8 }
}
