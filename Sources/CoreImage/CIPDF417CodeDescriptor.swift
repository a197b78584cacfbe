import Foundation

/// A concrete subclass of the Core Image Barcode Descriptor that represents a PDF417 symbol.
///
/// PDF417 is a stacked linear barcode symbol format defined by the ISO/IEC 15438:2015 standard,
/// of 3 to 90 rows of 1 to 30 data columns.
open class CIPDF417CodeDescriptor: CIBarcodeDescriptor, @unchecked Sendable {
    /// The error-corrected payload containing the data encoded in the PDF417 code symbol.
    public let errorCorrectedPayload: Data
    /// A Boolean value telling if the PDF417 code is compact.
    public let isCompact: Bool
    /// The number of rows in the PDF417 code symbol.
    public let rowCount: Int
    /// The number of columns in the PDF417 code symbol.
    public let columnCount: Int

    /// Initializes a PDF417 code descriptor for the given payload and parameters.
    public init?(payload errorCorrectedPayload: Data, isCompact: Bool, rowCount: Int, columnCount: Int) {
        guard (3...90).contains(rowCount), (1...30).contains(columnCount), !errorCorrectedPayload.isEmpty else { return nil }
        self.errorCorrectedPayload = errorCorrectedPayload
        self.isCompact = isCompact
        self.rowCount = rowCount
        self.columnCount = columnCount
        super.init()
    }

    /// Creates a PDF417 code descriptor from an archive.
    public required init?(coder: NSCoder) {
        guard let payload = coder.decodeObject(forKey: "errorCorrectedPayload") as? Data else { return nil }
        errorCorrectedPayload = payload
        isCompact = coder.decodeBool(forKey: "isCompact")
        rowCount = coder.decodeInteger(forKey: "rowCount")
        columnCount = coder.decodeInteger(forKey: "columnCount")
        super.init()
    }

    /// Archives the PDF417 code descriptor.
    open override func encode(with coder: NSCoder) {
        coder.encode(errorCorrectedPayload, forKey: "errorCorrectedPayload")
        coder.encode(isCompact, forKey: "isCompact")
        coder.encode(rowCount, forKey: "rowCount")
        coder.encode(columnCount, forKey: "columnCount")
    }

    /// Whether `object` is a PDF417 code descriptor of the same symbol.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIPDF417CodeDescriptor else { return false }
        return errorCorrectedPayload == other.errorCorrectedPayload && isCompact == other.isCompact
            && rowCount == other.rowCount && columnCount == other.columnCount
    }

    /// A hash of the descriptor's fields.
    open override var hash: Int { errorCorrectedPayload.hashValue ^ rowCount ^ columnCount << 7 }
}
