// The compression property keys of Video Toolbox, spelled as Apple spells them.
// They go in an output settings dictionary under `AVVideoCompressionPropertiesKey`, for an
// asset writer input or a movie file output; each value is the key's raw string, as on Apple
// platforms, so that `kVTCompressionPropertyKey_RealTime as String` is the same key everywhere.

/// Whether compression runs in real time, keeping up with a live source.
nonisolated(unsafe) public let kVTCompressionPropertyKey_RealTime: CFString = "RealTime"
/// Whether the encoder favours its speed over the quality of the pictures it makes.
nonisolated(unsafe) public let kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality: CFString = "PrioritizeEncodingSpeedOverQuality"
/// The long-term average bit rate, in bits per second.
nonisolated(unsafe) public let kVTCompressionPropertyKey_AverageBitRate: CFString = "AverageBitRate"
/// The most frames from one keyframe to the next.
nonisolated(unsafe) public let kVTCompressionPropertyKey_MaxKeyFrameInterval: CFString = "MaxKeyFrameInterval"
/// The most time from one keyframe to the next, in seconds.
nonisolated(unsafe) public let kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration: CFString = "MaxKeyFrameIntervalDuration"
/// The frame rate the source is expected to have.
nonisolated(unsafe) public let kVTCompressionPropertyKey_ExpectedFrameRate: CFString = "ExpectedFrameRate"
/// Whether frames may be reordered (B-frames).
nonisolated(unsafe) public let kVTCompressionPropertyKey_AllowFrameReordering: CFString = "AllowFrameReordering"
/// The profile and level of the encoded stream.
nonisolated(unsafe) public let kVTCompressionPropertyKey_ProfileLevel: CFString = "ProfileLevel"
/// Whether the encoder inserts HDR metadata into the stream: `kVTHDRMetadataInsertionMode_None` or
/// `_Auto` (the encoders here write SDR, so there is none to insert either way).
nonisolated(unsafe) public let kVTCompressionPropertyKey_HDRMetadataInsertionMode: CFString = "HDRMetadataInsertionMode"
/// HDR metadata is not inserted.
nonisolated(unsafe) public let kVTHDRMetadataInsertionMode_None: CFString = "None"
/// HDR metadata is inserted where the content is HDR.
nonisolated(unsafe) public let kVTHDRMetadataInsertionMode_Auto: CFString = "Auto"
/// H.264's entropy coding: CAVLC or CABAC.
nonisolated(unsafe) public let kVTCompressionPropertyKey_H264EntropyMode: CFString = "H264EntropyMode"
/// HEVC's Main profile with the encoder's choice of level.
nonisolated(unsafe) public let kVTProfileLevel_HEVC_Main_AutoLevel: CFString = "HEVC_Main_AutoLevel"
/// HEVC's Main 10 profile (10 bits a sample) with the encoder's choice of level.
nonisolated(unsafe) public let kVTProfileLevel_HEVC_Main10_AutoLevel: CFString = "HEVC_Main10_AutoLevel"
/// H.264's High profile with the encoder's choice of level.
nonisolated(unsafe) public let kVTProfileLevel_H264_High_AutoLevel: CFString = "H264_High_AutoLevel"
/// H.264's Main profile with the encoder's choice of level.
nonisolated(unsafe) public let kVTProfileLevel_H264_Main_AutoLevel: CFString = "H264_Main_AutoLevel"
/// H.264's Baseline profile with the encoder's choice of level.
nonisolated(unsafe) public let kVTProfileLevel_H264_Baseline_AutoLevel: CFString = "H264_Baseline_AutoLevel"
