import CoreMedia
import Foundation

/// A family of metadata keys, such as common keys or QuickTime metadata keys.
public struct AVMetadataKeySpace: RawRepresentable, Hashable, Sendable {
    /// The key space's identifier.
    public let rawValue: String
    /// Creates a key space from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Keys common to every format.
    public static let common = AVMetadataKeySpace(rawValue: "comn")
    /// QuickTime metadata keys.
    public static let quickTimeMetadata = AVMetadataKeySpace(rawValue: "mdta")
    /// QuickTime user data keys.
    public static let quickTimeUserData = AVMetadataKeySpace(rawValue: "udta")
    /// iTunes keys.
    public static let iTunes = AVMetadataKeySpace(rawValue: "itsk")
    /// ID3 frame identifiers, as MP3 files and the timed metadata of MPEG-TS and HLS streams carry them.
    public static let id3 = AVMetadataKeySpace(rawValue: "org.id3")
}

/// A metadata key.
public struct AVMetadataKey: RawRepresentable, Hashable, Sendable {
    /// The key's string.
    public let rawValue: String
    /// Creates a key from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The common key for the title.
    public static let commonKeyTitle = AVMetadataKey(rawValue: "title")
    /// The common key for the creator.
    public static let commonKeyCreator = AVMetadataKey(rawValue: "creator")
    /// The common key for the description.
    public static let commonKeyDescription = AVMetadataKey(rawValue: "description")
    /// The common key for the creation date.
    public static let commonKeyCreationDate = AVMetadataKey(rawValue: "creationDate")
    /// The common key for the location, as an ISO 6709 string.
    public static let commonKeyLocation = AVMetadataKey(rawValue: "location")
    /// The common key for the software that made the file.
    public static let commonKeySoftware = AVMetadataKey(rawValue: "software")
    /// The common key for the device's make.
    public static let commonKeyMake = AVMetadataKey(rawValue: "make")
    /// The common key for the device's model.
    public static let commonKeyModel = AVMetadataKey(rawValue: "model")
    /// The common key for the author.
    public static let commonKeyAuthor = AVMetadataKey(rawValue: "author")
    /// The QuickTime metadata key for the location, as an ISO 6709 string.
    public static let quickTimeMetadataKeyLocationISO6709 = AVMetadataKey(rawValue: "com.apple.quicktime.location.ISO6709")
    /// The QuickTime metadata key for the title.
    public static let quickTimeMetadataKeyTitle = AVMetadataKey(rawValue: "com.apple.quicktime.title")
    /// The QuickTime metadata key for the creation date.
    public static let quickTimeMetadataKeyCreationDate = AVMetadataKey(rawValue: "com.apple.quicktime.creationdate")
    /// The QuickTime user data key for the location.
    public static let quickTimeUserDataKeyLocationISO6709 = AVMetadataKey(rawValue: "@xyz")
    /// The QuickTime user data key for the title.
    public static let quickTimeUserDataKeyFullName = AVMetadataKey(rawValue: "@nam")
}

/// The key of an attribute a metadata item carries beside its value.
public struct AVMetadataExtraAttributeKey: RawRepresentable, Hashable, Sendable {
    /// The attribute's name.
    public let rawValue: String
    /// Creates a key from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A URI the value refers to, such as an ID3 WXXX frame's.
    public static let valueURI = AVMetadataExtraAttributeKey(rawValue: "valueURI")
    /// The URI relative URIs in the value are resolved against.
    public static let baseURI = AVMetadataExtraAttributeKey(rawValue: "baseURI")
    /// More about the value: an ID3 PRIV frame's owner, a TXXX, WXXX or COMM frame's description.
    public static let info = AVMetadataExtraAttributeKey(rawValue: "info")
}

