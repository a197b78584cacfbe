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

// The properties a compression session takes besides the ones output settings use.

/// The quality from 0.0 (smallest) to 1.0 (best), when no bit rate is asked for.
nonisolated(unsafe) public let kVTCompressionPropertyKey_Quality: CFString = "Quality"
/// Hard limits on the data rate: pairs of a byte count and a duration in seconds that the bytes may not exceed.
nonisolated(unsafe) public let kVTCompressionPropertyKey_DataRateLimits: CFString = "DataRateLimits"
/// A constant bit rate, in bits per second, where the encoder has one.
nonisolated(unsafe) public let kVTCompressionPropertyKey_ConstantBitRate: CFString = "ConstantBitRate"
/// The most frames the encoder may hold before it outputs one; `kVTUnlimitedFrameDelayCount` for no limit.
nonisolated(unsafe) public let kVTCompressionPropertyKey_MaxFrameDelayCount: CFString = "MaxFrameDelayCount"
/// The colour primaries written into the stream.
nonisolated(unsafe) public let kVTCompressionPropertyKey_ColorPrimaries: CFString = "ColorPrimaries"
/// The transfer function written into the stream.
nonisolated(unsafe) public let kVTCompressionPropertyKey_TransferFunction: CFString = "TransferFunction"
/// The Y'CbCr matrix written into the stream.
nonisolated(unsafe) public let kVTCompressionPropertyKey_YCbCrMatrix: CFString = "YCbCrMatrix"
/// The pixel aspect ratio written into the stream, as a dictionary of horizontal and vertical spacing.
nonisolated(unsafe) public let kVTCompressionPropertyKey_PixelAspectRatio: CFString = "PixelAspectRatio"
/// The clean aperture carried in the output's format description.
nonisolated(unsafe) public let kVTCompressionPropertyKey_CleanAperture: CFString = "CleanAperture"
/// The number of frames given to the encoder and not yet output (read only).
nonisolated(unsafe) public let kVTCompressionPropertyKey_NumberOfPendingFrames: CFString = "NumberOfPendingFrames"
/// Whether the session uses a hardware encoder (read only: none is used here).
nonisolated(unsafe) public let kVTCompressionPropertyKey_UsingHardwareAcceleratedVideoEncoder: CFString = "UsingHardwareAcceleratedVideoEncoder"
/// H.264's context-adaptive variable-length coding.
nonisolated(unsafe) public let kVTH264EntropyMode_CAVLC: CFString = "CAVLC"
/// H.264's context-adaptive binary arithmetic coding.
nonisolated(unsafe) public let kVTH264EntropyMode_CABAC: CFString = "CABAC"
/// H.264's Constrained Baseline profile with the encoder's choice of level.
nonisolated(unsafe) public let kVTProfileLevel_H264_ConstrainedBaseline_AutoLevel: CFString = "H264_ConstrainedBaseline_AutoLevel"
/// H.264's Baseline profile at level 3.1.
nonisolated(unsafe) public let kVTProfileLevel_H264_Baseline_3_1: CFString = "H264_Baseline_3_1"
/// H.264's Baseline profile at level 4.1.
nonisolated(unsafe) public let kVTProfileLevel_H264_Baseline_4_1: CFString = "H264_Baseline_4_1"
/// H.264's Main profile at level 3.1.
nonisolated(unsafe) public let kVTProfileLevel_H264_Main_3_1: CFString = "H264_Main_3_1"
/// H.264's Main profile at level 4.1.
nonisolated(unsafe) public let kVTProfileLevel_H264_Main_4_1: CFString = "H264_Main_4_1"
/// H.264's High profile at level 4.0.
nonisolated(unsafe) public let kVTProfileLevel_H264_High_4_0: CFString = "H264_High_4_0"
/// H.264's High profile at level 4.1.
nonisolated(unsafe) public let kVTProfileLevel_H264_High_4_1: CFString = "H264_High_4_1"
/// H.264's High profile at level 5.1.
nonisolated(unsafe) public let kVTProfileLevel_H264_High_5_1: CFString = "H264_High_5_1"

/// The frame option that makes a frame a keyframe (a Boolean in `frameProperties`).
nonisolated(unsafe) public let kVTEncodeFrameOptionKey_ForceKeyFrame: CFString = "ForceKeyFrame"

/// An encoder specification key: the encoder asked for by its identifier.
nonisolated(unsafe) public let kVTVideoEncoderSpecification_EncoderID: CFString = "EncoderID"
/// An encoder list key: the encoder's codec type.
nonisolated(unsafe) public let kVTVideoEncoderList_CodecType: CFString = "CodecType"
/// An encoder list key: the encoder's identifier.
nonisolated(unsafe) public let kVTVideoEncoderList_EncoderID: CFString = "EncoderID"
/// An encoder list key: the codec's name.
nonisolated(unsafe) public let kVTVideoEncoderList_CodecName: CFString = "CodecName"
/// An encoder list key: the encoder's name.
nonisolated(unsafe) public let kVTVideoEncoderList_EncoderName: CFString = "EncoderName"
/// An encoder list key: the encoder's name for display.
nonisolated(unsafe) public let kVTVideoEncoderList_DisplayName: CFString = "DisplayName"
/// An encoder list key: whether the encoder is hardware accelerated.
nonisolated(unsafe) public let kVTVideoEncoderList_IsHardwareAccelerated: CFString = "IsHardwareAccelerated"

/// Whether a decompression session decodes in real time.
nonisolated(unsafe) public let kVTDecompressionPropertyKey_RealTime: CFString = "RealTime"
/// The pool a decompression session's pixel buffers come from (read only).
nonisolated(unsafe) public let kVTDecompressionPropertyKey_PixelBufferPool: CFString = "PixelBufferPool"
/// Whether the session uses a hardware decoder (read only: none is used here).
nonisolated(unsafe) public let kVTDecompressionPropertyKey_UsingHardwareAcceleratedVideoDecoder: CFString = "UsingHardwareAcceleratedVideoDecoder"
