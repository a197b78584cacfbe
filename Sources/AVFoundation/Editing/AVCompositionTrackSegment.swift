import CoreMedia
import Foundation

/// A segment of an asset track: a source time range mapped onto the track's timeline.
open class AVAssetTrackSegment: NSObject, @unchecked Sendable {
    /// Where the segment's media comes from and where it lies in the track.
    public let timeMapping: CMTimeMapping
    /// Whether the segment shows nothing: an empty edit.
    open var isEmpty: Bool { !timeMapping.source.start.isValid }

    init(timeMapping: CMTimeMapping) {
        self.timeMapping = timeMapping
        super.init()
    }
}

/// A segment of a composition track: part of another asset's track, placed (and perhaps scaled) in the composition.
open class AVCompositionTrackSegment: AVAssetTrackSegment, @unchecked Sendable {
    /// The file the segment's media comes from; nil for an empty segment.
    public let sourceURL: URL?
    /// The identifier of the track in that file.
    public let sourceTrackID: CMPersistentTrackID
    /// The source track itself, kept for its format, and its asset (a track holds its asset weakly).
    let sourceTrack: AVAssetTrack?
    let sourceAsset: AVAsset?

    /// Creates a segment of a file's track placed at a target time range (scaled when the ranges' durations differ).
    public init(url URL: URL, trackID: CMPersistentTrackID, sourceTimeRange: CMTimeRange, targetTimeRange: CMTimeRange) {
        sourceURL = URL
        sourceTrackID = trackID
        let asset = AVURLAsset(url: URL)
        sourceAsset = asset
        sourceTrack = asset.track(withTrackID: trackID)
        super.init(timeMapping: CMTimeMapping(source: sourceTimeRange, target: targetTimeRange))
    }

    /// Creates an empty segment that shows nothing for a time range.
    public init(timeRange: CMTimeRange) {
        sourceURL = nil
        sourceTrackID = kCMPersistentTrackID_Invalid
        sourceTrack = nil
        sourceAsset = nil
        super.init(timeMapping: CMTimeMapping(source: .invalid, target: timeRange))
    }

    init(track: AVAssetTrack?, asset: AVAsset?, mapping: CMTimeMapping) {
        sourceTrack = track
        sourceAsset = asset
        sourceURL = asset?.sourceURL
        sourceTrackID = track?.trackID ?? kCMPersistentTrackID_Invalid
        super.init(timeMapping: mapping)
    }

    /// The same source placed at another target range.
    func placed(at target: CMTimeRange) -> AVCompositionTrackSegment {
        AVCompositionTrackSegment(track: sourceTrack, asset: sourceAsset, mapping: CMTimeMapping(source: timeMapping.source, target: target))
    }

    /// The part of the segment that lies in `target`, which must lie within the segment's own target range.
    func part(_ target: CMTimeRange) -> AVCompositionTrackSegment {
        guard !isEmpty else { return AVCompositionTrackSegment(track: nil, asset: nil, mapping: CMTimeMapping(source: .invalid, target: target)) }
        let mapping = timeMapping
        let start = CMTimeMapTimeFromRangeToRange(target.start, fromRange: mapping.target, toRange: mapping.source)
        let end = CMTimeMapTimeFromRangeToRange(target.end, fromRange: mapping.target, toRange: mapping.source)
        return AVCompositionTrackSegment(
            track: sourceTrack, asset: sourceAsset, mapping: CMTimeMapping(source: CMTimeRange(start: start, end: end), target: target))
    }

    /// Whether the segment plays its source at another speed.
    var isScaled: Bool { !isEmpty && timeMapping.source.duration != timeMapping.target.duration }
}
