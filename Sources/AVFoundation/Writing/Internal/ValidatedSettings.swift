import CaptureDevices
import Foundation
import MovieEngine

/// Output settings read and checked against what this machine can encode.
struct ValidatedSettings {
    struct Video: Equatable {
        var codec: AVVideoCodecType
        var width: Int
        var height: Int
        var compression = Compression()
        /// `AVVideoScalingModeKey`'s value: how frames of another size are fitted.
        var scalingMode = AVVideoScalingModeResize
        /// `AVVideoColorPropertiesKey`'s values, each as given or nil.
        var colour: ColourProperties?
        /// `AVVideoPixelAspectRatioKey`'s spacings, horizontal and vertical; nil for square pixels.
        var pixelAspectRatio: [Int]?
        /// `AVVideoCleanApertureKey`'s width, height and offsets; nil for the whole frame.
        var cleanAperture: [Double]?

        /// Whether the codec is one of Apple ProRes's, which only QuickTime movies carry.
        var isProRes: Bool { ValidatedSettings.proResProfiles[codec] != nil }
    }
    /// The colour properties of video settings.
    struct ColourProperties: Equatable {
        var primaries: String?
        var transferFunction: String?
        var matrix: String?

        /// Whether the transfer function is an HDR one (PQ or HLG), which HEVC carries in 10 bits.
        var isHighDynamicRange: Bool {
            transferFunction == AVVideoTransferFunction_SMPTE_ST_2084_PQ || transferFunction == AVVideoTransferFunction_ITU_R_2100_HLG
        }
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
        /// `AVVideoProfileLevelKey`: the profile and level, as Apple names them ("H264_High_4_1", "HEVC_Main10_AutoLevel").
        var profileLevel: String?
        /// `AVVideoH264EntropyModeKey`: true for CABAC, false for CAVLC.
        var cabac: Bool?
        /// `AVVideoAllowFrameReorderingKey`: whether B-frames may be used.
        var allowsFrameReordering: Bool?
        /// `AVVideoAverageNonDroppableFrameRateKey`: the frames a second that are not droppable.
        var nonDroppableFrameRate: Double?

        /// The x264/x265 speed preset: the fastest where speed is asked for before quality, else `standard`.
        func preset(standard: String) -> String { prioritizesSpeed == true ? "ultrafast" : standard }
    }
    struct Audio: Equatable {
        var sampleRate: Int
        var channels: Int
        var bitRate: Int?
        /// `AVChannelLayoutKey`'s layout in FFmpeg's terms, when one was given.
        var layout: ChannelLayoutMapping?
    }

    /// The encoders each codec is written with.
    static func encoder(for codec: AVVideoCodecType) -> String? {
        switch codec {
        case .h264: return "libx264"
        case .hevc: return "libx265"
        case _ where proResProfiles[codec] != nil: return "prores_ks"
        default: return nil
        }
    }

    /// FFmpeg's ProRes profile for each ProRes codec, and the pixel format it encodes.
    static let proResProfiles: [AVVideoCodecType: (profile: String, pixelFormat: String)] = [
        .proRes422Proxy: ("proxy", "yuv422p10le"), .proRes422LT: ("lt", "yuv422p10le"), .proRes422: ("standard", "yuv422p10le"),
        .proRes422HQ: ("hq", "yuv422p10le"), .proRes4444: ("4444", "yuv444p10le"),
    ]

    /// The video codecs this machine can encode from a camera: H.264 and HEVC.
    static var availableVideoCodecs: [AVVideoCodecType] {
        [.h264, .hevc].filter { encoder(for: $0).map(MovieEncoder.isAvailable) ?? false }
    }

    /// The video codecs an asset writer can encode on this machine: a camera's, and ProRes.
    static var writerVideoCodecs: [AVVideoCodecType] {
        availableVideoCodecs + [.proRes422Proxy, .proRes422LT, .proRes422, .proRes422HQ, .proRes4444].filter { _ in MovieEncoder.isAvailable("prores_ks") }
    }

