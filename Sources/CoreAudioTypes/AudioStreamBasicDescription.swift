@_exported import CCoreAudioTypes

/// A four-character code identifying an audio data format.
public typealias AudioFormatID = UInt32
/// Flags that qualify an audio data format.
public typealias AudioFormatFlags = UInt32

/// The format of a stream of audio data.
public struct AudioStreamBasicDescription: Sendable, Hashable {
    /// Frames per second.
    public var mSampleRate: Float64
    /// The data format.
    public var mFormatID: AudioFormatID
    /// Flags that qualify the format.
    public var mFormatFlags: AudioFormatFlags
    /// Bytes in one packet.
    public var mBytesPerPacket: UInt32
    /// Frames in one packet.
    public var mFramesPerPacket: UInt32
    /// Bytes in one frame.
    public var mBytesPerFrame: UInt32
    /// Channels in each frame.
    public var mChannelsPerFrame: UInt32
    /// Bits of each sample of each channel.
    public var mBitsPerChannel: UInt32
    /// Padding; always zero.
    public var mReserved: UInt32

    /// Creates an empty description.
    public init() {
        self.init(
            mSampleRate: 0, mFormatID: 0, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
            mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: 0, mReserved: 0)
    }

    /// Creates a description from all of its fields.
    public init(
        mSampleRate: Float64, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags, mBytesPerPacket: UInt32,
        mFramesPerPacket: UInt32, mBytesPerFrame: UInt32, mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32, mReserved: UInt32
    ) {
        self.mSampleRate = mSampleRate
        self.mFormatID = mFormatID
        self.mFormatFlags = mFormatFlags
        self.mBytesPerPacket = mBytesPerPacket
        self.mFramesPerPacket = mFramesPerPacket
        self.mBytesPerFrame = mBytesPerFrame
        self.mChannelsPerFrame = mChannelsPerFrame
        self.mBitsPerChannel = mBitsPerChannel
        self.mReserved = mReserved
    }
}

/// Linear PCM: 'lpcm'.
public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D
/// MPEG-4 AAC: 'aac '.
public let kAudioFormatMPEG4AAC: AudioFormatID = 0x6161_6320
/// Apple Lossless: 'alac'.
public let kAudioFormatAppleLossless: AudioFormatID = 0x616C_6163
/// Opus: 'opus'.
public let kAudioFormatOpus: AudioFormatID = 0x6F70_7573
/// FLAC: 'flac'.
public let kAudioFormatFLAC: AudioFormatID = 0x666C_6163
/// Apple Positional Audio Codec, spatial audio: 'apac' (no codec on Linux).
public let kAudioFormatAPAC: AudioFormatID = 0x6170_6163
/// MPEG-1/2 Layer 3 (MP3): '.mp3'.
public let kAudioFormatMPEGLayer3: AudioFormatID = 0x2E6D_7033
/// High-efficiency AAC: 'aach'.
public let kAudioFormatMPEG4AAC_HE: AudioFormatID = 0x6161_6368
/// µ-law 2:1: 'ulaw'.
public let kAudioFormatULaw: AudioFormatID = 0x756C_6177
/// A-law 2:1: 'alaw'.
public let kAudioFormatALaw: AudioFormatID = 0x616C_6177
/// AC-3: 'ac-3'.
public let kAudioFormatAC3: AudioFormatID = 0x6163_2D33

/// Samples are floating point.
public let kAudioFormatFlagIsFloat: AudioFormatFlags = 1 << 0
/// Samples are big-endian.
public let kAudioFormatFlagIsBigEndian: AudioFormatFlags = 1 << 1
/// Samples are signed integers.
public let kAudioFormatFlagIsSignedInteger: AudioFormatFlags = 1 << 2
/// Samples fill their bytes.
public let kAudioFormatFlagIsPacked: AudioFormatFlags = 1 << 3
/// Samples are aligned to the high bits.
public let kAudioFormatFlagIsAlignedHigh: AudioFormatFlags = 1 << 4
/// Channels are in separate buffers.
public let kAudioFormatFlagIsNonInterleaved: AudioFormatFlags = 1 << 5
/// The stream may not be mixed.
public let kAudioFormatFlagIsNonMixable: AudioFormatFlags = 1 << 6
/// The host's byte order: little-endian on the machines this runs on.
public let kAudioFormatFlagsNativeEndian: AudioFormatFlags = 0
/// Native-endian packed 32-bit floats.
public let kAudioFormatFlagsNativeFloatPacked: AudioFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked
/// Linear PCM samples are floating point.
public let kLinearPCMFormatFlagIsFloat = kAudioFormatFlagIsFloat
/// Linear PCM samples are big-endian.
public let kLinearPCMFormatFlagIsBigEndian = kAudioFormatFlagIsBigEndian
/// Linear PCM samples are signed integers.
public let kLinearPCMFormatFlagIsSignedInteger = kAudioFormatFlagIsSignedInteger
/// Linear PCM samples fill their bytes.
public let kLinearPCMFormatFlagIsPacked = kAudioFormatFlagIsPacked
/// Linear PCM channels are in separate buffers.
public let kLinearPCMFormatFlagIsNonInterleaved = kAudioFormatFlagIsNonInterleaved
/// Linear PCM samples are aligned to the high bits of their bytes.
public let kLinearPCMFormatFlagIsAlignedHigh = kAudioFormatFlagIsAlignedHigh
