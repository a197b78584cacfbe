import Foundation

/// A concrete subclass of the Core Image Barcode Descriptor that represents an Aztec code symbol.
///
/// An Aztec code symbol is a 2D barcode format defined by the ISO/IEC 24778:2008 standard. It
/// encodes data in a square symbol around a central bullseye.
open class CIAztecCodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// The error-corrected payload that comprises the Aztec code symbol.
    public let errorCorrectedPayload: Data
    /// A Boolean value telling if the Aztec code is compact.
    public let isCompact: Bool
    /// The number of layers in the Aztec code symbol: 1 to 4 compact, 1 to 32 full.
    public let layerCount: Int
    /// The number of non-error-correction codewords carried by the Aztec code symbol.
    public let dataCodewordCount: Int

    /// Initializes an Aztec code descriptor for the given payload and parameters.
    public init?(payload errorCorrectedPayload: Data, isCompact: Bool, layerCount: Int, dataCodewordCount: Int) {
        guard (1...(isCompact ? 4 : 32)).contains(layerCount), (1...(isCompact ? 64 : 2048)).contains(dataCodewordCount),
            !errorCorrectedPayload.isEmpty
        else { return nil }
        self.errorCorrectedPayload = errorCorrectedPayload
        self.isCompact = isCompact
        self.layerCount = layerCount
        self.dataCodewordCount = dataCodewordCount
        super.init()
    }

    /// Creates an Aztec code descriptor from an archive.
    public required init?(coder: NSCoder) {
        guard let payload = coder.decodeObject(forKey: "errorCorrectedPayload") as? Data else { return nil }
        errorCorrectedPayload = payload
        isCompact = coder.decodeBool(forKey: "isCompact")
        layerCount = coder.decodeInteger(forKey: "layerCount")
        dataCodewordCount = coder.decodeInteger(forKey: "dataCodewordCount")
        super.init()
    }

    /// Archives the Aztec code descriptor.
    open override func encode(with coder: NSCoder) {
        coder.encode(errorCorrectedPayload, forKey: "errorCorrectedPayload")
        coder.encode(isCompact, forKey: "isCompact")
        coder.encode(layerCount, forKey: "layerCount")
        coder.encode(dataCodewordCount, forKey: "dataCodewordCount")
    }

    /// Whether `object` is an Aztec code descriptor of the same symbol.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIAztecCodeDescriptor else { return false }
        return errorCorrectedPayload == other.errorCorrectedPayload && isCompact == other.isCompact
            && layerCount == other.layerCount && dataCodewordCount == other.dataCodewordCount
    }

    /// A hash of the descriptor's fields.
    open override var hash: Int { errorCorrectedPayload.hashValue ^ layerCount ^ dataCodewordCount << 6 }
}