/// A metadata identifier: a key space and a key together.
public struct AVMetadataIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier's string, as `keyspace/key`.
    public let rawValue: String
    /// Creates an identifier from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The common title.
    public static let commonIdentifierTitle = AVMetadataIdentifier(rawValue: "common/title")
    /// The common location.
    public static let commonIdentifierLocation = AVMetadataIdentifier(rawValue: "common/location")
    /// The common creation date.
    public static let commonIdentifierCreationDate = AVMetadataIdentifier(rawValue: "common/creationDate")
    /// The common description.
    public static let commonIdentifierDescription = AVMetadataIdentifier(rawValue: "common/description")
    /// The common software.
    public static let commonIdentifierSoftware = AVMetadataIdentifier(rawValue: "common/software")
    /// The QuickTime metadata location.
    public static let quickTimeMetadataLocationISO6709 = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.ISO6709")
    /// The QuickTime metadata title.
    public static let quickTimeMetadataTitle = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.title")
}

/// A piece of metadata: a key in a key space, and its value.
open class AVMetadataItem: NSObject, @unchecked Sendable {
    /// The item's key space.
    public internal(set) var keySpace: AVMetadataKeySpace?
    /// The item's key, usually a string.
    public internal(set) var key: (any NSCopying & NSObjectProtocol)?
    /// The item's identifier, which names key space and key together.
    public internal(set) var identifier: AVMetadataIdentifier?
    /// The item's value: a string, number, date or data.
    public internal(set) var value: (any NSCopying & NSObjectProtocol)?
    /// The language of the value, as an IETF BCP 47 tag.
    public internal(set) var extendedLanguageTag: String?
    /// The timestamp of the item, for timed metadata; invalid otherwise.
    public internal(set) var time: CMTime = .invalid
    /// How long the item applies, for timed metadata; invalid otherwise.
    public internal(set) var duration: CMTime = .invalid
    /// The type of the value's data, such as `kCMMetadataBaseDataType_UTF8`.
    public internal(set) var dataType: String?
    /// Attributes beside the value, such as an ID3 PRIV frame's owner (`.info`).
    public internal(set) var extraAttributes: [AVMetadataExtraAttributeKey: Any]?

    /// Creates an empty item.
    public override init() { super.init() }

    /// The value as a string, if it is one.
    public var stringValue: String? {
        switch value {
        case let string as NSString: return string as String
        case let number as NSNumber: return number.stringValue
        case let date as NSDate: return ISO8601Timestamp.string(from: date as Date)
        default: return nil
        }
    }
    /// The value as bytes, if it is data, or a string's UTF-8.
    public var dataValue: Data? {
        switch value {
        case let data as NSData: return Data(copying: data)
        case let string as NSString: return Data((string as String).utf8)
        default: return nil
        }
    }
    /// The value as a number, if it is one.
    public var numberValue: NSNumber? { value as? NSNumber }
    /// The value as a date, if it is one or parses as ISO 8601.
    public var dateValue: Date? { (value as? NSDate).map { $0 as Date } ?? stringValue.flatMap(ISO8601Timestamp.date(from:)) }

    /// The item's key in the common key space, for items that have one.
    public var commonKey: AVMetadataKey? {
        guard let key = keyString else { return nil }
        if resolvedKeySpace == .common { return AVMetadataKey(rawValue: key) }
        let common: [String: AVMetadataKey] = [
            "com.apple.quicktime.title": .commonKeyTitle, "@nam": .commonKeyTitle, "©nam": .commonKeyTitle,
            "com.apple.quicktime.location.ISO6709": .commonKeyLocation, "@xyz": .commonKeyLocation, "©xyz": .commonKeyLocation,
            "com.apple.quicktime.creationdate": .commonKeyCreationDate, "@day": .commonKeyCreationDate,
            "com.apple.quicktime.description": .commonKeyDescription, "com.apple.quicktime.software": .commonKeySoftware,
            "com.apple.quicktime.author": .commonKeyAuthor, "com.apple.quicktime.make": .commonKeyMake, "com.apple.quicktime.model": .commonKeyModel,
        ]
        return common[key]
    }

    /// The key as a string, from the key or the identifier.
    var keyString: String? {
        if let key = key as? NSString { return key as String }
        if let identifier { return identifier.rawValue.split(separator: "/", maxSplits: 1).last.map(String.init) }
        return nil
    }

    /// The key space, from the item or its identifier.
    var resolvedKeySpace: AVMetadataKeySpace? {
        if let keySpace { return keySpace }
        guard let prefix = identifier?.rawValue.split(separator: "/").first.map(String.init) else { return nil }
        return Self.identifierPrefixes.first { $0.prefix == prefix }?.keySpace ?? AVMetadataKeySpace(rawValue: prefix)
    }

