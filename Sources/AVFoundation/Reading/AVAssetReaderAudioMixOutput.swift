import CoreMedia
import Foundation
import MovieEngine

/// An object that reads the sound of several audio tracks mixed into one stream of linear PCM,
/// each track at the volume its `audioMix` parameters give over time.
open class AVAssetReaderAudioMixOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The tracks the output mixes.
    public let audioTracks: [AVAssetTrack]
    /// The linear PCM settings of the mix; nil gives 32-bit float at the first track's rate and channels.
    public let audioSettings: [String: Any]?
    private struct Settings {
        var mix: AVAudioMix?
        var algorithm = AVAudioTimePitchAlgorithm.spectral
    }
    private let settings = LockedValue(Settings())
    /// Guarded by `mixingLock`: the mixing under way.
    private var mixing: AudioMixing?
    private let mixingLock = NSLock()

    /// Creates an output that mixes audio tracks into linear PCM with the settings given.
    public init(audioTracks: [AVAssetTrack], audioSettings: [String: Any]?) {
        guard !audioTracks.isEmpty, audioTracks.allSatisfy({ $0.mediaType == .audio }) else {
            ProgrammingError.invalidArgument(
                "-[AVAssetReaderAudioMixOutput initWithAudioTracks:audioSettings:] the tracks must be audio tracks, and there must be at least one")
        }
        if let audioSettings {
            let format = (audioSettings[AVFormatIDKey] as? NSNumber)?.uint32Value ?? (audioSettings[AVFormatIDKey] as? AudioFormatID)
            guard format == kAudioFormatLinearPCM else {
                ProgrammingError.invalidArgument(
                    "-[AVAssetReaderAudioMixOutput initWithAudioTracks:audioSettings:] sound is mixed to kAudioFormatLinearPCM only")
            }
        }
        self.audioTracks = audioTracks
        self.audioSettings = audioSettings
        super.init()
    }

    /// The volumes of the tracks over time; nil mixes every track at full volume.
    open var audioMix: AVAudioMix? {
        get { settings.withLock { $0.mix } }
        set { settings.withLock { $0.mix = newValue?.copy() as? AVAudioMix } }
    }

    /// How sound in scaled sections of a composition is stretched.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { settings.withLock { $0.algorithm } }
        set { settings.withLock { $0.algorithm = newValue } }
    }

    /// The kind of media the output gives: sound.
    open override var mediaType: AVMediaType { .audio }

    override func belongs(to asset: AVAsset) -> Bool { audioTracks.allSatisfy { $0.asset === asset } }

    override func prepare(demuxer: Demuxer?, timeRange: CMTimeRange) throws {
        let (mix, algorithm) = settings.withLock { ($0.mix, $0.algorithm) }
        let made = try AudioMixing(tracks: audioTracks, settings: audioSettings, mix: mix, algorithm: algorithm, timeRange: timeRange)
        mixingLock.withLock { mixing = made }
    }

    override func nextSampleBuffer() throws -> CMSampleBuffer? {
        mixingLock.lock()
        defer { mixingLock.unlock() }
        return try mixing?.next()
    }

    override func release() {
        mixingLock.withLock { mixing = nil }
    }
}
