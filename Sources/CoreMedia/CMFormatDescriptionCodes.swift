import Foundation

// The four-character codes Apple's CMFormatDescription.h names for media types, codecs, pixel
// formats, muxed streams, captions, text, subtitles and timecodes. A format description may carry
// any of them; which ones the package can decode or encode is said where media is read and written.

/// Auxiliary Picture: 'auxv'.
public let kCMMediaType_AuxiliaryPicture: CMMediaType = 0x6175_7876
/// Closed Caption: 'clcp'.
public let kCMMediaType_ClosedCaption: CMMediaType = 0x636C_6370
/// Subtitle: 'sbtl'.
public let kCMMediaType_Subtitle: CMMediaType = 0x7362_746C
/// Tagged Buffer Group: 'tbgr'.
public let kCMMediaType_TaggedBufferGroup: CMMediaType = 0x7462_6772
/// Time Code: 'tmcd'.
public let kCMMediaType_TimeCode: CMMediaType = 0x746D_6364

/// A four-character code naming an audio codec that Core Media defines beyond Core Audio's formats.
public typealias CMAudioCodecType = FourCharCode

/// AAC Audible Protected: 'aaac'.
public let kCMAudioCodecType_AAC_AudibleProtected: CMAudioCodecType = 0x6161_6163
/// AAC LCProtected: 'paac'.
public let kCMAudioCodecType_AAC_LCProtected: CMAudioCodecType = 0x7061_6163

/// 16BE555: 16.
public let kCMPixelFormat_16BE555: CMPixelFormatType = 16
/// 16BE565: 'B565'.
public let kCMPixelFormat_16BE565: CMPixelFormatType = 0x4235_3635
/// 16LE555: 'L555'.
public let kCMPixelFormat_16LE555: CMPixelFormatType = 0x4C35_3535
/// 16LE5551: '5551'.
public let kCMPixelFormat_16LE5551: CMPixelFormatType = 0x3535_3531
/// 16LE565: 'L565'.
public let kCMPixelFormat_16LE565: CMPixelFormatType = 0x4C35_3635
/// 24RGB: 24.
public let kCMPixelFormat_24RGB: CMPixelFormatType = 24
/// 32ARGB: 32.
public let kCMPixelFormat_32ARGB: CMPixelFormatType = 32
/// 32BGRA: 'BGRA'.
public let kCMPixelFormat_32BGRA: CMPixelFormatType = 0x4247_5241
/// 422Yp Cb Cr 10: 'v210'.
public let kCMPixelFormat_422YpCbCr10: CMPixelFormatType = 0x7632_3130
/// 422Yp Cb Cr 16: 'v216'.
public let kCMPixelFormat_422YpCbCr16: CMPixelFormatType = 0x7632_3136
/// 422Yp Cb Cr 8: '2vuy'.
public let kCMPixelFormat_422YpCbCr8: CMPixelFormatType = 0x3276_7579
/// 422Yp Cb Cr 8 yuvs: 'yuvs'.
public let kCMPixelFormat_422YpCbCr8_yuvs: CMPixelFormatType = 0x7975_7673
/// 4444Yp Cb Cr A8: 'v408'.
public let kCMPixelFormat_4444YpCbCrA8: CMPixelFormatType = 0x7634_3038
/// 444Yp Cb Cr 10: 'v410'.
public let kCMPixelFormat_444YpCbCr10: CMPixelFormatType = 0x7634_3130
/// 444Yp Cb Cr 8: 'v308'.
public let kCMPixelFormat_444YpCbCr8: CMPixelFormatType = 0x7633_3038
/// 8Indexed Gray White Is Zero: 40.
public let kCMPixelFormat_8IndexedGray_WhiteIsZero: CMPixelFormatType = 40

