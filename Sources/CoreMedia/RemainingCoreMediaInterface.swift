// The parts of Apple's Core Media that LinuxAVFoundation does not offer yet, and why.
//
// Times, ranges and clocks; sample, block and format buffers for video, sound and timed ID3
// metadata; attachments. A name followed by a star stands for every name that starts so.
// `scripts/parity.py` counts them against Apple's headers (Parity/CoreMedia.md).

// Sample buffers made or filled in steps, and what they tell of their samples, not built yet:
//     CMSampleBufferCreateCopy, CMSampleBufferCreateWithMakeDataReadyHandler,
//     CMSampleBufferCreateForImageBufferWithMakeDataReadyHandler, CMSampleBufferMakeDataReady*, CMSampleBufferSetDataReady,
//     CMSampleBufferSetDataFailed, CMSampleBufferHasDataFailed, CMSampleBufferTrackDataReadiness, CMSampleBufferSetDataBuffer,
//     CMSampleBufferSetDataBufferFromAudioBufferList, CMSampleBufferInvalidate*, CMSampleBufferSetInvalidateCallback,
//     CMSampleBufferCallForEachSample, CMSampleBufferCallBlockForEachSample, CMSampleBufferGetSampleSize,
//     CMSampleBufferGetSampleSizeArray, CMSampleBufferGetOutputDecodeTimeStamp, CMSampleBufferGetOutputSampleTimingInfoArray,
//     CMSampleBufferGetAudioStreamPacketDescriptions*, CMAudioSampleBufferCreate*, CMSampleBufferGetTypeID,
//     kCMSampleBufferError*, kCMSampleBufferNotification*, kCMSampleBufferConduitNotification*,
//     kCMSampleBufferConsumerNotification*, CMPropagateAttachments, CMSetAttachments,
//     kCMSampleAttachmentKey_PostDecodeProcessingMetadata (no decoder here makes post-decode metadata)
// Block buffers built of several blocks, not built yet: CMBlockBufferAppendBufferReference, CMBlockBufferAppendMemoryBlock,
//     CMBlockBufferAssureBlockMemory, CMBlockBufferAccessDataBytes, CMBlockBufferCreateContiguous, CMBlockBufferCreateEmpty,
//     CMBlockBufferIsEmpty, CMBlockBufferIsRangeContiguous, CMBlockBufferCustomBlockSource*, CMBlockBufferGetTypeID,
//     kCMBlockBuffer*
// Format descriptions: the extension keys and values not set or read yet (kCMFormatDescription*, kCMMPEG2VideoProfile*,
//     kCMHEVCTemporalLevelInfoKey*), CMFormatDescriptionCreate, CMFormatDescriptionEqual,
//     CMFormatDescriptionEqualIgnoringExtensionKeys, CMFormatDescriptionGetTypeID, CMAudioFormatDescriptionEqual,
//     CMAudioFormatDescriptionMask, kCMAudioFormatDescriptionMask*, CMAudioFormatDescriptionCreateSummary,
//     CMAudioFormatDescriptionGetChannelLayout, CMAudioFormatDescriptionGetFormatList,
//     CMAudioFormatDescriptionGetMostCompatibleFormat, CMAudioFormatDescriptionGetRichestDecodableFormat,
//     CMVideoFormatDescriptionGetExtensionKeysCommonWithImageBuffers,
//     CMMuxedFormatDescription*
// QuickTime's sample descriptions as bytes (FFmpeg reads and writes them): CMAudioFormatDescriptionCopyAsBigEndian*,
//     CMAudioFormatDescriptionCreateFromBigEndian*, CMVideoFormatDescriptionCopyAsBigEndian*,
//     CMVideoFormatDescriptionCreateFromBigEndian*, CMMetadataFormatDescriptionCopyAsBigEndian*,
//     CMMetadataFormatDescriptionCreateFromBigEndian*, CMSwapBigEndian*, CMSwapHostEndian*, CMDoesBigEndian*,
//     CMImageDescriptionFlavor, kCMImageDescriptionFlavor*, CMSoundDescriptionFlavor, kCMSoundDescriptionFlavor*,
//     CMMetadataDescriptionFlavor, CMTextDescriptionFlavor, CMClosedCaptionDescriptionFlavor
// Text, closed captions, timecode and metadata other than timed ID3 (no such tracks are read or written yet):
//     CMTextFormatDescription*, kCMTextFormatDescription*, kCMTextMarkup*, kCMTextDisplay*, kCMTextJustification*,
//     kCMTextVertical*, CMTextDisplayFlags, CMTextJustificationValue, CMClosedCaption*, CMTimeCode*, kCMTimeCode*,
//     CMMetadataFormatDescription*, kCMMetadataFormatDescription*, kCMMetadataBase*, kCMMetadataIdentifier*,
//     kCMMetadataData*, CMMetadataData*, kCMMetadataKey*, CMMetadataCreate*
// Timebases, buffer queues, simple queues and memory pools, not built yet: CMTimebase*, kCMTimebase*, CMBufferQueue*,
//     kCMBufferQueue*, opaqueCMBufferQueueTriggerToken, CMBuffer, CMBufferCallbacks, CMBufferHandlers, CMBufferGet*, CMBufferCompare*, CMBufferValidation*,
//     CMItemIndex, CMSimpleQueue*, kCMSimpleQueue*, CMMemoryPool*, kCMMemoryPool*
// Clocks and time: CMClockGetAnchorTime, CMClockGetTypeID, CMClockInvalidate, CMClockMightDrift, CMSyncGet*, CMSyncMightDrift,
//     kCMClockError*, kCMSyncError*, not built yet; audio device clocks (Core Audio's devices, which Linux has not:
//     CMAudioClockCreate, CMAudioDeviceClock*)
// Tags and tagged buffer groups, which carry spatial and multi-layer video (no MV-HEVC is read or written here): CMTag*,
//     kCMTag*, CMTaggedBuffer*, CMMutableTagCollection, CMPackingType, CMProjectionType, CMSampleBufferCreateForTaggedBufferGroup,
//     CMSampleBufferGetTaggedBufferGroup, CMVideoFormatDescriptionCopyTagCollectionArray