    private static let videoKeys: Set<String> = [
        AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey, AVVideoCompressionPropertiesKey, AVVideoScalingModeKey, AVVideoColorPropertiesKey,
        AVVideoPixelAspectRatioKey, AVVideoCleanApertureKey,
    ]
    private static let compressionKeys: Set<String> = [
        AVVideoAverageBitRateKey, AVVideoMaxKeyFrameIntervalKey, AVVideoMaxKeyFrameIntervalDurationKey,
        AVVideoExpectedSourceFrameRateKey, AVVideoProfileLevelKey, AVVideoAllowFrameReorderingKey,
        AVVideoH264EntropyModeKey, AVVideoAverageNonDroppableFrameRateKey, prioritizeSpeedKey, realTimeKey, hdrMetadataInsertionModeKey,
    ]
    private static let scalingModes: Set<String> = [
        AVVideoScalingModeFit, AVVideoScalingModeResize, AVVideoScalingModeResizeAspect, AVVideoScalingModeResizeAspectFill,
    ]
    /// Video Toolbox's keys for speed before quality and for real time, by their raw values.
    static let prioritizeSpeedKey = "PrioritizeEncodingSpeedOverQuality", realTimeKey = "RealTime"
    /// Video Toolbox's key for whether HDR metadata is inserted, and its values ("None", "Auto"): the
    /// encoders here write SDR, so there is never HDR metadata to insert, and either is taken.
    static let hdrMetadataInsertionModeKey = "HDRMetadataInsertionMode", hdrMetadataInsertionModes: Set<String> = ["None", "Auto"]
    private static let audioKeys: Set<String> = [
        AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVEncoderBitRateKey,
        AVEncoderBitRatePerChannelKey, AVChannelLayoutKey,
    ]

