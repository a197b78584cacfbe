import Foundation

/// Constants that define the type of a segment.
public enum AVAssetSegmentType: Int, Sendable {
    /// A segment that holds initialization information (the file type and the movie's tracks).
    case initialization = 1
    /// A segment that holds media data and stands alone after the initialization segment.
    case separable = 2
}

/// An object that provides information about segment data.
open class AVAssetSegmentReport: NSObject, @unchecked Sendable {
    /// The type of segment data.
    public let segmentType: AVAssetSegmentType
    /// The reports for the segment's track data.
    public let trackReports: [AVAssetSegmentTrackReport]

    init(segmentType: AVAssetSegmentType, trackReports: [AVAssetSegmentTrackReport]) {
        self.segmentType = segmentType
        self.trackReports = trackReports
        super.init()
    }
}

/// An object that provides information on a track in segment data.
open class AVAssetSegmentTrackReport: NSObject, @unchecked Sendable {
    /// A persistent unique identifier for a track.
    public let trackID: CMPersistentTrackID
    /// The type of media a track contains.
    public let mediaType: AVMediaType
    /// The earliest presentation timestamp (PTS) for this track.
    public let earliestPresentationTimeStamp: CMTime
    /// The duration of a track.
    public let duration: CMTime
    /// Information about the first video sample in a track; nil for other tracks.
    public let firstVideoSampleInformation: AVAssetSegmentReportSampleInformation?

    init(
        trackID: CMPersistentTrackID, mediaType: AVMediaType, earliestPresentationTimeStamp: CMTime, duration: CMTime,
        firstVideoSampleInformation: AVAssetSegmentReportSampleInformation?
    ) {
        self.trackID = trackID
        self.mediaType = mediaType
        self.earliestPresentationTimeStamp = earliestPresentationTimeStamp
        self.duration = duration
        self.firstVideoSampleInformation = firstVideoSampleInformation
        super.init()
    }
}

/// An object that provides information about sample data in a track.
open class AVAssetSegmentReportSampleInformation: NSObject, @unchecked Sendable {
    /// The presentation timestamp (PTS) of a sample.
    public let presentationTimeStamp: CMTime
    /// The offset of a sample in the segment.
    public let offset: Int
    /// The length of the sample data.
    public let length: Int
    /// A Boolean value that indicates whether the sample is a key frame.
    public let isSyncSample: Bool

    init(presentationTimeStamp: CMTime, offset: Int, length: Int, isSyncSample: Bool) {
        self.presentationTimeStamp = presentationTimeStamp
        self.offset = offset
        self.length = length
        self.isSyncSample = isSyncSample
        super.init()
    }
}
