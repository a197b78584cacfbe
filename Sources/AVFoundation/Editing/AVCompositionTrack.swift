import CoreGraphics
import CoreMedia
import Foundation
import MovieEngine

/// A track of a composition: segments of other assets' tracks placed on one timeline.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {
    /// The segments, in target order, covering the track's time range without gaps or overlaps.
    let segmentList: LockedValue<[AVCompositionTrackSegment]>
    let properties: LockedValue<(transform: CGAffineTransform, enabled: Bool)>

    init(composition: AVComposition, mediaType: AVMediaType, trackID: CMPersistentTrackID, segments: [AVCompositionTrackSegment] = []) {
        segmentList = LockedValue(segments)
        properties = LockedValue((.identity, true))
        let placeholder = CMFormatDescription(video: 0, width: 0, height: 0)
        super.init(
            asset: composition,
            facts: TrackFacts(
                streamIndex: -1, trackID: trackID, kind: mediaType == .video ? .video : .audio, codecName: "", formatDescription: placeholder,
                naturalSize: .zero,
                preferredTransform: .identity, nominalFrameRate: 0, minFrameDuration: .invalid, timeRange: .zero, naturalTimeScale: 600,
                estimatedDataRate: 0, totalSampleDataLength: 0, isEnabled: true, isDecodable: true, requiresFrameReordering: false,
                languageCode: nil, sampleRate: 0, channels: 0),
            mediaType: mediaType)
    }

    /// The track's segments.
    open var segments: [AVCompositionTrackSegment] { segmentList.withLock { $0 } }

    /// Returns the segment that plays at a time of the track, if any.
    open func segment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? {
        segments.first { $0.timeMapping.target.containsTime(trackTime) }
    }

    /// The first source track's facts, with the composition's timing.
    override var facts: TrackFacts {
        let segments = self.segments
        var facts = super.facts
        if let source = segments.first(where: { !$0.isEmpty })?.sourceTrack?.facts {
            let (kind, trackID) = (facts.kind, facts.trackID)
            facts = source
            facts.kind = kind
            facts.trackID = trackID
            facts.streamIndex = -1
        }
        let end = segments.last?.timeMapping.target.end ?? .zero
        facts.timeRange = CMTimeRange(start: .zero, duration: end)
        let (transform, enabled) = properties.withLock { ($0.transform, $0.enabled) }
        facts.preferredTransform = transform
        facts.isEnabled = enabled
        // A scaled segment changes the rate its frames are shown at: the shortest step is the smallest after scaling.
        if facts.minFrameDuration.isNumeric {
            let shortest = segments.filter { !$0.isEmpty }.map {
                CMTimeMapDurationFromRangeToRange(facts.minFrameDuration, fromRange: $0.timeMapping.source, toRange: $0.timeMapping.target)
            }.filter(\.isNumeric).min()
            if let shortest { facts.minFrameDuration = shortest }
        }
        return facts
    }
}

