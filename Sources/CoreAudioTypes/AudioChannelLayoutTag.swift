/// The number of channels a layout tag names: its low 16 bits.
public func AudioChannelLayoutTag_GetNumberOfChannels(_ layoutTag: AudioChannelLayoutTag) -> UInt32 { layoutTag & 0xFFFF }

/// The layout is described by its channel descriptions.
public let kAudioChannelLayoutTag_UseChannelDescriptions: AudioChannelLayoutTag = 0
/// The layout is described by its channel bitmap.
public let kAudioChannelLayoutTag_UseChannelBitmap: AudioChannelLayoutTag = 1 << 16
/// One channel.
public let kAudioChannelLayoutTag_Mono: AudioChannelLayoutTag = (100 << 16) | 1
/// Two channels: left and right.
public let kAudioChannelLayoutTag_Stereo: AudioChannelLayoutTag = (101 << 16) | 2
/// Two channels for headphones: left and right.
public let kAudioChannelLayoutTag_StereoHeadphones: AudioChannelLayoutTag = (102 << 16) | 2
/// Three channels: left, right, centre (MPEG 3.0 A).
public let kAudioChannelLayoutTag_MPEG_3_0_A: AudioChannelLayoutTag = (113 << 16) | 3
/// Four channels: left, right, centre, centre surround (MPEG 4.0 A).
public let kAudioChannelLayoutTag_MPEG_4_0_A: AudioChannelLayoutTag = (115 << 16) | 4
/// Five channels: left, right, centre, left surround, right surround (MPEG 5.0 A).
public let kAudioChannelLayoutTag_MPEG_5_0_A: AudioChannelLayoutTag = (117 << 16) | 5
/// Six channels: left, right, centre, LFE, left surround, right surround (MPEG 5.1 A).
public let kAudioChannelLayoutTag_MPEG_5_1_A: AudioChannelLayoutTag = (121 << 16) | 6
/// Six channels: left, centre, right, left surround, right surround, LFE (MPEG 5.1 C).
public let kAudioChannelLayoutTag_MPEG_5_1_C: AudioChannelLayoutTag = (123 << 16) | 6
/// Six channels: centre, left, right, left surround, right surround, LFE (MPEG 5.1 D, AAC's order).
public let kAudioChannelLayoutTag_MPEG_5_1_D: AudioChannelLayoutTag = (124 << 16) | 6
/// Six channels in AAC's order: MPEG 5.1 D.
public let kAudioChannelLayoutTag_AAC_5_1: AudioChannelLayoutTag = kAudioChannelLayoutTag_MPEG_5_1_D
/// Eight channels: MPEG 7.1 A.
public let kAudioChannelLayoutTag_MPEG_7_1_A: AudioChannelLayoutTag = (126 << 16) | 8
/// Channels with no known layout: the low 16 bits give their number.
public let kAudioChannelLayoutTag_DiscreteInOrder: AudioChannelLayoutTag = 147 << 16
/// An unknown layout: the low 16 bits give the number of channels.
public let kAudioChannelLayoutTag_Unknown: AudioChannelLayoutTag = 0xFFFF_0000

/// The left channel.
public let kAudioChannelLabel_Left: AudioChannelLabel = 1
/// The right channel.
public let kAudioChannelLabel_Right: AudioChannelLabel = 2
/// The centre channel.
public let kAudioChannelLabel_Center: AudioChannelLabel = 3
/// The low-frequency effects channel.
public let kAudioChannelLabel_LFEScreen: AudioChannelLabel = 4
/// The left surround channel.
public let kAudioChannelLabel_LeftSurround: AudioChannelLabel = 5
/// The right surround channel.
public let kAudioChannelLabel_RightSurround: AudioChannelLabel = 6
/// A mono channel.
public let kAudioChannelLabel_Mono: AudioChannelLabel = 42
/// A channel with no label.
public let kAudioChannelLabel_Unused: AudioChannelLabel = 0
/// A channel whose label is unknown.
public let kAudioChannelLabel_Unknown: AudioChannelLabel = 0xFFFF_FFFF
