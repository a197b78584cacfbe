// The parts of Apple's VideoToolbox that LinuxAVFoundation does not offer yet, and why.
//
// `import VideoToolbox` gives the compression property keys and values that output settings are
// written with (AVAssetWriter encodes through FFmpeg, AVAssetReader decodes through it), pixel
// transfer and rotation sessions, images from pixel buffers, sessions' properties and Apple's
// error codes. A name
// followed by a star stands for every name that starts so. `scripts/parity.py` counts them
// against Apple's headers (Parity/VideoToolbox.md).

// Codec sessions, not built yet (AVAssetWriter and AVAssetReader encode and decode instead):
//     VTCompressionSession*, VTCompressionOutput*, VTEncodeInfoFlags, kVTEncodeFrame*, kVTCompressionPreset*,
//     VTDecompressionSession*, VTDecompressionOutput*, VTDecompressionMulti*, VTDecodeFrame*, VTDecodeInfo*,
//     kVTDecodeFrame*, kVTDecompressionProperty*, kVTDecompressionResolution*, VTSessionCopySerializableProperties,
//     kVTPropertyType_EnumerationOrNumber*, kVTPropertyTypeKey_*,
//     kVTPropertyReadWriteStatus*, kVTPropertySupportedValue*, kVTPropertyDocumentation*, kVTPropertyShouldBeSerialized*,
//     kVTVideoEncoder*, kVTVideoDecoder*, VTCopyVideoEncoderList, VTCopySupportedPropertyDictionaryForEncoder,
//     kVTSampleAttachment*, kVTMultiPass*, VTMultiPass*, VTFrameSilo*, kVTFrameSilo*, kVTUnlimitedFrameDelayCount
// Compression properties the writer's settings do not reach yet: kVTCompressionProperty* (the ones not
//     declared in VTCompressionProperties.swift), kVTProfileLevel* (the writer takes AVVideoProfileLevelKey's
//     values instead), kVTH264Entropy*, kVTQPModulation*, kVTHDRPerFrame*, kVTAlphaChannel*; HDR10+ metadata
//     generation and SDR range preservation (the encoders here write SDR): VTHDRPerFrameMetadataGeneration*,
//     kVTHDRMetadataInsertionMode_RequestSDRRangePreservation
// Pixel transfer properties beyond the scaling mode and real time (the destination's colour tags, ICC profile,
//     aspect ratio and clean aperture, the downsampling mode, colour correction): kVTPixelTransferPropertyKey_Destination*,
//     kVTPixelTransferPropertyKey_DownsamplingMode, kVTDownsamplingMode*, kVTColorCorrection*
// Frame processors (motion estimation, frame rate conversion, super resolution, motion blur, optical flow, temporal
//     noise filtering, low-latency effects), not built: VTFrameProcessor*, VTMotionEstimation*, kVTMotionEstimation*,
//     VTFrameRateConversion*, VTSuperResolution*, VTMotionBlur*, VTOpticalFlow*, VTTemporalNoise*, VTLowLatency*,
//     VTInt32Point, VTInt32Size
// What Linux cannot have: ProRes RAW processing (Apple's own decoder: VTRAWProcessing*, kVTRAWProcessing*), spatial and
//     stereo video (MV-HEVC, which Debian's x265 does not encode: kVTCameraCalibration*, kVTHeroEye*, kVTViewPacking*,
//     kVTProjectionKind*, VTIsStereo*), video extensions and professional codecs registered with the system
//     (VTExtensionProperties*, kVTExtensionProperties*, VTCopyRAWProcessorExtensionProperties,
//     VTCopyVideoDecoderExtensionProperties, VTRegisterProfessionalVideoWorkflowVideoDecoders,
//     VTRegisterProfessionalVideoWorkflowVideoEncoders, VTRegisterSupplementalVideoDecoderIfAvailable),
//     hardware codecs (VTIsHardwareEncodeSupported: no hardware encoder is used)
