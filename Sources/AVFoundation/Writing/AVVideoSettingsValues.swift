/// Crops the video to remove the edge processing region, preserving the aspect ratio of the cropped source by
/// reducing the specified width or height, if necessary; it doesn't scale a small source up to larger dimensions.
public let AVVideoScalingModeFit = "AVVideoScalingModeFit"
/// Crops the video to remove the edge processing region and scales the remainder to the destination area,
/// without preserving the aspect ratio.
public let AVVideoScalingModeResize = "AVVideoScalingModeResize"
/// Preserves the aspect ratio of the source and fills the remaining areas with black to fit the destination dimensions.
public let AVVideoScalingModeResizeAspect = "AVVideoScalingModeResizeAspect"
/// Crops the video to fit the destination dimensions, preserving the aspect ratio of the source video.
public let AVVideoScalingModeResizeAspectFill = "AVVideoScalingModeResizeAspectFill"

/// H.264's Baseline profile at level 3.0.
public let AVVideoProfileLevelH264Baseline30 = "H264_Baseline_3_0"
/// H.264's Baseline profile at level 3.1.
public let AVVideoProfileLevelH264Baseline31 = "H264_Baseline_3_1"
/// H.264's Baseline profile at level 4.1.
public let AVVideoProfileLevelH264Baseline41 = "H264_Baseline_4_1"
/// H.264's Baseline profile with the encoder's choice of level.
public let AVVideoProfileLevelH264BaselineAutoLevel = "H264_Baseline_AutoLevel"
/// H.264's Main profile at level 3.0.
public let AVVideoProfileLevelH264Main30 = "H264_Main_3_0"
/// H.264's Main profile at level 3.1.
public let AVVideoProfileLevelH264Main31 = "H264_Main_3_1"
/// H.264's Main profile at level 3.2.
public let AVVideoProfileLevelH264Main32 = "H264_Main_3_2"
/// H.264's Main profile at level 4.1.
public let AVVideoProfileLevelH264Main41 = "H264_Main_4_1"
/// H.264's High profile at level 4.0.
public let AVVideoProfileLevelH264High40 = "H264_High_4_0"
/// H.264's High profile at level 4.1.
public let AVVideoProfileLevelH264High41 = "H264_High_4_1"

/// The ITU-R BT.709 colour primaries.
public let AVVideoColorPrimaries_ITU_R_709_2 = "ITU_R_709_2"
/// The EBU Tech. 3213 colour primaries.
public let AVVideoColorPrimaries_EBU_3213 = "EBU_3213"
/// The SMPTE C colour primaries.
public let AVVideoColorPrimaries_SMPTE_C = "SMPTE_C"
/// The DCI P3 colour primaries with the D65 white point.
public let AVVideoColorPrimaries_P3_D65 = "P3_D65"
/// The ITU-R BT.2020 colour primaries.
public let AVVideoColorPrimaries_ITU_R_2020 = "ITU_R_2020"
/// The ITU-R BT.709 transfer function.
public let AVVideoTransferFunction_ITU_R_709_2 = "ITU_R_709_2"
/// The SMPTE 240M-1995 transfer function.
public let AVVideoTransferFunction_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The SMPTE ST 2084 (PQ) transfer function of HDR10.
public let AVVideoTransferFunction_SMPTE_ST_2084_PQ = "SMPTE_ST_2084_PQ"
/// The ITU-R BT.2100 hybrid log-gamma transfer function.
public let AVVideoTransferFunction_ITU_R_2100_HLG = "ITU_R_2100_HLG"
/// A linear transfer function.
public let AVVideoTransferFunction_Linear = "Linear"
/// The ITU-R BT.709 Y'CbCr matrix.
public let AVVideoYCbCrMatrix_ITU_R_709_2 = "ITU_R_709_2"
/// The ITU-R BT.601 Y'CbCr matrix.
public let AVVideoYCbCrMatrix_ITU_R_601_4 = "ITU_R_601_4"
/// The SMPTE 240M-1995 Y'CbCr matrix.
public let AVVideoYCbCrMatrix_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The ITU-R BT.2020 Y'CbCr matrix.
public let AVVideoYCbCrMatrix_ITU_R_2020 = "ITU_R_2020"
