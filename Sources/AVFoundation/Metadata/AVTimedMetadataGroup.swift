import CoreMedia
import Foundation
import MovieEngine

/// A collection of metadata items that apply over a time range of a timeline.
///
/// Timed metadata groups come from a player item's metadata output, as playback reaches them,
/// and from a sample buffer of a timed metadata track. On Linux, timed metadata is the ID3 tags
/// MPEG-TS streams (and so HLS segments) carry; each tag is one group, its frames the items.
open class AVTimedMetadataGroup: AVMetadataGroup, NSCopying, NSMutableCopying, @unchecked Sendable {
    private let range: LockedValue<CMTimeRange>
    private let members: LockedValue<[AVMetadataItem]>

    /// Creates a group of items that apply over a time range.
    public init(items: [AVMetadataItem], timeRange: CMTimeRange) {
        range = LockedValue(timeRange)
        members = LockedValue(items)
        super.init(items: items)
    }

    /// Creates a group from a sample buffer of timed metadata (an ID3 tag, `kCMMetadataFormatType_ID3`);
    /// nil when the buffer holds none that can be read.
    public convenience init?(sampleBuffer: CMSampleBuffer) {
        guard let format = sampleBuffer.formatDescription, format.mediaType == .metadata,
            format.mediaSubType.rawValue == kCMMetadataFormatType_ID3, let bytes = try? sampleBuffer.dataBuffer?.dataBytes(),
            let frames = try? TimedID3.frames(inPacket: bytes)
        else { return nil }
        let range = CMTimeRange(start: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.duration)
        self.init(items: frames.map { AVMetadataItem.id3($0, time: range.start, duration: range.duration) }, timeRange: range)
    }

    /// The time range over which the items apply.
    open var timeRange: CMTimeRange { range.withLock { $0 } }
    /// The items of the group.
    open override var items: [AVMetadataItem] { members.withLock { $0 } }

    /// The format of the group's items, as a timed metadata track would hold them; nil when they
    /// have no format such a track holds here (ID3 items are `kCMMetadataFormatType_ID3`).
    open func copyFormatDescription() -> CMMetadataFormatDescription? {
        let items = self.items
        guard !items.isEmpty, items.allSatisfy({ $0.resolvedKeySpace == .id3 }) else { return nil }
        return CMFormatDescription(metadata: kCMMetadataFormatType_ID3)
    }

    /// Returns a group with the same items and time range.
    open func copy(with zone: NSZone? = nil) -> Any { AVTimedMetadataGroup(items: items, timeRange: timeRange) }

    /// Returns a mutable group with the same items and time range.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableTimedMetadataGroup(items: items, timeRange: timeRange) }

    fileprivate func set(items: [AVMetadataItem]) { members.withLock { $0 = items } }
    fileprivate func set(timeRange: CMTimeRange) { range.withLock { $0 = timeRange } }

    /// A description such as `<AVTimedMetadataGroup: 2.000 s + 2.000 s, 3 items>`.
    open override var description: String {
        let range = timeRange
        return String(format: "<%@: %.3f s + %.3f s, %d items>", String(describing: type(of: self)), range.start.seconds, range.duration.seconds, items.count)
    }
}

/// A timed metadata group whose items and time range can be changed.
open class AVMutableTimedMetadataGroup: AVTimedMetadataGroup, @unchecked Sendable {
    /// The time range over which the items apply.
    open override var timeRange: CMTimeRange {
        get { super.timeRange }
        set { set(timeRange: newValue) }
    }
    /// The items of the group.
    open override var items: [AVMetadataItem] {
        get { super.items }
        set { set(items: newValue) }
    }
}
