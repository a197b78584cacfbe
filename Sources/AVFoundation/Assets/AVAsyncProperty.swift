import CoreGraphics
import CoreMedia
import Foundation

/// A type-erased asynchronous property of an asset or track.
public class AVAnyAsyncProperty: @unchecked Sendable {
    /// The key the property is loaded under.
    let key: String

    init(key: String) { self.key = key }
}

/// An asynchronous property of an asset or track, known by the type it belongs to.
public class AVPartialAsyncProperty<Root>: AVAnyAsyncProperty, @unchecked Sendable {}

/// A property of an asset or track that loads asynchronously, such as `.duration` or `.tracks`.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable, CustomStringConvertible {
    private let getter: (Root) throws -> Value

    init(key: String, getter: @escaping (Root) throws -> Value) {
        self.getter = getter
        super.init(key: key)
    }

    /// The property's value on a root whose values are loaded.
    func value(of root: Root) throws -> Value { try getter(root) }

    /// The property's key.
    public var description: String { key }

    /// Loaded status values for asynchronous properties.
    @frozen public enum Status {
        /// The system hasn't loaded a property value.
        case notYetLoaded
        /// The system is loading the property.
        case loading
        /// A property value is ready to use.
        case loaded(Value)
        /// A property value fails to load.
        case failed(NSError)
    }
}

extension AVAsyncProperty.Status: Sendable where Value: Sendable {}

// MARK: - An asset's properties

extension AVAsyncProperty where Root: AVAsset, Value == CMTime {
    /// The asset's duration.
    public static var duration: AVAsyncProperty<Root, CMTime> { .init(key: "duration") { try $0.loadedContents().duration } }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVAssetTrack] {
    /// The asset's tracks.
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { .init(key: "tracks") { try $0.loadedContents().tracks } }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVMetadataItem] {
    /// The asset's metadata in every key space.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> { .init(key: "metadata") { try $0.loadedContents().metadata } }
    /// The asset's metadata in the common key space.
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        .init(key: "commonMetadata") { try $0.loadedContents().commonMetadata }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == Bool {
    /// Whether the asset can be played.
    public static var isPlayable: AVAsyncProperty<Root, Bool> { .init(key: "playable") { try $0.loadedContents().isPlayable } }
    /// Whether the asset's media data can be read by an asset reader.
    public static var isReadable: AVAsyncProperty<Root, Bool> {
        .init(key: "readable") {
            _ = try $0.loadedContents(); return true
        }
    }
    /// Whether the asset can be exported.
    public static var isExportable: AVAsyncProperty<Root, Bool> {
        .init(key: "exportable") {
            _ = try $0.loadedContents(); return true
        }
    }
    /// Whether the asset can be inserted into a composition.
    public static var isComposable: AVAsyncProperty<Root, Bool> {
        .init(key: "composable") {
            _ = try $0.loadedContents(); return true
        }
    }
    /// Whether the asset's duration and timing are precise.
    public static var providesPreciseDurationAndTiming: AVAsyncProperty<Root, Bool> {
        .init(key: "providesPreciseDurationAndTiming") {
            _ = try $0.loadedContents(); return true
        }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == Float {
    /// The rate at which to play the asset: 1.
    public static var preferredRate: AVAsyncProperty<Root, Float> {
        .init(key: "preferredRate") {
            _ = try $0.loadedContents(); return 1
        }
    }
    /// The volume at which to play the asset: 1.
    public static var preferredVolume: AVAsyncProperty<Root, Float> {
        .init(key: "preferredVolume") {
            _ = try $0.loadedContents(); return 1
        }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == CGAffineTransform {
    /// The transform to apply to the asset's visual content when it is displayed: the identity.
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        .init(key: "preferredTransform") {
            _ = try $0.loadedContents(); return .identity
        }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == AVMetadataItem? {
    /// The date the asset was created, from its metadata.
    public static var creationDate: AVAsyncProperty<Root, AVMetadataItem?> {
        .init(key: "creationDate") { try $0.loadedContents().creationDate }
    }
}

// MARK: - A track's properties

extension AVAsyncProperty where Root: AVAssetTrack, Value == CGSize {
    /// The natural dimensions of the track's pictures.
    public static var naturalSize: AVAsyncProperty<Root, CGSize> { .init(key: "naturalSize") { $0.facts.naturalSize } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Float {
    /// The frame rate of the track, in frames per second.
    public static var nominalFrameRate: AVAsyncProperty<Root, Float> { .init(key: "nominalFrameRate") { $0.facts.nominalFrameRate } }
    /// The track's estimated data rate, in bits per second.
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> { .init(key: "estimatedDataRate") { $0.facts.estimatedDataRate } }
    /// The track's preferred volume: 1 for sound, 0 for pictures.
    public static var preferredVolume: AVAsyncProperty<Root, Float> { .init(key: "preferredVolume") { $0.preferredVolume } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CMTime {
    /// The shortest time one sample of the track lasts.
    public static var minFrameDuration: AVAsyncProperty<Root, CMTime> { .init(key: "minFrameDuration") { $0.facts.minFrameDuration } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CMTimeRange {
    /// The time range of the track within the asset.
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> { .init(key: "timeRange") { $0.facts.timeRange } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CMTimeScale {
    /// The track's natural time scale.
    public static var naturalTimeScale: AVAsyncProperty<Root, CMTimeScale> { .init(key: "naturalTimeScale") { $0.facts.naturalTimeScale } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CGAffineTransform {
    /// The transform to apply to the track's pictures when they are displayed.
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        .init(key: "preferredTransform") { $0.facts.preferredTransform }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == [CMFormatDescription] {
    /// The formats of the track's media samples.
    public static var formatDescriptions: AVAsyncProperty<Root, [CMFormatDescription]> {
        .init(key: "formatDescriptions") { [$0.facts.formatDescription] }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Bool {
    /// Whether the track can be played.
    public static var isPlayable: AVAsyncProperty<Root, Bool> { .init(key: "playable") { $0.facts.isDecodable } }
    /// Whether the track's samples can be decoded here.
    public static var isDecodable: AVAsyncProperty<Root, Bool> { .init(key: "decodable") { $0.facts.isDecodable } }
    /// Whether the track is enabled in its asset.
    public static var isEnabled: AVAsyncProperty<Root, Bool> { .init(key: "enabled") { $0.facts.isEnabled } }
    /// Whether the track's samples are in the asset's own file.
    public static var isSelfContained: AVAsyncProperty<Root, Bool> { .init(key: "selfContained") { _ in true } }
    /// Whether the track's samples are presented in another order than they are decoded.
    public static var requiresFrameReordering: AVAsyncProperty<Root, Bool> {
        .init(key: "requiresFrameReordering") { $0.facts.requiresFrameReordering }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Int64 {
    /// The total number of bytes of the track's samples.
    public static var totalSampleDataLength: AVAsyncProperty<Root, Int64> {
        .init(key: "totalSampleDataLength") { $0.facts.totalSampleDataLength }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == String? {
    /// The track's language, as an ISO 639-2/T code.
    public static var languageCode: AVAsyncProperty<Root, String?> { .init(key: "languageCode") { $0.facts.languageCode } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == [AVMetadataItem] {
    /// The track's metadata.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> { .init(key: "metadata") { _ in [] } }
    /// The track's metadata in the common key space.
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> { .init(key: "commonMetadata") { _ in [] } }
}
