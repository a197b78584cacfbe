// The parts of Apple's VideoToolbox that LinuxAVFoundation does not offer yet, and why.
//
// `import VideoToolbox` gives compression and decompression sessions (H.264 and HEVC through
// FFmpeg), the compression property keys and values that output settings are written with, pixel
// transfer and rotation sessions, images from pixel buffers, sessions' properties and Apple's
// error codes. A name
// followed by a star stands for every name that starts so. `scripts/parity.py` counts them
// against Apple's headers (Parity/VideoToolbox.md).

// What the codec sessions do not have yet: the compression presets, multi-image (MV-HEVC) output, the
//     decoder's properties beyond real time and its pool, reduced-resolution decoding, serializable properties,
//     the encoder list's other keys and per-encoder property lists, the encoder's sample attachments, multipass
//     encoding and its frame silos, frame options besides forcing a keyframe, the multi-image and tagged-buffer
//     decode forms, the black pixel buffer:
//     kVTCompressionPreset*, VTCompressionSessionEncodeMultiImageFrame*, VTCompressionSessionBeginPass,
//     VTCompressionSessionEndPass, VTCompressionSessionGetTimeRangesForNextPass, VTCompressionOutputCallbackRecord,
//     VTDecompressionMulti*, VTDecompressionSessionSetMultiImageCallback, VTDecompressionSessionDecodeFrameWithOptions*,
//     VTDecompressionSessionCopyBlackPixelBuffer, VTDecompressionSessionGetTypeID, VTCompressionSessionGetTypeID,
//     VTDecodeFrame*, kVTDecodeFrame*, kVTDecompressionProperty*, kVTDecompressionResolution*, VTSessionCopySerializableProperties,
//     kVTPropertyType_EnumerationOrNumber*, kVTPropertyTypeKey_*,
//     kVTPropertyReadWriteStatus*, kVTPropertySupportedValue*, kVTPropertyDocumentation*, kVTPropertyShouldBeSerialized*,
//     kVTVideoEncoder*, kVTVideoDecoder*, VTCopySupportedPropertyDictionaryForEncoder, kVTEncodeFrameOptionKey*,
//     kVTSampleAttachment*, kVTMultiPass*, VTMultiPass*, VTFrameSilo*, kVTFrameSilo*, kVTCompressionPropertyKey*,
//     kVTProfileLevel*, kVTH264Entropy*, VTCompressionSessionOptionFlags, VTDecompressionOutputMultiImageCallback,
//     VTDecompressionSessionDecodeFrameWithMultiImageCapableOutputHandler
// C names Swift spells as overloads (Apple's Swift interface has the overload only, as here):
//     VTCompressionSessionEncodeFrameWithOutputHandler (VTCompressionSessionEncodeFrame(_:...:outputHandler:)),
//     VTDecompressionSessionDecodeFrameWithOutputHandler (VTDecompressionSessionDecodeFrame(_:...:outputHandler:))
// Compression properties neither the writer's settings nor the sessions reach yet: kVTCompressionProperty* (the
//     ones not declared in VTCompressionProperties.swift), kVTProfileLevel* (the levels not declared there),
//     kVTQPModulation*, kVTHDRPerFrame*, kVTAlphaChannel*; HDR10+ metadata
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
