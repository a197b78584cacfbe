import Foundation

/// A named set of output settings an assistant can recommend.
public struct AVOutputSettingsPreset: RawRepresentable, Hashable, Sendable {
    /// The preset's identifier.
    public let rawValue: String
    /// Creates a preset from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// H.264 up to 640x480.
    public static let preset640x480 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset640x480")
    /// H.264 up to 960x540.
    public static let preset960x540 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset960x540")
    /// H.264 up to 1280x720.
    public static let preset1280x720 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset1280x720")
    /// H.264 up to 1920x1080.
    public static let preset1920x1080 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset1920x1080")
    /// H.264 up to 3840x2160.
    public static let preset3840x2160 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset3840x2160")
    /// HEVC up to 1920x1080.
    public static let hevc1920x1080 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC1920x1080")
    /// HEVC up to 3840x2160.
    public static let hevc3840x2160 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC3840x2160")

    var box: (Int, Int, AVVideoCodecType) {
        switch self {
        case .preset640x480: return (640, 480, .h264)
        case .preset960x540: return (960, 540, .h264)
        case .preset1280x720: return (1280, 720, .h264)
        case .preset3840x2160: return (3840, 2160, .h264)
        case .hevc1920x1080: return (1920, 1080, .hevc)
        case .hevc3840x2160: return (3840, 2160, .hevc)
        default: return (1920, 1080, .h264)
        }
    }
}

/// Recommends asset writer settings for a preset and a source: the size fits the preset
/// without upscaling the source, and the bit rate follows the source's frame rate.
open class AVOutputSettingsAssistant: NSObject, @unchecked Sendable {
    private let preset: AVOutputSettingsPreset

    /// The presets this machine can encode.
    open class func availableOutputSettingsPresets() -> [AVOutputSettingsPreset] {
        let codecs = ValidatedSettings.availableVideoCodecs
        return [.preset640x480, .preset960x540, .preset1280x720, .preset1920x1080, .preset3840x2160, .hevc1920x1080, .hevc3840x2160]
            .filter { codecs.contains($0.box.2) }
    }

    /// Creates an assistant for a preset, or `nil` if this machine cannot encode it.
    public init?(preset presetIdentifier: AVOutputSettingsPreset) {
        guard Self.availableOutputSettingsPresets().contains(presetIdentifier) else { return nil }
        preset = presetIdentifier
        super.init()
    }

    /// The format of the source video: its size bounds the recommended size.
    open var sourceVideoFormat: CMVideoFormatDescription?
    /// The average time between source frames; 1/30 s when not set.
    open var sourceVideoAverageFrameDuration: CMTime = .invalid
    /// The shortest time between source frames.
    open var sourceVideoMinFrameDuration: CMTime = .invalid
    /// The format of the source audio.
    open var sourceAudioFormat: CMAudioFormatDescription?

    /// The kind of file to write: a QuickTime movie.
    open var outputFileType: AVFileType { .mov }

    /// Recommended video settings for an `AVAssetWriterInput`.
    open var videoSettings: [String: Any]? {
        let (boxWidth, boxHeight, codec) = preset.box
        var width = boxWidth, height = boxHeight
        if let source = sourceVideoFormat?.dimensions, source.width > 0, source.height > 0 {
            let scale = min(1, min(Double(boxWidth) / Double(source.width), Double(boxHeight) / Double(source.height)))
            width = Int((Double(source.width) * scale / 2).rounded()) * 2
            height = Int((Double(source.height) * scale / 2).rounded()) * 2
        }
        let duration = sourceVideoAverageFrameDuration.isNumeric ? sourceVideoAverageFrameDuration : CMTime(value: 1, timescale: 30)
        let rate = 1 / duration.seconds
        var compression = ValidatedSettings.Compression()
        // HEVC keeps the same quality in about 60% of H.264's bits.
        if codec == .hevc { compression.bitRate = EncodingPlan.recordingBitRate(width: width, height: height, frameRate: rate) * 6 / 10 }
        return EncodingPlan.videoSettings(codec: codec, width: width, height: height, frameRate: rate, compression: compression)
    }

    /// Recommended audio settings for an `AVAssetWriterInput`: AAC at the source's rate and channel count.
    open var audioSettings: [String: Any]? {
        let asbd = sourceAudioFormat?.audioStreamBasicDescription
        let channels = Int(min(2, max(1, asbd?.mChannelsPerFrame ?? 2)))
        let rate = asbd?.mSampleRate ?? 44_100
        return EncodingPlan.aacSettings(sampleRate: rate, channels: channels)
    }
}
