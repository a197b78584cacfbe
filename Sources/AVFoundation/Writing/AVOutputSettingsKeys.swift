import MovieEngine
import Foundation

/// The settings key for the video codec: an `AVVideoCodecType`, or its raw value.
public let AVVideoCodecKey = "AVVideoCodecKey"
/// The settings key for the encoded width in pixels.
public let AVVideoWidthKey = "AVVideoWidthKey"
/// The settings key for the encoded height in pixels.
public let AVVideoHeightKey = "AVVideoHeightKey"
/// The settings key for the dictionary of compression properties.
public let AVVideoCompressionPropertiesKey = "AVVideoCompressionPropertiesKey"
/// The compression property for the average bit rate, in bits per second.
public let AVVideoAverageBitRateKey = "AverageBitRate"
/// The compression property for the most frames between keyframes.
public let AVVideoMaxKeyFrameIntervalKey = "MaxKeyFrameInterval"
/// The compression property for the most time between keyframes, in seconds.
public let AVVideoMaxKeyFrameIntervalDurationKey = "MaxKeyFrameIntervalDuration"
/// The compression property for the expected frame rate of the source.
public let AVVideoExpectedSourceFrameRateKey = "ExpectedFrameRate"
/// The compression property for the encoder's profile and level.
public let AVVideoProfileLevelKey = "ProfileLevel"
/// The compression property that allows frame reordering (B-frames).
public let AVVideoAllowFrameReorderingKey = "AllowFrameReordering"
/// The settings key for how frames are scaled to the encoded size.
public let AVVideoScalingModeKey = "AVVideoScalingModeKey"
/// The profile and level chosen by the encoder, for H.264.
public let AVVideoProfileLevelH264HighAutoLevel = "H264_High_AutoLevel"
/// The main profile with the encoder's choice of level, for H.264.
public let AVVideoProfileLevelH264MainAutoLevel = "H264_Main_AutoLevel"
/// Output settings read and checked against what this machine can encode.
struct ValidatedSettings {
    struct Video: Equatable {
        var codec: AVVideoCodecType
        var width: Int
        var height: Int
        var compression = Compression()
    }
    /// The compression properties of video settings, each as given or nil.
    struct Compression: Equatable, Sendable {
        var bitRate: Int?
        var keyframeInterval: Int?
        var expectedFrameRate: Double?
        /// `kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality`: the encoder's fastest preset.
        var prioritizesSpeed: Bool?
        /// `kVTCompressionPropertyKey_RealTime`.
        var realTime: Bool?

        /// The x264/x265 speed preset: the fastest where speed is asked for before quality, else `standard`.
        func preset(standard: String) -> String { prioritizesSpeed == true ? "ultrafast" : standard }
    }
    struct Audio: Equatable {
        var sampleRate: Int
        var channels: Int
        var bitRate: Int?
    }

    /// The encoders each codec is written with.
    static func encoder(for codec: AVVideoCodecType) -> String? {
        switch codec {
        case .h264: return "libx264"
        case .hevc: return "libx265"
        default: return nil
        }
    }

    /// The video codecs this machine can encode.
    static var availableVideoCodecs: [AVVideoCodecType] {
        [.h264, .hevc].filter { encoder(for: $0).map(MovieEncoder.isAvailable) ?? false }
    }

    private static let videoKeys: Set<String> = [AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey, AVVideoCompressionPropertiesKey, AVVideoScalingModeKey]
    private static let compressionKeys: Set<String> = [
        AVVideoAverageBitRateKey, AVVideoMaxKeyFrameIntervalKey, AVVideoMaxKeyFrameIntervalDurationKey,
        AVVideoExpectedSourceFrameRateKey, AVVideoProfileLevelKey, AVVideoAllowFrameReorderingKey,
        prioritizeSpeedKey, realTimeKey,
    ]
    /// Video Toolbox's keys for speed before quality and for real time, by their raw values.
    static let prioritizeSpeedKey = "PrioritizeEncodingSpeedOverQuality", realTimeKey = "RealTime"
    private static let audioKeys: Set<String> = [
        AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVEncoderBitRateKey,
        AVEncoderBitRatePerChannelKey, AVChannelLayoutKey,
    ]

