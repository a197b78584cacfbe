import CoreGraphics
import CoreMedia
import Foundation
import MovieEngine

/// An object that models a track of media that an asset contains.
///
/// A track's properties are learnt with its asset's, so they are loaded once the asset's tracks
/// are. Immutable and thread-safe.
open class AVAssetTrack: NSObject, NSCopying, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    /// What the container says of the track.
    private let containerFacts: TrackFacts
    /// What the track is: the container's facts, or, for a composition track, its segments'.
    var facts: TrackFacts { containerFacts }

    /// The asset that contains the track.
    public private(set) weak var asset: AVAsset?
    /// The kind of media the track carries.
    private let kind: AVMediaType

    /// Creates a track of a kind the container's facts say (a composition's tracks say their own).
    init(asset: AVAsset, facts: TrackFacts, mediaType: AVMediaType? = nil) {
        self.asset = asset
        self.containerFacts = facts
        self.kind = mediaType ?? Self.mediaType(of: facts.kind)
        super.init()
    }

    /// The media type of a kind of container track.
    static func mediaType(of kind: TrackKind) -> AVMediaType {
        switch kind {
        case .video: .video
        case .audio: .audio
        case .metadata: .metadata
        }
    }

    /// Returns the track itself: tracks are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Returns `.loaded`: a track's values load with its asset's tracks.
    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus { .loaded }

    /// Calls the handler: a track's values are loaded with it.
    open func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        if let handler { DispatchQueue.global().async(execute: handler) }
    }

    /// The persistent identifier of the track within its asset.
    open var trackID: CMPersistentTrackID { facts.trackID }
    /// The kind of media the track carries.
    open var mediaType: AVMediaType { kind }
    /// The formats of the track's media samples, as `CMFormatDescription`s.
    open var formatDescriptions: [Any] { [facts.formatDescription] }
    /// Whether the track can be played.
    open var isPlayable: Bool { facts.isDecodable }
    /// Whether the track's samples can be decoded here.
    open var isDecodable: Bool { facts.isDecodable }
    /// Whether the track is enabled in its asset.
    open var isEnabled: Bool { facts.isEnabled }
    /// Whether the track's samples are in the asset's own file.
    open var isSelfContained: Bool { true }
    /// The total number of bytes of the track's samples.
    open var totalSampleDataLength: Int64 { facts.totalSampleDataLength }
    /// The time range of the track within the asset.
    open var timeRange: CMTimeRange { facts.timeRange }
    /// The track's natural time scale.
    open var naturalTimeScale: CMTimeScale { facts.naturalTimeScale }
    /// The track's estimated data rate, in bits per second.
    open var estimatedDataRate: Float { facts.estimatedDataRate }
    /// The track's language, as an ISO 639-2/T code.
    open var languageCode: String? { facts.languageCode }
    /// The track's language, as an IETF BCP 47 tag.
    open var extendedLanguageTag: String? { nil }
    /// The natural dimensions of the track's pictures, before its preferred transform.
    open var naturalSize: CGSize { facts.naturalSize }
    /// The transform to apply to the track's pictures when they are displayed: the rotation and
    /// mirroring the movie was recorded with.
    open var preferredTransform: CGAffineTransform { facts.preferredTransform }
    /// The track's preferred volume: 1 for sound, 0 for pictures.
    open var preferredVolume: Float { kind == .audio ? 1 : 0 }
    /// The frame rate of the track, in frames per second.
    open var nominalFrameRate: Float { facts.nominalFrameRate }
    /// The shortest time one sample of the track lasts.
    open var minFrameDuration: CMTime { facts.minFrameDuration }
    /// Whether the track's samples are presented in another order than they are decoded.
    open var requiresFrameReordering: Bool { facts.requiresFrameReordering }
    /// The track's metadata.
    open var metadata: [AVMetadataItem] { [] }
    /// The track's metadata in the common key space.
    open var commonMetadata: [AVMetadataItem] { [] }

    /// Whether the track's media has a characteristic, such as `.visual` or `.audible`.
    open func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        switch mediaCharacteristic {
        case .visual: return kind == .video
        case .audible: return kind == .audio
        default: return false
        }
    }

    /// A description such as `<AVAssetTrack: 1, vide>`.
    open override var description: String { "<AVAssetTrack: \(trackID), \(mediaType.rawValue), \(facts.codecName)>" }
}

/// A characteristic of media, such as being visual or audible.
public struct AVMediaCharacteristic: RawRepresentable, Hashable, Sendable {
    /// The characteristic's identifier.
    public let rawValue: String
    /// Creates a characteristic from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Media that is seen.
    public static let visual = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicVisual")
    /// Media that is heard.
    public static let audible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicAudible")
    /// Media with legible text.
    public static let legible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicLegible")
}

extension AVMetadataItem {
    /// Items for a container's metadata entries: QuickTime metadata keys in their own key space,
    /// FFmpeg's plain keys (`title`, `creation_time`, ...) as QuickTime user data.
    static func items(fromContainer entries: [(String, String)]) -> [AVMetadataItem] {
        var items: [AVMetadataItem] = []
        for (key, value) in entries {
            // The container's own bookkeeping, not the movie's metadata.
            if ["major_brand", "minor_version", "compatible_brands"].contains(key) { continue }
            let item = AVMetadataItem()
            if key.hasPrefix("com.apple.quicktime.") {
                item.keySpace = .quickTimeMetadata
                item.identifier = AVMetadataIdentifier(rawValue: "mdta/\(key)")
            } else {
                item.keySpace = .quickTimeUserData
                item.identifier = AVMetadataIdentifier(rawValue: "udta/\(key)")
            }
            item.key = key as NSString
            item.value = value as NSString
            items.append(item)
        }
        return items
    }

    /// The common key space's items that a movie's metadata gives, one for each common key.
    static func commonItems(of items: [AVMetadataItem]) -> [AVMetadataItem] {
        let mapping: [(String, AVMetadataKey)] = [
            ("com.apple.quicktime.title", .commonKeyTitle), ("title", .commonKeyTitle),
            ("com.apple.quicktime.location.ISO6709", .commonKeyLocation), ("location", .commonKeyLocation),
            ("com.apple.quicktime.creationdate", .commonKeyCreationDate), ("creation_time", .commonKeyCreationDate),
            ("com.apple.quicktime.description", .commonKeyDescription), ("com.apple.quicktime.software", .commonKeySoftware),
            ("encoder", .commonKeySoftware), ("com.apple.quicktime.author", .commonKeyAuthor),
            ("com.apple.quicktime.make", .commonKeyMake), ("com.apple.quicktime.model", .commonKeyModel),
        ]
        var common: [AVMetadataItem] = []
        var taken = Set<String>()
        for (source, commonKey) in mapping where !taken.contains(commonKey.rawValue) {
            guard let item = items.first(where: { $0.keyString == source }), let value = item.value else { continue }
            let made = AVMetadataItem()
            made.keySpace = .common
            made.key = commonKey.rawValue as NSString
            made.identifier = AVMetadataIdentifier(rawValue: "common/\(commonKey.rawValue)")
            made.value = value
            common.append(made)
            taken.insert(commonKey.rawValue)
        }
        return common
    }
}
