import CoreServices

// What a file importing only Core Services (or Mobile Core Services) uses: the older constants and
// Uniform Type Identifiers' UTType beside them.
enum CoreServicesBrings {
    static func isImage(_ identifier: String) -> Bool {
        UTType(identifier)?.conforms(to: .image) ?? UTTypeConformsTo(identifier as CFString, kUTTypeImage)
    }
}
