import Foundation

// The attachment keys of a sample buffer as a whole (`kCMSampleBufferAttachmentKey_*`) and of
// its samples (`kCMSampleAttachmentKey_*`) that CMSampleBuffer.swift and CMSampleAttachments.swift
// do not already hold, with Apple's names and values. Which the package's readers and writers
// honour is said on each.

/// A sample buffer attachment: post `kCMSampleBufferConsumerNotification_BufferConsumed` once consumed (not posted here).
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_PostNotificationWhenConsumed: CFString = "PostNotificationWhenConsumed"
/// A sample buffer attachment: output resumes at this buffer after a discontinuity.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_ResumeOutput: CFString = "ResumeOutput"
/// A sample buffer attachment: the identifier of the transition this buffer begins.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_TransitionID: CFString = "TransitionID"
/// A sample buffer attachment: how much of the start of the buffer's decoded sound is not to be
/// played (an encoder's priming), as a `CMTime` dictionary; the asset reader attaches it to sound as it is stored.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_TrimDurationAtStart: CFString = "TrimDurationAtStart"
/// A sample buffer attachment: how much of the end of the buffer's decoded sound is not to be
/// played (the last packet's padding), as a `CMTime` dictionary; the asset reader attaches it to
/// sound as it is stored where the file says (FFmpeg's MPEG-4 reader gives the priming only).
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_TrimDurationAtEnd: CFString = "TrimDurationAtEnd"
/// A sample buffer attachment: the speed the buffer's media plays at.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_SpeedMultiplier: CFString = "SpeedMultiplier"
/// A sample buffer attachment: whether the buffer's media plays backwards.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_Reverse: CFString = "Reverse"
/// A sample buffer attachment: whether a gap before the buffer is filled with silence.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_FillDiscontinuitiesWithSilence: CFString = "FillDiscontinuitiesWithSilence"
/// A sample buffer attachment: the buffer marks a span with no media.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_EmptyMedia: CFString = "EmptyMedia"
/// A sample buffer attachment: the buffer marks the end of the media for good.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_PermanentEmptyMedia: CFString = "PermanentEmptyMedia"
/// A sample buffer attachment: an empty-media buffer is shown at once.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_DisplayEmptyMediaImmediately: CFString = "DisplayEmptyMediaImmediately"
/// A sample buffer attachment: the buffer ends the duration of the sample before it.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_EndsPreviousSampleDuration: CFString = "EndsPreviousSampleDuration"
/// A sample buffer attachment: the URL of the file a reference sample's data is in.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_SampleReferenceURL: CFString = "SampleReferenceURL"
/// A sample buffer attachment: the byte offset of a reference sample's data in its file.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_SampleReferenceByteOffset: CFString = "SampleReferenceByteOffset"
/// A sample buffer attachment: the number of pictures a gradual decoder refresh takes.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_GradualDecoderRefresh: CFString = "GradualDecoderRefresh"
/// A sample buffer attachment: the lens stabilization of a still image (`kCMSampleBufferLensStabilizationInfo_*`).
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_StillImageLensStabilizationInfo: CFString = "StillImageLensStabilizationInfo"
/// A sample buffer attachment: the camera's intrinsic matrix for the frame.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix: CFString = "CameraIntrinsicMatrix"
/// A sample buffer attachment: encode this picture as a keyframe; an asset writer input honours it.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_ForceKeyFrame: CFString = "ForceKeyFrame"

/// Lens stabilization was active for the still image.
nonisolated(unsafe) public let kCMSampleBufferLensStabilizationInfo_Active: CFString = "Active"
/// Lens stabilization was out of its range for the still image.
nonisolated(unsafe) public let kCMSampleBufferLensStabilizationInfo_OutOfRange: CFString = "OutOfRange"
/// Lens stabilization was unavailable for the still image.
nonisolated(unsafe) public let kCMSampleBufferLensStabilizationInfo_Unavailable: CFString = "Unavailable"
/// Lens stabilization was off for the still image (every camera here).
nonisolated(unsafe) public let kCMSampleBufferLensStabilizationInfo_Off: CFString = "Off"

/// A sample attachment: decoding can start at the sample, but pictures after it may need ones before.
nonisolated(unsafe) public let kCMSampleAttachmentKey_PartialSync: CFString = "PartialSync"
/// A sample attachment: the HEVC temporal level information of the sample.
nonisolated(unsafe) public let kCMSampleAttachmentKey_HEVCTemporalLevelInfo: CFString = "HEVCTemporalLevelInfo"
/// A sample attachment: the sample is an HEVC temporal sub-layer access picture.
nonisolated(unsafe) public let kCMSampleAttachmentKey_HEVCTemporalSubLayerAccess: CFString = "HEVCTemporalSubLayerAccess"
/// A sample attachment: the sample is an HEVC step-wise temporal sub-layer access picture.
nonisolated(unsafe) public let kCMSampleAttachmentKey_HEVCStepwiseTemporalSubLayerAccess: CFString = "HEVCStepwiseTemporalSubLayerAccess"
/// A sample attachment: the NAL unit type of an HEVC sync sample.
nonisolated(unsafe) public let kCMSampleAttachmentKey_HEVCSyncSampleNALUnitType: CFString = "HEVCSyncSampleNALUnitType"
/// A sample attachment: how many samples an audio decoder needs to refresh from this one.
nonisolated(unsafe) public let kCMSampleAttachmentKey_AudioIndependentSampleDecoderRefreshCount: CFString = "AudioIndependentSampleDecoderRefreshCount"
/// A sample attachment: the auxiliary data of an encrypted sample's subsamples.
nonisolated(unsafe) public let kCMSampleAttachmentKey_CryptorSubsampleAuxiliaryData: CFString = "CryptorSubsampleAuxiliaryData"
/// A sample attachment: the sample's HDR10+ metadata.
nonisolated(unsafe) public let kCMSampleAttachmentKey_HDR10PlusPerFrameData: CFString = "HDR10PlusPerFrameData"
