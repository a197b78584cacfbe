import Foundation

extension AVMetadataItem {
    /// Returns the metadata items with an identifier, in their order.
    public class func metadataItems(from metadataItems: [AVMetadataItem], filteredByIdentifier identifier: AVMetadataIdentifier) -> [AVMetadataItem] {
        metadataItems.filter { $0.resolvedIdentifier == identifier }
    }

    /// Returns the metadata items with a key in a key space, in their order; a `nil` key or key
    /// space matches every one.
    public class func metadataItems(from metadataItems: [AVMetadataItem], withKey key: Any?, keySpace: AVMetadataKeySpace?) -> [AVMetadataItem] {
        metadataItems.filter { item in
            if let keySpace, item.resolvedKeySpace != keySpace { return false }
            switch key {
            case nil: return true
            case let string as String: return item.keyString == string
            case let string as NSString: return item.keyString == string as String
            case let number as NSNumber: return (item.key as? NSNumber) == number
            case let other?: return item.key.map { "\($0)" } == "\(other)"
            }
        }
    }

    /// The identifier that names the item's key space and key together: the one it was given, else
    /// the one its key space and key make.
    var resolvedIdentifier: AVMetadataIdentifier? {
        if let identifier { return identifier }
        guard let keySpace, let keyString else { return nil }
        let prefix = Self.identifierPrefixes.first { $0.keySpace == keySpace }?.prefix ?? keySpace.rawValue
        return AVMetadataIdentifier(rawValue: "\(prefix)/\(keyString)")
    }
}
