import Foundation

/// A concrete subclass the Core Image Barcode Descriptor that represents an Data Matrix code symbol.
///
/// A Data Matrix code symbol is a 2D barcode format defined by the ISO/IEC 16022:2006(E) standard.
/// It encodes data in square or rectangular symbol with solid lines on the left and bottom sides.
open class CIDataMatrixCodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// Constants indicating the Data Matrix code ECC version.
    public enum ECCVersion: Int, Sendable {
        /// ECC 000.
        case v000 = 0
        /// ECC 050.
        case v050 = 50
        /// ECC 080.
        case v080 = 80
        /// ECC 100.
        case v100 = 100
        /// ECC 140.
        case v140 = 140
        /// ECC 200, the Reed-Solomon version every current printer uses.
        case v200 = 200
    }

    /// The error-corrected payload containing the data encoded in the Data Matrix code symbol.
    public let errorCorrectedPayload: Data
    /// The number of rows in the Data Matrix code symbol.
    public let rowCount: Int
    /// The number of columns in the Data Matrix code symbol.
    public let columnCount: Int
    /// The error correction version of the Data Matrix code symbol.
    public let eccVersion: CIDataMatrixCodeDescriptor.ECCVersion

    /// Initializes a Data Matrix code descriptor for the given payload and parameters.
    public init?(payload errorCorrectedPayload: Data, rowCount: Int, columnCount: Int, eccVersion: CIDataMatrixCodeDescriptor.ECCVersion) {
        // ECC 200 symbols have an even number of rows and columns, 8 to 144; the older versions odd ones, 9 to 49.
        let sides = eccVersion == .v200 ? 8...144 : 9...49
        let parity = eccVersion == .v200 ? 0 : 1
        guard sides.contains(rowCount), sides.contains(columnCount), rowCount % 2 == parity, columnCount % 2 == parity,
            !errorCorrectedPayload.isEmpty
        else { return nil }
        self.errorCorrectedPayload = errorCorrectedPayload
        self.rowCount = rowCount
        self.columnCount = columnCount
        self.eccVersion = eccVersion
        super.init()
    }

    /// Creates a Data Matrix code descriptor from an archive.
    public required init?(coder: NSCoder) {
        guard let payload = coder.decodeObject(forKey: "errorCorrectedPayload") as? Data,
            let version = ECCVersion(rawValue: coder.decodeInteger(forKey: "eccVersion"))
        else { return nil }
        errorCorrectedPayload = payload
        rowCount = coder.decodeInteger(forKey: "rowCount")
        columnCount = coder.decodeInteger(forKey: "columnCount")
        eccVersion = version
        super.init()
    }

    /// Archives the Data Matrix code descriptor.
    open override func encode(with coder: NSCoder) {
        coder.encode(errorCorrectedPayload, forKey: "errorCorrectedPayload")
        coder.encode(rowCount, forKey: "rowCount")
        coder.encode(columnCount, forKey: "columnCount")
        coder.encode(eccVersion.rawValue, forKey: "eccVersion")
    }

    /// Whether `object` is a Data Matrix code descriptor of the same symbol.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIDataMatrixCodeDescriptor else { return false }
        return errorCorrectedPayload == other.errorCorrectedPayload && rowCount == other.rowCount
            && columnCount == other.columnCount && eccVersion == other.eccVersion
    }

    /// A hash of the descriptor's fields.
    open override var hash: Int { errorCorrectedPayload.hashValue ^ rowCount ^ columnCount << 8 }
}