/// 422Yp Cb Cr 8: '2vuy'.
public let kCMVideoCodecType_422YpCbCr8: CMVideoCodecType = 0x3276_7579
/// AV1: 'av01'.
public let kCMVideoCodecType_AV1: CMVideoCodecType = 0x6176_3031
/// Animation: 'rle '.
public let kCMVideoCodecType_Animation: CMVideoCodecType = 0x726C_6520
/// Apple ProRes 422: 'apcn'.
public let kCMVideoCodecType_AppleProRes422: CMVideoCodecType = 0x6170_636E
/// Apple ProRes 422HQ: 'apch'.
public let kCMVideoCodecType_AppleProRes422HQ: CMVideoCodecType = 0x6170_6368
/// Apple ProRes 422LT: 'apcs'.
public let kCMVideoCodecType_AppleProRes422LT: CMVideoCodecType = 0x6170_6373
/// Apple ProRes 422Proxy: 'apco'.
public let kCMVideoCodecType_AppleProRes422Proxy: CMVideoCodecType = 0x6170_636F
/// Apple ProRes 4444: 'ap4h'.
public let kCMVideoCodecType_AppleProRes4444: CMVideoCodecType = 0x6170_3468
/// Apple ProRes 4444XQ: 'ap4x'.
public let kCMVideoCodecType_AppleProRes4444XQ: CMVideoCodecType = 0x6170_3478
/// Apple ProRes RAW: 'aprn'.
public let kCMVideoCodecType_AppleProResRAW: CMVideoCodecType = 0x6170_726E
/// Apple ProRes RAWHQ: 'aprh'.
public let kCMVideoCodecType_AppleProResRAWHQ: CMVideoCodecType = 0x6170_7268
/// Cinepak: 'cvid'.
public let kCMVideoCodecType_Cinepak: CMVideoCodecType = 0x6376_6964
/// DVCNTSC: 'dvc '.
public let kCMVideoCodecType_DVCNTSC: CMVideoCodecType = 0x6476_6320
/// DVCPAL: 'dvcp'.
public let kCMVideoCodecType_DVCPAL: CMVideoCodecType = 0x6476_6370
/// DVCPROHD1080i 50: 'dvh5'.
public let kCMVideoCodecType_DVCPROHD1080i50: CMVideoCodecType = 0x6476_6835
/// DVCPROHD1080i 60: 'dvh6'.
public let kCMVideoCodecType_DVCPROHD1080i60: CMVideoCodecType = 0x6476_6836
/// DVCPROHD1080p 25: 'dvh2'.
public let kCMVideoCodecType_DVCPROHD1080p25: CMVideoCodecType = 0x6476_6832
/// DVCPROHD1080p 30: 'dvh3'.
public let kCMVideoCodecType_DVCPROHD1080p30: CMVideoCodecType = 0x6476_6833
/// DVCPROHD720p 50: 'dvhq'.
public let kCMVideoCodecType_DVCPROHD720p50: CMVideoCodecType = 0x6476_6871
/// DVCPROHD720p 60: 'dvhp'.
public let kCMVideoCodecType_DVCPROHD720p60: CMVideoCodecType = 0x6476_6870
/// DVCPro 50NTSC: 'dv5n'.
public let kCMVideoCodecType_DVCPro50NTSC: CMVideoCodecType = 0x6476_356E
/// DVCPro 50PAL: 'dv5p'.
public let kCMVideoCodecType_DVCPro50PAL: CMVideoCodecType = 0x6476_3570
/// DVCPro PAL: 'dvpp'.
public let kCMVideoCodecType_DVCProPAL: CMVideoCodecType = 0x6476_7070
/// Depth HEVC: 'deph'.
public let kCMVideoCodecType_DepthHEVC: CMVideoCodecType = 0x6465_7068
/// Disparity HEVC: 'dish'.
public let kCMVideoCodecType_DisparityHEVC: CMVideoCodecType = 0x6469_7368
/// Dolby Vision HEVC: 'dvh1'.
public let kCMVideoCodecType_DolbyVisionHEVC: CMVideoCodecType = 0x6476_6831
/// H263: 'h263'.
public let kCMVideoCodecType_H263: CMVideoCodecType = 0x6832_3633
/// HEVCWith Alpha: 'muxa'.
public let kCMVideoCodecType_HEVCWithAlpha: CMVideoCodecType = 0x6D75_7861
/// JPEG XL: 'jxlc'.
public let kCMVideoCodecType_JPEG_XL: CMVideoCodecType = 0x6A78_6C63
/// MPEG1Video: 'mp1v'.
public let kCMVideoCodecType_MPEG1Video: CMVideoCodecType = 0x6D70_3176
/// MPEG2Video: 'mp2v'.
public let kCMVideoCodecType_MPEG2Video: CMVideoCodecType = 0x6D70_3276
/// MPEG4Video: 'mp4v'.
public let kCMVideoCodecType_MPEG4Video: CMVideoCodecType = 0x6D70_3476
/// Sorenson Video: 'SVQ1'.
public let kCMVideoCodecType_SorensonVideo: CMVideoCodecType = 0x5356_5131
/// Sorenson Video 3: 'SVQ3'.
public let kCMVideoCodecType_SorensonVideo3: CMVideoCodecType = 0x5356_5133
/// VP9: 'vp09'.
public let kCMVideoCodecType_VP9: CMVideoCodecType = 0x7670_3039

