import CoreMedia

// Video Toolbox's error codes, as Apple's VTErrors.h numbers them.

/// The session does not have the property, or cannot take the value given.
public let kVTPropertyNotSupportedErr: OSStatus = -12900
/// The property cannot be set.
public let kVTPropertyReadOnlyErr: OSStatus = -12901
/// A parameter is not valid.
public let kVTParameterErr: OSStatus = -12902
/// The session has been invalidated.
public let kVTInvalidSessionErr: OSStatus = -12903
/// Memory could not be allocated.
public let kVTAllocationFailedErr: OSStatus = -12904
/// The transfer between the two buffers' formats or sizes is not supported.
public let kVTPixelTransferNotSupportedErr: OSStatus = -12905
/// No decoder was found for the format.
public let kVTCouldNotFindVideoDecoderErr: OSStatus = -12906
/// The codec could not be made.
public let kVTCouldNotCreateInstanceErr: OSStatus = -12907
/// No encoder was found for the codec.
public let kVTCouldNotFindVideoEncoderErr: OSStatus = -12908
/// The decoder found the data damaged.
public let kVTVideoDecoderBadDataErr: OSStatus = -12909
/// The decoder does not take the data's format.
public let kVTVideoDecoderUnsupportedDataFormatErr: OSStatus = -12910
/// The decoder failed.
public let kVTVideoDecoderMalfunctionErr: OSStatus = -12911
/// The encoder failed.
public let kVTVideoEncoderMalfunctionErr: OSStatus = -12912
/// The decoder cannot be used now.
public let kVTVideoDecoderNotAvailableNowErr: OSStatus = -12913
/// The rotation is not supported.
public let kVTImageRotationNotSupportedErr: OSStatus = -12914
/// The rotation between the two buffers is not supported.
public let kVTPixelRotationNotSupportedErr: OSStatus = -12914
/// The encoder cannot be used now.
public let kVTVideoEncoderNotAvailableNowErr: OSStatus = -12915
/// The session cannot change to the new format description.
public let kVTFormatDescriptionChangeNotSupportedErr: OSStatus = -12916
/// The source has too little colour information for the conversion.
public let kVTInsufficientSourceColorDataErr: OSStatus = -12917
/// The colour correction could not be prepared.
public let kVTCouldNotCreateColorCorrectionDataErr: OSStatus = -12918
/// A colour transform failed.
public let kVTColorSyncTransformConvertFailedErr: OSStatus = -12919
/// The decoder is not authorized.
public let kVTVideoDecoderAuthorizationErr: OSStatus = -12210
/// The encoder is not authorized.
public let kVTVideoEncoderAuthorizationErr: OSStatus = -12211
/// A colour-corrected transfer failed.
public let kVTColorCorrectionPixelTransferFailedErr: OSStatus = -12212
/// The multipass storage belongs to another session.
public let kVTMultiPassStorageIdentifierMismatchErr: OSStatus = -12213
/// The multipass storage is not valid.
public let kVTMultiPassStorageInvalidErr: OSStatus = -12214
/// A frame's time stamp is not valid for the frame silo.
public let kVTFrameSiloInvalidTimeStampErr: OSStatus = -12215
/// The time range is not valid for the frame silo.
public let kVTFrameSiloInvalidTimeRangeErr: OSStatus = -12216
/// No temporal filter was found.
public let kVTCouldNotFindTemporalFilterErr: OSStatus = -12217
/// The transfer is not permitted.
public let kVTPixelTransferNotPermittedErr: OSStatus = -12218
/// A colour-corrected rotation failed.
public let kVTColorCorrectionImageRotationFailedErr: OSStatus = -12219
/// The decoder was removed.
public let kVTVideoDecoderRemovedErr: OSStatus = -17690
/// The session failed.
public let kVTSessionMalfunctionErr: OSStatus = -17691
/// The decoder needs Rosetta.
public let kVTVideoDecoderNeedsRosettaErr: OSStatus = -17692
/// The encoder needs Rosetta.
public let kVTVideoEncoderNeedsRosettaErr: OSStatus = -17693
/// A frame the decoder refers to is missing.
public let kVTVideoDecoderReferenceMissingErr: OSStatus = -17694
/// The decoder could not deliver its output.
public let kVTVideoDecoderCallbackMessagingErr: OSStatus = -17695
/// The decoder failed for an unknown reason.
public let kVTVideoDecoderUnknownErr: OSStatus = -17696
/// The codec extension is disabled.
public let kVTExtensionDisabledErr: OSStatus = -17697
/// The MV-HEVC layer IDs do not match.
public let kVTVideoEncoderMVHEVCVideoLayerIDsMismatchErr: OSStatus = -17698
/// A tagged buffer group could not be output.
public let kVTCouldNotOutputTaggedBufferGroupErr: OSStatus = -17699
/// The codec extension was not found.
public let kVTCouldNotFindExtensionErr: OSStatus = -19510
/// Two codec extensions conflict.
public let kVTExtensionConflictErr: OSStatus = -19511
/// The camera's white balance was not locked for the encoder.
public let kVTVideoEncoderAutoWhiteBalanceNotLockedErr: OSStatus = -19512
