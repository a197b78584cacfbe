import CoreMedia
import CoreVideo
import Foundation
import MovieEngine

/// A compression session's properties as set through `VTSessionSetProperty`, and the encoder settings they come to.
struct CompressionProperties {
    var hevc = false
    var realTime: Bool?
    var prioritizeSpeed = false
    var profileLevel: String?
    var averageBitRate = 0
    /// The first byte count and duration of the data rate limits.
    var dataRateLimit: (bytes: Int, seconds: Double)?
    var constantBitRate = 0
    var quality: Double?
    var maxKeyFrameInterval = 0
    var maxKeyFrameIntervalDuration = 0.0
    var allowFrameReordering = true
    var expectedFrameRate = 0.0
    var maxFrameDelayCount = kVTUnlimitedFrameDelayCount
    var colorPrimaries: String?
    var transferFunction: String?
    var yCbCrMatrix: String?
    var pixelAspectRatio: [String: Int]?
    var cleanAperture: [String: Double]?
    var entropyMode: String?

    /// Reads a number from a property value.
    private static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let value = value as? Double { return value }
        if let value = value as? Int { return Double(value) }
        return nil
    }

    /// Reads a Boolean from a property value.
    private static func boolean(_ value: Any?) -> Bool? { (value as? Bool) ?? (value as? NSNumber)?.boolValue }

    /// Sets a property; noErr, or `kVTPropertyNotSupportedErr` for a key or value the encoder does not have.
    mutating func set(_ key: String, _ value: Any?) -> OSStatus {
        let unsupported = kVTPropertyNotSupportedErr
        switch key {
        case String(kVTCompressionPropertyKey_RealTime):
            guard let on = Self.boolean(value) else { return unsupported }
            realTime = on
        case String(kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality):
            guard let on = Self.boolean(value) else { return unsupported }
            prioritizeSpeed = on
        case String(kVTCompressionPropertyKey_ProfileLevel):
            guard let name = value as? String,
                let profile = EncoderProfile(profileLevel: name.replacingOccurrences(of: "ConstrainedBaseline", with: "Baseline")),
                (name.hasPrefix("HEVC") == hevc), profile.profile != "main10" || hevc
            else { return unsupported }
            profileLevel = name
        case String(kVTCompressionPropertyKey_AverageBitRate):
            guard let rate = Self.number(value), rate.isFinite, rate >= 0, rate <= 1e10 else { return unsupported }
            averageBitRate = Int(rate)
        case String(kVTCompressionPropertyKey_DataRateLimits):
            guard let values = (value as? [Any])?.compactMap({ Self.number($0) }), values.count >= 2, values.count % 2 == 0,
                values[0].isFinite, values[1].isFinite, values[0] > 0, values[0] <= 1e10, values[1] > 0
            else { return unsupported }
            dataRateLimit = (Int(values[0]), values[1])
        case String(kVTCompressionPropertyKey_ConstantBitRate):
            guard !hevc, let rate = Self.number(value), rate.isFinite, rate >= 0, rate <= 1e10 else { return unsupported }
            constantBitRate = Int(rate)
        case String(kVTCompressionPropertyKey_Quality):
            guard let q = Self.number(value), q.isFinite, (0...1).contains(q) else { return unsupported }
            quality = q
        case String(kVTCompressionPropertyKey_MaxKeyFrameInterval):
            guard let frames = Self.number(value), frames.isFinite, frames >= 0, frames <= 100_000 else { return unsupported }
            maxKeyFrameInterval = Int(frames)
        case String(kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration):
            guard let seconds = Self.number(value), seconds.isFinite, seconds >= 0, seconds <= 3600 else { return unsupported }
            maxKeyFrameIntervalDuration = seconds
        case String(kVTCompressionPropertyKey_AllowFrameReordering):
            guard let on = Self.boolean(value) else { return unsupported }
            allowFrameReordering = on
        case String(kVTCompressionPropertyKey_ExpectedFrameRate):
            guard let rate = Self.number(value), rate.isFinite, rate >= 0, rate <= 1000 else { return unsupported }
            expectedFrameRate = rate
        case String(kVTCompressionPropertyKey_MaxFrameDelayCount):
            guard let count = Self.number(value), count.isFinite, count >= -1, count <= 64 else { return unsupported }
            maxFrameDelayCount = Int(count)
        case String(kVTCompressionPropertyKey_ColorPrimaries):
            guard let name = value as? String, MovieEncoder.canDescribe(primaries: name, transferFunction: nil, matrix: nil) else { return unsupported }
            colorPrimaries = name
        case String(kVTCompressionPropertyKey_TransferFunction):
            guard let name = value as? String, MovieEncoder.canDescribe(primaries: nil, transferFunction: name, matrix: nil) else { return unsupported }
            transferFunction = name
        case String(kVTCompressionPropertyKey_YCbCrMatrix):
            guard let name = value as? String, MovieEncoder.canDescribe(primaries: nil, transferFunction: nil, matrix: name) else { return unsupported }
            yCbCrMatrix = name
        case String(kVTCompressionPropertyKey_PixelAspectRatio):
            guard let dictionary = value as? [String: Any],
                let h = Self.number(dictionary[kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String]),
                let v = Self.number(dictionary[kCVImageBufferPixelAspectRatioVerticalSpacingKey as String]), h >= 1, v >= 1, h <= 65535, v <= 65535
            else { return unsupported }
            pixelAspectRatio = ["h": Int(h), "v": Int(v)]
        case String(kVTCompressionPropertyKey_CleanAperture):
            guard let dictionary = value as? [String: Any] else { return unsupported }
            var aperture: [String: Double] = [:]
            for key in [kCVImageBufferCleanApertureWidthKey, kCVImageBufferCleanApertureHeightKey] as [String] {
                guard let number = Self.number(dictionary[key]), number.isFinite, number > 0 else { return unsupported }
                aperture[key] = number
            }
            for key in [kCVImageBufferCleanApertureHorizontalOffsetKey, kCVImageBufferCleanApertureVerticalOffsetKey] as [String] {
                let number = Self.number(dictionary[key]) ?? 0
                guard number.isFinite else { return unsupported }
                aperture[key] = number
            }
            cleanAperture = aperture
        case String(kVTCompressionPropertyKey_H264EntropyMode):
            guard !hevc, let mode = value as? String, [kVTH264EntropyMode_CAVLC as String, kVTH264EntropyMode_CABAC as String].contains(mode) else {
                return unsupported
            }
            entropyMode = mode
        case String(kVTCompressionPropertyKey_NumberOfPendingFrames), String(kVTCompressionPropertyKey_UsingHardwareAcceleratedVideoEncoder):
            return kVTPropertyReadOnlyErr
        default:
            return unsupported
        }
        return noErr
    }

    /// A property's value, or nil when it has none.
    func value(_ key: String) -> Any? {
        switch key {
        case String(kVTCompressionPropertyKey_RealTime): return realTime.map { NSNumber(value: $0) }
        case String(kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality): return NSNumber(value: prioritizeSpeed)
        case String(kVTCompressionPropertyKey_ProfileLevel): return profileLevel.map { $0 as NSString }
        case String(kVTCompressionPropertyKey_AverageBitRate): return NSNumber(value: averageBitRate)
        case String(kVTCompressionPropertyKey_DataRateLimits):
            return dataRateLimit.map { [NSNumber(value: $0.bytes), NSNumber(value: $0.seconds)] as NSArray }
        case String(kVTCompressionPropertyKey_ConstantBitRate): return NSNumber(value: constantBitRate)
        case String(kVTCompressionPropertyKey_Quality): return quality.map { NSNumber(value: $0) }
        case String(kVTCompressionPropertyKey_MaxKeyFrameInterval): return NSNumber(value: maxKeyFrameInterval)
        case String(kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration): return NSNumber(value: maxKeyFrameIntervalDuration)
        case String(kVTCompressionPropertyKey_AllowFrameReordering): return NSNumber(value: allowFrameReordering)
        case String(kVTCompressionPropertyKey_ExpectedFrameRate): return NSNumber(value: expectedFrameRate)
        case String(kVTCompressionPropertyKey_MaxFrameDelayCount): return NSNumber(value: maxFrameDelayCount)
        case String(kVTCompressionPropertyKey_ColorPrimaries): return colorPrimaries.map { $0 as NSString }
        case String(kVTCompressionPropertyKey_TransferFunction): return transferFunction.map { $0 as NSString }
        case String(kVTCompressionPropertyKey_YCbCrMatrix): return yCbCrMatrix.map { $0 as NSString }
        case String(kVTCompressionPropertyKey_PixelAspectRatio):
            return pixelAspectRatio.map {
                [
                    kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String: NSNumber(value: $0["h"] ?? 1),
                    kCVImageBufferPixelAspectRatioVerticalSpacingKey as String: NSNumber(value: $0["v"] ?? 1),
                ] as NSDictionary
            }
        case String(kVTCompressionPropertyKey_CleanAperture): return cleanAperture.map { $0.mapValues { NSNumber(value: $0) } as NSDictionary }
        case String(kVTCompressionPropertyKey_H264EntropyMode): return entropyMode.map { $0 as NSString }
        default: return nil
        }
    }

    /// The pixel aspect ratio and clean aperture the output's format description carries.
    var geometry: ImageGeometry {
        var dictionary: [String: Any] = [:]
        if let aspect = pixelAspectRatio {
            dictionary[kCVImageBufferPixelAspectRatioKey as String] = [
                kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String: aspect["h"] ?? 1,
                kCVImageBufferPixelAspectRatioVerticalSpacingKey as String: aspect["v"] ?? 1,
            ]
        }
        if let aperture = cleanAperture { dictionary[kCVImageBufferCleanApertureKey as String] = aperture }
        return ImageGeometry(dictionary)
    }

    /// The settings the encoder is opened with.
    func encoderSettings(width: Int, height: Int) -> VideoFrameEncoder.Settings {
        var settings = VideoFrameEncoder.Settings(width: width, height: height)
        settings.encoder = hevc ? "libx265" : "libx264"
        settings.preset = prioritizeSpeed ? "ultrafast" : "veryfast"
        if constantBitRate > 0 {
            settings.bitRate = constantBitRate
            settings.constantBitRate = true
        } else {
            settings.bitRate = averageBitRate
        }
        if let limit = dataRateLimit {
            settings.bufferBits = limit.bytes * 8
            settings.maxBitRate = Int(Double(limit.bytes * 8) / limit.seconds)
        } else if averageBitRate > 0, constantBitRate == 0 {
            // An average kept within a second's buffer at up to 1.5 times the rate: x264 changes its
            // rate between frames only with such a limit, as streaming code changes it.
            settings.maxBitRate = averageBitRate * 3 / 2
            settings.bufferBits = averageBitRate
        }
        settings.quality = quality
        let rate = expectedFrameRate > 0 ? expectedFrameRate : 30
        var interval = maxKeyFrameInterval
        if maxKeyFrameIntervalDuration > 0 {
            let frames = max(1, Int((maxKeyFrameIntervalDuration * rate).rounded(.down)))
            interval = interval > 0 ? min(interval, frames) : frames
        }
        settings.keyframeInterval = interval
        settings.expectedFrameRate = expectedFrameRate
        if let aspect = pixelAspectRatio { (settings.pixelAspectHorizontal, settings.pixelAspectVertical) = (Int32(aspect["h"] ?? 0), Int32(aspect["v"] ?? 0)) }
        settings.primaries = colorPrimaries
        settings.transferFunction = transferFunction
        settings.matrix = yCbCrMatrix
        if let name = profileLevel, let profile = EncoderProfile(profileLevel: name.replacingOccurrences(of: "ConstrainedBaseline", with: "Baseline")) {
            settings.profile = profile.profile
            settings.level = profile.level
            if profile.profile == "main10" { settings.encoderPixelFormat = "yuv420p10le" }
        }
        settings.cabac = entropyMode.map { $0 == kVTH264EntropyMode_CABAC as String }
        let baseline = settings.profile == "baseline"
        settings.bFrames = allowFrameReordering && !baseline && maxFrameDelayCount != 0 ? 2 : 0
        if maxFrameDelayCount >= 0 { settings.maxFrameDelay = maxFrameDelayCount }
        return settings
    }

    /// Whether only the rate control differs from `other`'s, which an open encoder can take.
    func onlyRateDiffers(from other: CompressionProperties, width: Int, height: Int) -> Bool {
        var mine = encoderSettings(width: width, height: height), theirs = other.encoderSettings(width: width, height: height)
        guard mine.constantBitRate == theirs.constantBitRate, (mine.quality == nil) == (theirs.quality == nil) else { return false }
        (mine.bitRate, mine.maxBitRate, mine.bufferBits, mine.quality) = (0, 0, 0, nil)
        (theirs.bitRate, theirs.maxBitRate, theirs.bufferBits, theirs.quality) = (0, 0, 0, nil)
        return mine == theirs
    }

    /// The properties a session supports, each with what it takes.
    static func supported(hevc: Bool) -> [String: Any] {
        let number = [kVTPropertyTypeKey as String: kVTPropertyType_Number, kVTPropertyReadWriteStatusKey as String: kVTPropertyReadWriteStatus_ReadWrite]
        let readOnly = [kVTPropertyTypeKey as String: kVTPropertyType_Number, kVTPropertyReadWriteStatusKey as String: kVTPropertyReadWriteStatus_ReadOnly]
        let profiles =
            hevc
            ? [kVTProfileLevel_HEVC_Main_AutoLevel, kVTProfileLevel_HEVC_Main10_AutoLevel]
            : [
                kVTProfileLevel_H264_Baseline_AutoLevel, kVTProfileLevel_H264_ConstrainedBaseline_AutoLevel, kVTProfileLevel_H264_Main_AutoLevel,
                kVTProfileLevel_H264_High_AutoLevel, kVTProfileLevel_H264_Baseline_3_1, kVTProfileLevel_H264_Baseline_4_1, kVTProfileLevel_H264_Main_3_1,
                kVTProfileLevel_H264_Main_4_1, kVTProfileLevel_H264_High_4_0, kVTProfileLevel_H264_High_4_1, kVTProfileLevel_H264_High_5_1,
            ]
        var supported: [String: Any] = [
            kVTCompressionPropertyKey_RealTime as String: booleanProperty(),
            kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality as String: booleanProperty(),
            kVTCompressionPropertyKey_AllowFrameReordering as String: booleanProperty(),
            kVTCompressionPropertyKey_ProfileLevel as String: enumerationProperty(profiles.map { $0 as String }),
            kVTCompressionPropertyKey_ColorPrimaries as String: enumerationProperty(Array(MovieEncoder.primaries.keys).sorted()),
            kVTCompressionPropertyKey_TransferFunction as String: enumerationProperty(Array(MovieEncoder.transferFunctions.keys).sorted()),
            kVTCompressionPropertyKey_YCbCrMatrix as String: enumerationProperty(Array(MovieEncoder.matrices.keys).sorted()),
            kVTCompressionPropertyKey_NumberOfPendingFrames as String: readOnly,
            kVTCompressionPropertyKey_UsingHardwareAcceleratedVideoEncoder as String: readOnly,
        ]
        for key in [
            kVTCompressionPropertyKey_AverageBitRate, kVTCompressionPropertyKey_DataRateLimits, kVTCompressionPropertyKey_Quality,
            kVTCompressionPropertyKey_MaxKeyFrameInterval, kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration, kVTCompressionPropertyKey_ExpectedFrameRate,
            kVTCompressionPropertyKey_MaxFrameDelayCount, kVTCompressionPropertyKey_PixelAspectRatio, kVTCompressionPropertyKey_CleanAperture,
        ] {
            supported[key as String] = number
        }
        if !hevc {
            supported[kVTCompressionPropertyKey_ConstantBitRate as String] = number
            supported[kVTCompressionPropertyKey_H264EntropyMode as String] = enumerationProperty([
                kVTH264EntropyMode_CAVLC as String, kVTH264EntropyMode_CABAC as String,
            ])
        }
        return supported
    }
}
