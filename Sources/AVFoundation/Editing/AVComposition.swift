import CoreGraphics
import CoreMedia
import Foundation

/// An asset that combines media from other assets: tracks of segments placed, and perhaps
/// scaled, on one timeline. It plays, reads and exports like any asset.
open class AVComposition: AVAsset, @unchecked Sendable {
    let compositionTracks = LockedValue<[AVCompositionTrack]>([])
    let size = LockedValue(CGSize.zero)

    init() { super.init(sourceURL: nil) }

    /// A composition's contents are its tracks as they are now.
    override func loadedContents() throws -> AssetContents {
        let tracks = compositionTracks.withLock { $0 }
        let duration = tracks.map { $0.timeRange.end }.filter(\.isNumeric).max() ?? .zero
        return AssetContents(duration: duration, tracks: tracks, metadata: [], commonMetadata: [], creationDate: nil, isPlayable: !tracks.isEmpty)
    }

    /// Loaded at once: a composition's values are in memory.
    open override func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus { .loaded }

    /// The size the composition's pictures are shown at; the first video track's when not set.
    open var naturalSize: CGSize {
        let set = size.withLock { $0 }
        if set != .zero { return set }
        return tracks(withMediaType: .video).first?.naturalSize ?? .zero
    }

    /// The composition's track with an identifier.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVCompositionTrack? {
        compositionTracks.withLock { $0 }.first { $0.trackID == trackID }
    }
}

extension _AssetTrackList where Self: AVComposition {
    /// The composition's tracks.
    public var tracks: [AVCompositionTrack] { compositionTracks.withLock { $0 } }
    /// The composition's tracks of a media type.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVCompositionTrack] { tracks.filter { $0.mediaType == mediaType } }
}

/// A composition that can be edited: tracks added and removed, time ranges of other assets
/// inserted, removed and scaled (the AV Foundation Programming Guide, "Editing" and "High Frame Rate Video Capture").
open class AVMutableComposition: AVComposition, @unchecked Sendable {
    /// Creates an empty composition.
    public override init() { super.init() }

    /// Creates an empty composition whose inserted URL assets are made with options.
    public convenience init(urlAssetInitializationOptions URLAssetInitializationOptions: [String: Any]? = nil) { self.init() }

    /// The size the composition's pictures are shown at.
    open override var naturalSize: CGSize {
        get { super.naturalSize }
        set { size.withLock { $0 = newValue } }
    }

    /// Adds an empty track of a media type; nil when the preferred identifier is taken.
    open func addMutableTrack(withMediaType mediaType: AVMediaType, preferredTrackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        compositionTracks.withLock { tracks in
            let taken = Set(tracks.map(\.trackID))
            var trackID = preferredTrackID
            if trackID == kCMPersistentTrackID_Invalid {
                trackID = (taken.max() ?? 0) + 1
            } else if taken.contains(trackID) {
                return nil
            }
            let track = AVMutableCompositionTrack(composition: self, mediaType: mediaType, trackID: trackID)
            tracks.append(track)
            return track
        }
    }

    /// The composition's tracks, each of which can be edited.
    open var tracks: [AVMutableCompositionTrack] { mutableTracks }

    /// The composition's tracks of a media type, each of which can be edited.
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVMutableCompositionTrack] { mutableTracks.filter { $0.mediaType == mediaType } }

    /// The composition's track with an identifier, which can be edited.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        mutableTracks.first { $0.trackID == trackID }
    }

    /// Removes a track.
    open func removeTrack(_ track: AVCompositionTrack) {
        compositionTracks.withLock { $0.removeAll { $0 === track } }
    }

    /// A track of the composition that a track of another asset can be inserted into: one of the same media type.
    open func mutableTrack(compatibleWith track: AVAssetTrack) -> AVMutableCompositionTrack? {
        compositionTracks.withLock { $0.compactMap { $0 as? AVMutableCompositionTrack }.first { $0.mediaType == track.mediaType } }
    }

    /// Inserts a time range of every track of an asset at a time, into tracks of the same media types (added when needed).
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime) throws {
        let sources = try asset.loadedContents().tracks
        var used: Set<ObjectIdentifier> = []
        // Timed metadata tracks are not composed here: their media are only read by a player's metadata output.
        for source in sources where source.mediaType != .metadata {
            let target =
                compositionTracks.withLock { tracks in
                    tracks.compactMap { $0 as? AVMutableCompositionTrack }.first { $0.mediaType == source.mediaType && !used.contains(ObjectIdentifier($0)) }
                } ?? addMutableTrack(withMediaType: source.mediaType, preferredTrackID: kCMPersistentTrackID_Invalid)
            guard let target else { continue }
            used.insert(ObjectIdentifier(target))
            let range = timeRange.intersection(source.timeRange)
            guard range.duration > .zero else { continue }
            try target.insertTimeRange(range, of: source, at: startTime + (range.start - timeRange.start))
            if target.preferredTransform == .identity { target.preferredTransform = source.preferredTransform }
        }
    }

    /// Inserts a time range in which every track shows nothing.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.insertEmptyTimeRange(timeRange) }
    }

    /// Removes a time range from every track.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.removeTimeRange(timeRange) }
    }

    /// Changes the duration of a time range of every track, playing its media faster or slower.
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        for track in mutableTracks { track.scaleTimeRange(timeRange, toDuration: duration) }
    }

    private var mutableTracks: [AVMutableCompositionTrack] {
        compositionTracks.withLock { $0.compactMap { $0 as? AVMutableCompositionTrack } }
    }
}