    /// Reads video settings; the error says what is wrong with them.
    static func video(_ settings: [String: Any]) -> Result<Video, SettingsError> {
        if let unknown = settings.keys.first(where: { !videoKeys.contains($0) }) { return .failure(.init("unknown video settings key \(unknown)")) }
        let codecValue = settings[AVVideoCodecKey]
        let codec =
            (codecValue as? AVVideoCodecType) ?? (codecValue as? String).map(AVVideoCodecType.init(rawValue:))
            ?? (codecValue as? NSString).map { AVVideoCodecType(rawValue: String($0)) }
        guard let codec else { return .failure(.init("AVVideoCodecKey is required")) }
        guard availableVideoCodecs.contains(codec) else { return .failure(.init("no encoder for codec \(codec.rawValue) on this machine")) }
        guard let width = attributeInt(settings[AVVideoWidthKey]), let height = attributeInt(settings[AVVideoHeightKey]) else {
            return .failure(.init("AVVideoWidthKey and AVVideoHeightKey are required"))
        }
        guard width >= 16, height >= 16, width <= 8192, height <= 8192, width % 2 == 0, height % 2 == 0 else {
            return .failure(.init("the size \(width)x\(height) cannot be encoded: even sizes from 16 to 8192"))
        }
        var video = Video(codec: codec, width: width, height: height)
        if let properties = settings[AVVideoCompressionPropertiesKey] {
            switch compression(properties) {
            case .success(let compression): video.compression = compression
            case .failure(let error): return .failure(error)
            }
        }
        return .success(video)
    }

    /// Reads the dictionary given for `AVVideoCompressionPropertiesKey`; the error says what is wrong with it.
    static func compression(_ properties: Any) -> Result<Compression, SettingsError> {
        guard let dictionary = properties as? [String: Any] else { return .failure(.init("AVVideoCompressionPropertiesKey must be a dictionary")) }
        if let unknown = dictionary.keys.first(where: { !compressionKeys.contains($0) }) { return .failure(.init("unknown compression property \(unknown)")) }
        var result = Compression()
        if let value = dictionary[AVVideoAverageBitRateKey] {
            guard let bitRate = attributeInt(value), bitRate > 0 else { return .failure(.init("AVVideoAverageBitRateKey must be a positive number")) }
            result.bitRate = bitRate
        }
        if let value = dictionary[AVVideoMaxKeyFrameIntervalKey] {
            guard let interval = attributeInt(value), interval > 0 else { return .failure(.init("AVVideoMaxKeyFrameIntervalKey must be positive")) }
            result.keyframeInterval = interval
        }
        if let value = dictionary[AVVideoExpectedSourceFrameRateKey] {
            guard let rate = attributeInt(value), rate > 0 else { return .failure(.init("AVVideoExpectedSourceFrameRateKey must be positive")) }
            result.expectedFrameRate = Double(rate)
        }
        for (key, path) in [(prioritizeSpeedKey, \Compression.prioritizesSpeed), (realTimeKey, \Compression.realTime)] {
            guard let value = dictionary[key] else { continue }
            guard let flag = attributeBool(value) else { return .failure(.init("\(key) must be a Boolean")) }
            result[keyPath: path] = flag
        }
        return .success(result)
    }

    /// Reads audio settings; the error says what is wrong with them.
    static func audio(_ settings: [String: Any]) -> Result<Audio, SettingsError> {
        if let unknown = settings.keys.first(where: { !audioKeys.contains($0) }) { return .failure(.init("unknown audio settings key \(unknown)")) }
        guard let format = attributeInt(settings[AVFormatIDKey]) else { return .failure(.init("AVFormatIDKey is required")) }
        guard UInt32(truncatingIfNeeded: format) == kAudioFormatMPEG4AAC else { return .failure(.init("only kAudioFormatMPEG4AAC can be encoded")) }
        let rate = attributeInt(settings[AVSampleRateKey]) ?? 44_100
        let channels = attributeInt(settings[AVNumberOfChannelsKey]) ?? 1
        guard [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000].contains(rate) else { return .failure(.init("AAC cannot be encoded at \(rate) Hz")) }
        guard (1...2).contains(channels) else { return .failure(.init("AAC is written with one or two channels, not \(channels)")) }
        var bitRate = attributeInt(settings[AVEncoderBitRateKey])
        if let perChannel = attributeInt(settings[AVEncoderBitRatePerChannelKey]) { bitRate = perChannel * channels }
        if let bitRate, !(8000...320_000).contains(bitRate) { return .failure(.init("AAC bit rate \(bitRate) is outside 8000...320000")) }
        return .success(Audio(sampleRate: rate, channels: channels, bitRate: bitRate))
    }
}

/// Why output settings cannot be used.
struct SettingsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