/// A composition track whose segments can be edited.
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    /// The track's segments; set them to replace the track's edits.
    open override var segments: [AVCompositionTrackSegment] {
        get { super.segments }
        set { segmentList.withLock { $0 = Self.contiguous(newValue) } }
    }

    /// The transform to apply to the track's pictures when they are displayed.
    open override var preferredTransform: CGAffineTransform {
        get { properties.withLock { $0.transform } }
        set { properties.withLock { $0.transform = newValue } }
    }

    /// Whether the track is enabled in its composition.
    open override var isEnabled: Bool {
        get { properties.withLock { $0.enabled } }
        set { properties.withLock { $0.enabled = newValue } }
    }

    /// Inserts a time range of another asset's track at a time of this track; later segments move on.
    open func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {
        guard track.mediaType == mediaType else {
            throw AVError(
                .incompatibleAsset,
                userInfo: [NSLocalizedDescriptionKey: "A \(track.mediaType.rawValue) track cannot be inserted into a \(mediaType.rawValue) composition track."])
        }
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero, startTime.isNumeric, startTime >= .zero
        else {
            throw AVError(
                .invalidCompositionTrackSegmentDuration,
                userInfo: [NSLocalizedDescriptionKey: "The time range to insert must be numeric and last more than zero."])
        }
        let available = track.timeRange
        guard available.containsTimeRange(timeRange) || timeRange.end <= available.end + CMTime(value: 1, timescale: 1000) else {
            throw AVError(
                .invalidCompositionTrackSegmentSourceDuration,
                userInfo: [NSLocalizedDescriptionKey: "The time range to insert runs past the end of the source track."])
        }
        guard let asset = track.asset, asset.sourceURL != nil else {
            throw AVError(.invalidSourceMedia, userInfo: [NSLocalizedDescriptionKey: "Only tracks of file assets can be inserted."])
        }
        let segment = AVCompositionTrackSegment(
            track: track, asset: asset,
            mapping: CMTimeMapping(source: timeRange, target: CMTimeRange(start: startTime, duration: timeRange.duration)))
        segmentList.withLock { Self.insert(segment, into: &$0) }
    }

    /// Inserts a time range in which the track shows nothing; later segments move on.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.duration > .zero else { return }
        segmentList.withLock { Self.insert(AVCompositionTrackSegment(timeRange: timeRange), into: &$0) }
    }

    /// Removes a time range from the track; later segments move back.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.duration > .zero else { return }
        segmentList.withLock { segments in
            var result: [AVCompositionTrackSegment] = []
            for segment in Self.split(Self.split(segments, at: timeRange.start), at: timeRange.end) {
                let target = segment.timeMapping.target
                if target.start >= timeRange.start && target.end <= timeRange.end { continue }
                result.append(
                    target.start >= timeRange.end
                        ? segment.placed(at: CMTimeRange(start: target.start - timeRange.duration, duration: target.duration)) : segment)
            }
            segments = result
        }
    }

    /// Changes the duration of a time range of the track, playing its media faster or slower; later segments move.
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        guard timeRange.isValid, timeRange.duration > .zero, duration.isNumeric, duration > .zero else { return }
        segmentList.withLock { segments in
            var result: [AVCompositionTrackSegment] = []
            let change = duration - timeRange.duration
            for segment in Self.split(Self.split(segments, at: timeRange.start), at: timeRange.end) {
                let target = segment.timeMapping.target
                if target.end <= timeRange.start {
                    result.append(segment)
                } else if target.start >= timeRange.end {
                    result.append(segment.placed(at: CMTimeRange(start: target.start + change, duration: target.duration)))
                } else {
                    let start = CMTimeMapTimeFromRangeToRange(
                        target.start, fromRange: timeRange, toRange: CMTimeRange(start: timeRange.start, duration: duration))
                    let length = CMTimeMapDurationFromRangeToRange(
                        target.duration, fromRange: timeRange, toRange: CMTimeRange(start: timeRange.start, duration: duration))
                    result.append(segment.placed(at: CMTimeRange(start: start, duration: length)))
                }
            }
            segments = Self.contiguous(result)
        }
    }

    // MARK: Editing a segment list

    /// Splits the segment that spans `time` into two at it.
    static func split(_ segments: [AVCompositionTrackSegment], at time: CMTime) -> [AVCompositionTrackSegment] {
        segments.flatMap { segment -> [AVCompositionTrackSegment] in
            let target = segment.timeMapping.target
            guard target.start < time, time < target.end else { return [segment] }
            return [segment.part(CMTimeRange(start: target.start, end: time)), segment.part(CMTimeRange(start: time, end: target.end))]
        }
    }

    /// Inserts a segment at its target start, moving later segments on by its duration (and filling a gap before it).
    static func insert(_ segment: AVCompositionTrackSegment, into segments: inout [AVCompositionTrackSegment]) {
        let at = segment.timeMapping.target.start, length = segment.timeMapping.target.duration
        let end = segments.last?.timeMapping.target.end ?? .zero
        var result: [AVCompositionTrackSegment] = []
        for part in split(segments, at: at) {
            let target = part.timeMapping.target
            result.append(target.start >= at ? part.placed(at: CMTimeRange(start: target.start + length, duration: target.duration)) : part)
        }
        if at > end { result.append(AVCompositionTrackSegment(timeRange: CMTimeRange(start: end, end: at))) }
        result.append(segment)
        segments = contiguous(result.sorted { $0.timeMapping.target.start < $1.timeMapping.target.start })
    }

    /// The segments laid end to end from zero, in order, so that rounding never leaves a gap or an overlap.
    static func contiguous(_ segments: [AVCompositionTrackSegment]) -> [AVCompositionTrackSegment] {
        var time = CMTime.zero
        return segments.filter { $0.timeMapping.target.duration > .zero }.map { segment in
            let target = segment.timeMapping.target
            defer { time = time + target.duration }
            return target.start == time ? segment : segment.placed(at: CMTimeRange(start: time, duration: target.duration))
        }
    }
}