    /// Reads `AVVideoCleanApertureKey`'s dictionary: a width and height within the frame, and
    /// offsets (0 when absent) that keep the aperture inside it.
    static func cleanAperture(_ value: Any, width: Int, height: Int) -> Result<[Double], SettingsError> {
        func number(_ key: String, in dictionary: [String: Any]) -> Double? {
            guard let value = dictionary[key] else { return nil }
            let number = (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? (value as? Int).map(Double.init)
            return number.flatMap { $0.isFinite ? $0 : nil }
        }
        let problem = SettingsError(
            "AVVideoCleanApertureKey must be a dictionary of a width and height from 1 to the frame's and offsets that keep the aperture in the frame")
        guard let dictionary = value as? [String: Any], let apertureWidth = number(AVVideoCleanApertureWidthKey, in: dictionary),
            let apertureHeight = number(AVVideoCleanApertureHeightKey, in: dictionary), apertureWidth >= 1, apertureHeight >= 1,
            apertureWidth <= Double(width), apertureHeight <= Double(height)
        else { return .failure(problem) }
        let horizontal = dictionary[AVVideoCleanApertureHorizontalOffsetKey] == nil ? 0 : number(AVVideoCleanApertureHorizontalOffsetKey, in: dictionary)
        let vertical = dictionary[AVVideoCleanApertureVerticalOffsetKey] == nil ? 0 : number(AVVideoCleanApertureVerticalOffsetKey, in: dictionary)
        guard let horizontal, let vertical, abs(horizontal) <= (Double(width) - apertureWidth) / 2,
            abs(vertical) <= (Double(height) - apertureHeight) / 2
        else { return .failure(problem) }
        return .success([apertureWidth, apertureHeight, horizontal, vertical])
    }

    /// Reads video settings; the error says what is wrong with them.
    static func video(_ settings: [String: Any]) -> Result<Video, SettingsError> {
        if let unknown = settings.keys.first(where: { !videoKeys.contains($0) }) { return .failure(.init("unknown video settings key \(unknown)")) }
        let codecValue = settings[AVVideoCodecKey]
        let codec =
            (codecValue as? AVVideoCodecType) ?? (codecValue as? String).map(AVVideoCodecType.init(rawValue:))
            ?? (codecValue as? NSString).map { AVVideoCodecType(rawValue: String($0)) }
        guard let codec else { return .failure(.init("AVVideoCodecKey is required")) }
        guard writerVideoCodecs.contains(codec) else { return .failure(.init("no encoder for codec \(codec.rawValue) on this machine")) }
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
        if let mode = settings[AVVideoScalingModeKey] {
            guard let name = mode as? String ?? (mode as? NSString).map(String.init), scalingModes.contains(name) else {
                return .failure(.init("AVVideoScalingModeKey must be one of the AVVideoScalingMode values"))
            }
            video.scalingMode = name
        }
        if let properties = settings[AVVideoColorPropertiesKey] {
            switch colour(properties) {
            case .success(let colour): video.colour = colour
            case .failure(let error): return .failure(error)
            }
        }
        if let aspect = settings[AVVideoPixelAspectRatioKey] {
            guard let spacing = aspect as? [String: Any], let horizontal = attributeInt(spacing[AVVideoPixelAspectRatioHorizontalSpacingKey]),
                let vertical = attributeInt(spacing[AVVideoPixelAspectRatioVerticalSpacingKey]), (1...65535).contains(horizontal),
                (1...65535).contains(vertical)
            else {
                return .failure(.init("AVVideoPixelAspectRatioKey must be a dictionary of two whole spacings from 1 to 65535"))
            }
            video.pixelAspectRatio = horizontal == vertical ? nil : [horizontal, vertical]
        }
        if let aperture = settings[AVVideoCleanApertureKey] ?? (settings[AVVideoCompressionPropertiesKey] as? [String: Any])?[AVVideoCleanApertureKey] {
            switch cleanAperture(aperture, width: width, height: height) {
            case .success(let values): video.cleanAperture = values
            case .failure(let error): return .failure(error)
            }
        }
        if let problem = profileProblem(video) { return .failure(.init(problem)) }
        return .success(video)
    }

    /// Reads the dictionary given for `AVVideoColorPropertiesKey`; the error says what is wrong with it.
    static func colour(_ properties: Any) -> Result<ColourProperties, SettingsError> {
        guard let dictionary = properties as? [String: Any] else { return .failure(.init("AVVideoColorPropertiesKey must be a dictionary")) }
        let keys: Set<String> = [AVVideoColorPrimariesKey, AVVideoTransferFunctionKey, AVVideoYCbCrMatrixKey]
        if let unknown = dictionary.keys.first(where: { !keys.contains($0) }) { return .failure(.init("unknown colour property \(unknown)")) }
        func name(_ key: String) -> String? { dictionary[key].flatMap { $0 as? String ?? ($0 as? NSString).map(String.init) } }
        let colour = ColourProperties(
            primaries: name(AVVideoColorPrimariesKey), transferFunction: name(AVVideoTransferFunctionKey), matrix: name(AVVideoYCbCrMatrixKey))
        guard MovieEncoder.canDescribe(primaries: colour.primaries, transferFunction: colour.transferFunction, matrix: colour.matrix) else {
            return .failure(.init("the colour properties name a primaries, transfer function or matrix value AVFoundation does not define"))
        }
        return .success(colour)
    }

    /// What is wrong with a video setting's profile, entropy coding or reordering for its codec, if anything.
    private static func profileProblem(_ video: Video) -> String? {
        let compression = video.compression
        if let profile = compression.profileLevel {
            let prefix = video.codec == .h264 ? "H264_" : video.codec == .hevc ? "HEVC_" : nil
            guard let prefix, profile.hasPrefix(prefix), EncoderProfile(profileLevel: profile) != nil else {
                return "profile level \(profile) is not one of \(video.codec.rawValue)'s"
            }
        }
        if compression.cabac != nil, video.codec != .h264 { return "AVVideoH264EntropyModeKey is for H.264 only" }
        if compression.cabac == true, compression.profileLevel?.hasPrefix("H264_Baseline") == true { return "H.264's Baseline profile has no CABAC" }
        if compression.allowsFrameReordering == true, compression.profileLevel?.hasPrefix("H264_Baseline") == true {
            return "H.264's Baseline profile has no frame reordering"
        }
        return nil
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
        if let value = dictionary[AVVideoProfileLevelKey] {
            guard let profile = value as? String ?? (value as? NSString).map(String.init) else {
                return .failure(.init("AVVideoProfileLevelKey must be a string"))
            }
            result.profileLevel = profile
        }
        if let value = dictionary[AVVideoH264EntropyModeKey] {
            let mode = value as? String ?? (value as? NSString).map(String.init)
            guard mode == AVVideoH264EntropyModeCAVLC || mode == AVVideoH264EntropyModeCABAC else {
                return .failure(.init("AVVideoH264EntropyModeKey must be AVVideoH264EntropyModeCAVLC or AVVideoH264EntropyModeCABAC"))
            }
            result.cabac = mode == AVVideoH264EntropyModeCABAC
        }
        if let value = dictionary[hdrMetadataInsertionModeKey] {
            guard let mode = value as? String ?? (value as? NSString).map(String.init), hdrMetadataInsertionModes.contains(mode) else {
                return .failure(.init("HDRMetadataInsertionMode must be kVTHDRMetadataInsertionMode_None or kVTHDRMetadataInsertionMode_Auto"))
            }
        }
        if let value = dictionary[AVVideoAverageNonDroppableFrameRateKey] {
            guard let rate = (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? (value as? Int).map(Double.init), rate.isFinite, rate > 0 else {
                return .failure(.init("AVVideoAverageNonDroppableFrameRateKey must be a positive number"))
            }
            result.nonDroppableFrameRate = rate
        }
        for (key, path) in [
            (prioritizeSpeedKey, \Compression.prioritizesSpeed), (realTimeKey, \Compression.realTime),
            (AVVideoAllowFrameReorderingKey, \Compression.allowsFrameReordering),
        ] {
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
        if UInt32(truncatingIfNeeded: format) == kAudioFormatAPAC {
            return .failure(.init("kAudioFormatAPAC (Apple Positional Audio Codec) has no encoder on Linux; only kAudioFormatMPEG4AAC can be encoded"))
        }
        guard UInt32(truncatingIfNeeded: format) == kAudioFormatMPEG4AAC else { return .failure(.init("only kAudioFormatMPEG4AAC can be encoded")) }
        let rate = attributeInt(settings[AVSampleRateKey]) ?? 44_100
        var layout: ChannelLayoutMapping?
        if let value = settings[AVChannelLayoutKey] {
            guard let data = value as? Data, data.count >= MemoryLayout<AudioChannelLayout>.size else {
                return .failure(.init("AVChannelLayoutKey must be the Data of an AudioChannelLayout"))
            }
            let tag = data.withUnsafeBytes { $0.loadUnaligned(as: AudioChannelLayoutTag.self) }
            guard let mapping = ChannelLayoutMapping(tag: tag) else { return .failure(.init("channel layout tag \(tag) cannot be written")) }
            layout = mapping
        }
        let channels = attributeInt(settings[AVNumberOfChannelsKey]) ?? layout?.channelCount ?? 1
        guard [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000].contains(rate) else { return .failure(.init("AAC cannot be encoded at \(rate) Hz")) }
        if let layout {
            guard layout.channelCount == channels else { return .failure(.init("the channel layout has \(layout.channelCount) channels, not \(channels)")) }
        } else {
            guard (1...2).contains(channels) else { return .failure(.init("more than two channels need AVChannelLayoutKey, to say which is which")) }
        }
        var bitRate = attributeInt(settings[AVEncoderBitRateKey])
        if let perChannel = attributeInt(settings[AVEncoderBitRatePerChannelKey]) { bitRate = perChannel * channels }
        if let bitRate, !(8000...(320_000 * max(1, channels / 2))).contains(bitRate) {
            return .failure(.init("AAC bit rate \(bitRate) is outside 8000...320000 a channel pair"))
        }
        return .success(Audio(sampleRate: rate, channels: channels, bitRate: bitRate, layout: layout))
    }
}

/// Why output settings cannot be used.
struct SettingsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
