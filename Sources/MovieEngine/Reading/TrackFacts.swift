import CoreGraphics
import CoreMedia

/// What a container's track carries.
package enum TrackKind: Sendable {
    /// Pictures.
    case video
    /// Sound.
    case audio
    /// Timed metadata, such as the ID3 tags of an MPEG-TS stream.
    case metadata
}

/// What an asset's track is, as its container describes it.
package struct TrackFacts: @unchecked Sendable {
    package var streamIndex: Int
    package var trackID: CMPersistentTrackID
    package var kind: TrackKind
    package var codecName: String
    package var formatDescription: CMFormatDescription
    package var naturalSize: CGSize
    package var preferredTransform: CGAffineTransform
    package var nominalFrameRate: Float
    package var minFrameDuration: CMTime
    package var timeRange: CMTimeRange
    package var naturalTimeScale: CMTimeScale
    package var estimatedDataRate: Float
    package var totalSampleDataLength: Int64
    package var isEnabled: Bool
    package var isDecodable: Bool
    package var requiresFrameReordering: Bool
    package var languageCode: String?
    package var sampleRate: Int
    package var channels: Int
    /// The stream's time base: its times count units of numerator/denominator seconds.
    package var timeBase: (numerator: Int32, denominator: Int32) = (1, 600)

    /// Creates facts from every value.
    package init(
        streamIndex: Int, trackID: CMPersistentTrackID, kind: TrackKind, codecName: String, formatDescription: CMFormatDescription,
        naturalSize: CGSize, preferredTransform: CGAffineTransform, nominalFrameRate: Float, minFrameDuration: CMTime, timeRange: CMTimeRange,
        naturalTimeScale: CMTimeScale, estimatedDataRate: Float, totalSampleDataLength: Int64, isEnabled: Bool, isDecodable: Bool,
        requiresFrameReordering: Bool, languageCode: String?, sampleRate: Int, channels: Int, timeBase: (numerator: Int32, denominator: Int32) = (1, 600)
    ) {
        self.streamIndex = streamIndex
        self.trackID = trackID
        self.kind = kind
        self.codecName = codecName
        self.formatDescription = formatDescription
        self.naturalSize = naturalSize
        self.preferredTransform = preferredTransform
        self.nominalFrameRate = nominalFrameRate
        self.minFrameDuration = minFrameDuration
        self.timeRange = timeRange
        self.naturalTimeScale = naturalTimeScale
        self.estimatedDataRate = estimatedDataRate
        self.totalSampleDataLength = totalSampleDataLength
        self.isEnabled = isEnabled
        self.isDecodable = isDecodable
        self.requiresFrameReordering = requiresFrameReordering
        self.languageCode = languageCode
        self.sampleRate = sampleRate
        self.channels = channels
        self.timeBase = timeBase
    }
}
