import CaptureDevices
import Foundation
import MovieEngine

/// An output that records video and audio to a QuickTime or MPEG-4 movie file.
///
/// Video is encoded with H.264 by default (HEVC where the machine has an encoder) and audio
/// with AAC; resolution and bit rate follow the session's preset or the device's active
/// format. While recording, the file is written in fragments every `movieFragmentInterval`,
/// so a process that dies leaves a file that plays up to its last fragment; a recording that
/// ends normally leaves an ordinary movie with its index first.
open class AVCaptureMovieFileOutput: AVCaptureFileOutput, @unchecked Sendable {
    private struct Settings {
        var fragmentInterval = CMTime(value: 10, timescale: 1)
        var metadata: [AVMetadataItem]?
        var videoCodec: AVVideoCodecType = .h264
        var compression = ValidatedSettings.Compression()
    }
    private let settings = LockedValue(Settings())

    /// Creates a movie file output.
    public override init() { super.init() }

    /// How often a fragment is written while recording; `.invalid` writes none until the end. Ten seconds by default.
    open var movieFragmentInterval: CMTime {
        get { settings.withLock { $0.fragmentInterval } }
        set { settings.withLock { $0.fragmentInterval = newValue } }
    }

    /// The movie's metadata; it may be set at any time, even while recording, and lands in the file.
    open var metadata: [AVMetadataItem]? {
        get { settings.withLock { $0.metadata } }
        set { settings.withLock { $0.metadata = newValue } }
    }

    /// The video codecs this machine can record.
    open var availableVideoCodecTypes: [AVVideoCodecType] { ValidatedSettings.availableVideoCodecs }

    /// Why no movie can be recorded here (FFmpeg's libraries could not be loaded), or nil: what
    /// the command line tells when `availableVideoCodecTypes` lacks the codec asked for.
    package static var encodingLibrariesProblem: String? { FFmpegLibraries.problem }

    /// The settings a connection's media is recorded with.
    open func outputSettings(for connection: AVCaptureConnection) -> [String: Any] {
        if connection.mediaType == .audio {
            let audio = EncodingPlan.audio(for: connection)
            return EncodingPlan.aacSettings(sampleRate: Double(audio.sampleRate), channels: audio.channels)
        }
        let (codec, compression) = settings.withLock { ($0.videoCodec, $0.compression) }
        guard let device = connection.sourceDevice else { return [AVVideoCodecKey: codec.rawValue] }
        let size = device.activeFormat.dimensions
        return EncodingPlan.videoSettings(
            codec: codec, width: Int(size.width), height: Int(size.height),
            frameRate: 1 / device.activeVideoMinFrameDuration.seconds, compression: compression)
    }

    /// Sets the codec and compression properties a video connection is recorded with; `nil` restores H.264 with the output's own choices.
    ///
    /// Of the compression properties, the average bit rate, the keyframe interval and
    /// `kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality` (the encoder's fastest
    /// preset, for many cameras on few cores) are honoured; the frame rate is the device's.
    open func setOutputSettings(_ outputSettings: [String: Any]?, for connection: AVCaptureConnection) {
        guard connection.mediaType == .video else { return }
        let value = outputSettings?[AVVideoCodecKey]
        let codec = (value as? AVVideoCodecType) ?? (value as? String).map(AVVideoCodecType.init(rawValue:)) ?? .h264
        ProgrammingError.requireSupported(
            availableVideoCodecTypes.contains(codec),
            "-[AVCaptureMovieFileOutput setOutputSettings:forConnection:] codec \(codec.rawValue) is not in availableVideoCodecTypes")
        var compression = ValidatedSettings.Compression()
        if let properties = outputSettings?[AVVideoCompressionPropertiesKey] {
            let parsed = ValidatedSettings.compression(properties)
            if case .failure(let error) = parsed {
                ProgrammingError.requireSupported(false, "-[AVCaptureMovieFileOutput setOutputSettings:forConnection:] \(error)")
            }
            compression = (try? parsed.get()) ?? compression
        }
        settings.withLock { ($0.videoCodec, $0.compression) = (codec, compression) }
    }

    /// A recording's encoder queues frames for a few frames' time, on top of what other outputs hold.
    override var demand: OutputDemand {
        var demand = super.demand
        demand.heldFrames = MovieWriterThread.realTimeVideoQueue - 4
        return demand
    }

    override func recordingPlan(for url: URL) -> RecordingPlan {
        let current = settings.withLock { $0 }
        return RecordingPlan(
            fileType: AVFileType.forPathExtension(url.pathExtension), videoCodec: current.videoCodec, compression: current.compression,
            fragmentInterval: current.fragmentInterval, metadata: { [weak self] in self?.metadata ?? [] })
    }
}