/// A four-character code naming a kind of muxed stream.
public typealias CMMuxedStreamType = FourCharCode

/// DV: 'dv  '.
public let kCMMuxedStreamType_DV: CMMuxedStreamType = 0x6476_2020
/// Embedded Device Screen Recording: 'isr '.
public let kCMMuxedStreamType_EmbeddedDeviceScreenRecording: CMMuxedStreamType = 0x6973_7220
/// MPEG1System: 'mp1s'.
public let kCMMuxedStreamType_MPEG1System: CMMuxedStreamType = 0x6D70_3173
/// MPEG2Program: 'mp2p'.
public let kCMMuxedStreamType_MPEG2Program: CMMuxedStreamType = 0x6D70_3270
/// MPEG2Transport: 'mp2t'.
public let kCMMuxedStreamType_MPEG2Transport: CMMuxedStreamType = 0x6D70_3274

/// A four-character code naming a closed-caption format.
public typealias CMClosedCaptionFormatType = FourCharCode

/// ATSC: 'atcc'.
public let kCMClosedCaptionFormatType_ATSC: CMClosedCaptionFormatType = 0x6174_6363
/// CEA608: 'c608'.
public let kCMClosedCaptionFormatType_CEA608: CMClosedCaptionFormatType = 0x6336_3038
/// CEA708: 'c708'.
public let kCMClosedCaptionFormatType_CEA708: CMClosedCaptionFormatType = 0x6337_3038

/// A four-character code naming a text format.
public typealias CMTextFormatType = FourCharCode

/// 3GText: 'tx3g'.
public let kCMTextFormatType_3GText: CMTextFormatType = 0x7478_3367
/// QTText: 'text'.
public let kCMTextFormatType_QTText: CMTextFormatType = 0x7465_7874

/// A four-character code naming a subtitle format.
public typealias CMSubtitleFormatType = FourCharCode

/// 3GText: 'tx3g'.
public let kCMSubtitleFormatType_3GText: CMSubtitleFormatType = 0x7478_3367
/// Web VTT: 'wvtt'.
public let kCMSubtitleFormatType_WebVTT: CMSubtitleFormatType = 0x7776_7474

/// A four-character code naming a timecode format.
public typealias CMTimeCodeFormatType = FourCharCode

/// Counter 32: 'cn32'.
public let kCMTimeCodeFormatType_Counter32: CMTimeCodeFormatType = 0x636E_3332
/// Counter 64: 'cn64'.
public let kCMTimeCodeFormatType_Counter64: CMTimeCodeFormatType = 0x636E_3634
/// Timecode 32: 'tmcd'.
public let kCMTimeCodeFormatType_TimeCode32: CMTimeCodeFormatType = 0x746D_6364
/// Timecode 64: 'tc64'.
public let kCMTimeCodeFormatType_TimeCode64: CMTimeCodeFormatType = 0x7463_3634
