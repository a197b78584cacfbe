import CoreMedia

/// A Core Audio channel layout in FFmpeg's terms: the channels as FFmpeg's AV_CH_* mask (which
/// fixes FFmpeg's order), and for each channel in that order the channel of the Core Audio layout it is.
package struct ChannelLayoutMapping: Sendable, Equatable {
    /// FFmpeg's channel mask.
    package var mask: UInt64
    /// For each channel in FFmpeg's order, its index in the Core Audio layout.
    package var map: [Int32]

    /// The mapping of a layout tag; nil for tags with no FFmpeg layout here.
    package init?(tag: AudioChannelLayoutTag) {
        // FFmpeg's channel bits: FL 0x1, FR 0x2, FC 0x4, LFE 0x8, BL 0x10, BR 0x20, FLC 0x40, FRC 0x80, BC 0x100.
        switch tag {
        case kAudioChannelLayoutTag_Mono: (mask, map) = (0x4, [0])
        case kAudioChannelLayoutTag_Stereo, kAudioChannelLayoutTag_StereoHeadphones: (mask, map) = (0x3, [0, 1])
        case kAudioChannelLayoutTag_MPEG_3_0_A: (mask, map) = (0x7, [0, 1, 2])  // L R C
        case kAudioChannelLayoutTag_MPEG_4_0_A: (mask, map) = (0x107, [0, 1, 2, 3])  // L R C Cs
        case kAudioChannelLayoutTag_MPEG_5_0_A: (mask, map) = (0x37, [0, 1, 2, 3, 4])  // L R C Ls Rs
        case kAudioChannelLayoutTag_MPEG_5_1_A: (mask, map) = (0x3F, [0, 1, 2, 3, 4, 5])  // L R C LFE Ls Rs
        case kAudioChannelLayoutTag_MPEG_5_1_C: (mask, map) = (0x3F, [0, 2, 1, 5, 3, 4])  // L C R Ls Rs LFE
        case kAudioChannelLayoutTag_MPEG_5_1_D: (mask, map) = (0x3F, [1, 2, 0, 5, 3, 4])  // C L R Ls Rs LFE
        case kAudioChannelLayoutTag_MPEG_7_1_A: (mask, map) = (0xFF, [0, 1, 2, 3, 4, 5, 6, 7])  // L R C LFE Ls Rs Lc Rc
        default: return nil
        }
    }

    /// The number of channels.
    package var channelCount: Int { map.count }
}
