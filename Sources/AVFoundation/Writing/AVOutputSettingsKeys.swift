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
/// The settings key for the shape of the video's pixels: a dictionary of horizontal and vertical spacing.
public let AVVideoPixelAspectRatioKey = "PixelAspectRatio"
/// The pixel aspect ratio's horizontal spacing: a pixel is this wide...
public let AVVideoPixelAspectRatioHorizontalSpacingKey = "HorizontalSpacing"
/// The pixel aspect ratio's vertical spacing: ...for this high.
public let AVVideoPixelAspectRatioVerticalSpacingKey = "VerticalSpacing"
/// The settings key for the region of the frame shown in playback: a dictionary of width, height
/// and offsets, centred on the frame unless offset.
public let AVVideoCleanApertureKey = "CleanAperture"
/// The clean aperture's width, in pixels.
public let AVVideoCleanApertureWidthKey = "Width"
/// The clean aperture's height, in pixels.
public let AVVideoCleanApertureHeightKey = "Height"
/// How far the clean aperture's centre lies right of the frame's, in pixels.
public let AVVideoCleanApertureHorizontalOffsetKey = "HorizontalOffset"
/// How far the clean aperture's centre lies below the frame's, in pixels.
public let AVVideoCleanApertureVerticalOffsetKey = "VerticalOffset"
/// The settings key for how frames are scaled to the encoded size.
public let AVVideoScalingModeKey = "AVVideoScalingModeKey"
/// The profile and level chosen by the encoder, for H.264.
public let AVVideoProfileLevelH264HighAutoLevel = "H264_High_AutoLevel"
/// The main profile with the encoder's choice of level, for H.264.
public let AVVideoProfileLevelH264MainAutoLevel = "H264_Main_AutoLevel"
/// The compression property for H.264's entropy coding: CAVLC or CABAC.
public let AVVideoH264EntropyModeKey = "H264EntropyMode"
/// Context-adaptive variable-length coding, the only entropy coding of H.264's Baseline profile.
public let AVVideoH264EntropyModeCAVLC = "CAVLC"
/// Context-adaptive binary arithmetic coding: smaller files, for the Main and High profiles.
public let AVVideoH264EntropyModeCABAC = "CABAC"
/// The compression property for the frames a second no decoder may drop; the others are encoded as droppable frames.
public let AVVideoAverageNonDroppableFrameRateKey = "AverageNonDroppableFrameRate"
/// The settings key for the colour the video is in: a dictionary of primaries, transfer function and matrix.
public let AVVideoColorPropertiesKey = "AVVideoColorPropertiesKey"
/// The colour property for the colour primaries.
public let AVVideoColorPrimariesKey = "ColorPrimaries"
/// The colour property for the transfer function.
public let AVVideoTransferFunctionKey = "TransferFunction"
/// The colour property for the Y'CbCr matrix.
public let AVVideoYCbCrMatrixKey = "YCbCrMatrix"
