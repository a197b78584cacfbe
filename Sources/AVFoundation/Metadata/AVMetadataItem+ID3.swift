import CoreMedia
import Foundation
import MovieEngine

extension AVMetadataKey {
    /// The ID3 key of a title (TIT2).
    public static let id3MetadataKeyTitleDescription = AVMetadataKey(rawValue: "TIT2")
    /// The ID3 key of the lead performer (TPE1).
    public static let id3MetadataKeyLeadPerformer = AVMetadataKey(rawValue: "TPE1")
    /// The ID3 key of an album's title (TALB).
    public static let id3MetadataKeyAlbumTitle = AVMetadataKey(rawValue: "TALB")
    /// The ID3 key of a user-defined text (TXXX).
    public static let id3MetadataKeyUserText = AVMetadataKey(rawValue: "TXXX")
    /// The ID3 key of private data (PRIV).
    public static let id3MetadataKeyPrivate = AVMetadataKey(rawValue: "PRIV")
    /// The ID3 key of comments (COMM).
    public static let id3MetadataKeyComments = AVMetadataKey(rawValue: "COMM")
    /// The ID3 key of a user-defined URL (WXXX).
    public static let id3MetadataKeyUserURL = AVMetadataKey(rawValue: "WXXX")
    /// The ID3 key of an attached picture (APIC).
    public static let id3MetadataKeyAttachedPicture = AVMetadataKey(rawValue: "APIC")
    /// The ID3 key of a general encapsulated object (GEOB).
    public static let id3MetadataKeyGeneralEncapsulatedObject = AVMetadataKey(rawValue: "GEOB")
}

extension AVMetadataIdentifier {
    /// An ID3 title (TIT2).
    public static let id3MetadataTitleDescription = AVMetadataIdentifier(rawValue: "id3/TIT2")
    /// An ID3 lead performer (TPE1).
    public static let id3MetadataLeadPerformer = AVMetadataIdentifier(rawValue: "id3/TPE1")
    /// An ID3 album title (TALB).
    public static let id3MetadataAlbumTitle = AVMetadataIdentifier(rawValue: "id3/TALB")
    /// An ID3 user-defined text (TXXX).
    public static let id3MetadataUserText = AVMetadataIdentifier(rawValue: "id3/TXXX")
    /// ID3 private data (PRIV).
    public static let id3MetadataPrivate = AVMetadataIdentifier(rawValue: "id3/PRIV")
    /// ID3 comments (COMM).
    public static let id3MetadataComments = AVMetadataIdentifier(rawValue: "id3/COMM")
    /// An ID3 user-defined URL (WXXX).
    public static let id3MetadataUserURL = AVMetadataIdentifier(rawValue: "id3/WXXX")
    /// An ID3 attached picture (APIC).
    public static let id3MetadataAttachedPicture = AVMetadataIdentifier(rawValue: "id3/APIC")
    /// An ID3 general encapsulated object (GEOB).
    public static let id3MetadataGeneralEncapsulatedObject = AVMetadataIdentifier(rawValue: "id3/GEOB")
}

extension AVMetadataItem {
    /// The item an ID3 frame makes at a time: text frames give strings, PRIV, APIC and GEOB frames
    /// their bytes; a PRIV frame's owner, an APIC or GEOB frame's description and a TXXX, WXXX or
    /// COMM frame's description are the `.info` attribute.
    static func id3(_ frame: ID3Frame, time: CMTime, duration: CMTime) -> AVMetadataItem {
        let item = AVMetadataItem()
        item.keySpace = .id3
        item.key = frame.identifier as NSString
        item.identifier = AVMetadataIdentifier(rawValue: "id3/" + frame.identifier)
        item.time = time
        item.duration = duration
        var attributes: [AVMetadataExtraAttributeKey: Any] = [:]
        if !frame.description.isEmpty { attributes[.info] = frame.description }
        if let data = frame.data {
            // A frame of bytes: PRIV's owner, or APIC's and GEOB's own description when they give one.
            item.value = data as NSData
            item.dataType = kCMMetadataBaseDataType_RawData as String
            if let text = frame.text, !text.isEmpty { attributes[.info] = text }
        } else {
            let text = frame.text ?? ""
            item.value = text as NSString
            item.dataType = kCMMetadataBaseDataType_UTF8 as String
            if frame.identifier.hasPrefix("W") { attributes[.valueURI] = text }
        }
        item.extraAttributes = attributes.isEmpty ? nil : attributes
        return item
    }
}