    /// The key spaces and the prefixes that name them in identifiers (`common/title`, `mdta/...`).
    static let identifierPrefixes: [(keySpace: AVMetadataKeySpace, prefix: String)] = [
        (.common, "common"), (.quickTimeMetadata, "mdta"), (.quickTimeUserData, "udta"), (.iTunes, "itsk"), (.id3, "id3"),
    ]

    /// The key this item is written under in a movie's QuickTime metadata.
    var movieKey: String? {
        guard let key = keyString else { return nil }
        switch (resolvedKeySpace, key.replacingOccurrences(of: "©", with: "@")) {
        case (.common?, "title"), (.quickTimeUserData?, "@nam"): return "com.apple.quicktime.title"
        case (.common?, "location"), (.quickTimeUserData?, "@xyz"): return "com.apple.quicktime.location.ISO6709"
        case (.common?, "creationDate"), (.quickTimeUserData?, "@day"): return "com.apple.quicktime.creationdate"
        case (.common?, "description"), (.quickTimeUserData?, "@des"): return "com.apple.quicktime.description"
        case (.common?, "software"), (.quickTimeUserData?, "@swr"): return "com.apple.quicktime.software"
        case (.common?, "author"), (.common?, "creator"), (.quickTimeUserData?, "@aut"): return "com.apple.quicktime.author"
        case (.common?, "make"): return "com.apple.quicktime.make"
        case (.common?, "model"): return "com.apple.quicktime.model"
        case (.common?, let other): return "com.apple.quicktime.\(other)"
        case (_, _): return key
        }
    }

    /// The entries a movie's container gets for a set of items: QuickTime metadata keys, and the title and creation time fields.
    static func movieMetadata(_ items: [AVMetadataItem]) -> [(String, String)] {
        var entries: [(String, String)] = []
        for item in items {
            guard let key = item.movieKey, let value = item.stringValue else { continue }
            entries.append((key, value))
            if key == "com.apple.quicktime.title" { entries.append(("title", value)) }
            if key == "com.apple.quicktime.creationdate", let date = item.dateValue {
                entries.append(("creation_time", ISO8601Timestamp.string(from: date)))
            }
        }
        return entries
    }

    /// A description such as `<AVMetadataItem: comn/location = +48.8584+002.2945/>`.
    open override var description: String { "<AVMetadataItem: \(resolvedKeySpace?.rawValue ?? "?")/\(keyString ?? "?") = \(stringValue ?? "?")>" }
}

/// A metadata item whose key, key space, identifier and value can be set.
open class AVMutableMetadataItem: AVMetadataItem, @unchecked Sendable {
    /// Creates an empty item.
    public override init() { super.init() }

    /// The item's key space.
    open override var keySpace: AVMetadataKeySpace? {
        get { super.keySpace }
        set { super.keySpace = newValue }
    }
    /// The item's key, usually a string.
    open override var key: (any NSCopying & NSObjectProtocol)? {
        get { super.key }
        set { super.key = newValue }
    }
    /// The item's identifier.
    open override var identifier: AVMetadataIdentifier? {
        get { super.identifier }
        set { super.identifier = newValue }
    }
    /// The item's value: a string, number, date or data.
    open override var value: (any NSCopying & NSObjectProtocol)? {
        get { super.value }
        set { super.value = newValue }
    }
    /// The language of the value.
    open override var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { super.extendedLanguageTag = newValue }
    }
    /// The timestamp of the item, for timed metadata.
    open override var time: CMTime {
        get { super.time }
        set { super.time = newValue }
    }
    /// How long the item applies, for timed metadata.
    open override var duration: CMTime {
        get { super.duration }
        set { super.duration = newValue }
    }
    /// The type of the value's data.
    open override var dataType: String? {
        get { super.dataType }
        set { super.dataType = newValue }
    }
    /// Attributes beside the value.
    open override var extraAttributes: [AVMetadataExtraAttributeKey: Any]? {
        get { super.extraAttributes }
        set { super.extraAttributes = newValue }
    }
}
