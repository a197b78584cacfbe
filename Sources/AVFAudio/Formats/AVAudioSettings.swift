// The keys of the settings dictionaries that describe audio formats, for recorders, files,
// converters and asset writers alike.

/// The settings key for the audio format: an `AudioFormatID`.
public let AVFormatIDKey = "AVFormatIDKey"
/// The settings key for the sample rate in hertz.
public let AVSampleRateKey = "AVSampleRateKey"
/// The settings key for the number of channels.
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
/// The settings key for the encoded bit rate, in bits per second.
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"
/// The settings key for the encoded bit rate per channel.
public let AVEncoderBitRatePerChannelKey = "AVEncoderBitRatePerChannelKey"
/// The settings key for the channel layout.
public let AVChannelLayoutKey = "AVChannelLayoutKey"
/// The settings key for the bit depth of linear PCM.
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
/// Whether linear PCM samples are floating point.
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
/// Whether linear PCM samples are big-endian.
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
/// Whether linear PCM channels are in separate buffers rather than interleaved.
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
/// The settings key for the encoder's quality: an `AVAudioQuality` raw value.
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
/// The settings key for the encoder's quality with the variable bit rate strategy.
public let AVEncoderAudioQualityForVBRKey = "AVEncoderAudioQualityForVBRKey"
/// The settings key for how the encoder spends bits: one of the `AVAudioBitRateStrategy_` values.
public let AVEncoderBitRateStrategyKey = "AVEncoderBitRateStrategyKey"
/// The settings key for the bit depth the encoder is given, from 8 to 32.
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"
/// The settings key for the sample rate converter's algorithm: one of the `AVSampleRateConverterAlgorithm_` values.
public let AVSampleRateConverterAlgorithmKey = "AVSampleRateConverterAlgorithmKey"
/// The settings key for the sample rate converter's quality: an `AVAudioQuality` raw value.
public let AVSampleRateConverterAudioQualityKey = "AVSampleRateConverterAudioQualityKey"

/// A constant bit rate.
public let AVAudioBitRateStrategy_Constant = "AVAudioBitRateStrategy_Constant"
/// An average bit rate over the long term.
public let AVAudioBitRateStrategy_LongTermAverage = "AVAudioBitRateStrategy_LongTermAverage"
/// A variable bit rate within limits.
public let AVAudioBitRateStrategy_VariableConstrained = "AVAudioBitRateStrategy_VariableConstrained"
/// A variable bit rate.
public let AVAudioBitRateStrategy_Variable = "AVAudioBitRateStrategy_Variable"

/// The sample rate converter's usual algorithm.
public let AVSampleRateConverterAlgorithm_Normal = "AVSampleRateConverterAlgorithm_Normal"
/// The sample rate converter's algorithm for mastering: slower and better.
public let AVSampleRateConverterAlgorithm_Mastering = "AVSampleRateConverterAlgorithm_Mastering"
/// The sample rate converter's minimum-phase algorithm.
public let AVSampleRateConverterAlgorithm_MinimumPhase = "AVSampleRateConverterAlgorithm_MinimumPhase"

/// How good encoding or sample rate conversion is, against how fast.
public enum AVAudioQuality: Int, @unchecked Sendable {
    /// The least quality, the fastest.
    case min = 0
    /// Low quality.
    case low = 0x20
    /// Medium quality.
    case medium = 0x40
    /// High quality.
    case high = 0x60
    /// The most quality, the slowest.
    case max = 0x7F
}
