import CoreMedia
import Foundation

/// An object that reads a timed metadata track's samples as timed metadata groups.
///
/// The track output it adapts reads a track of `.metadata` as it is stored (nil output settings);
/// each sample that holds a tag this system can read (timed ID3, on Linux) becomes a group, and a
/// sample that does not is passed over.
open class AVAssetReaderOutputMetadataAdaptor: NSObject, @unchecked Sendable {
    /// The track output whose samples the adaptor reads.
    public let assetReaderTrackOutput: AVAssetReaderTrackOutput

    /// Creates an adaptor over a track output of a metadata track with nil output settings.
    public init(assetReaderTrackOutput trackOutput: AVAssetReaderTrackOutput) {
        guard trackOutput.track.mediaType == .metadata, trackOutput.outputSettings == nil else {
            ProgrammingError.invalidArgument(
                "-[AVAssetReaderOutputMetadataAdaptor initWithAssetReaderTrackOutput:] the output must read a metadata track with nil output settings")
        }
        assetReaderTrackOutput = trackOutput
        super.init()
    }

    /// The next group of the track, or nil at its end or when the reader stopped.
    open func nextTimedMetadataGroup() -> AVTimedMetadataGroup? {
        while let sample = assetReaderTrackOutput.copyNextSampleBuffer() {
            if let group = AVTimedMetadataGroup(sampleBuffer: sample) { return group }
        }
        return nil
    }
}
