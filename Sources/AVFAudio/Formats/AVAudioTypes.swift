/// A position in an audio file or stream, in sample frames.
public typealias AVAudioFramePosition = Int64
/// A number of sample frames.
public typealias AVAudioFrameCount = UInt32
/// A number of packets of compressed audio.
public typealias AVAudioPacketCount = UInt32
/// A number of audio channels.
public typealias AVAudioChannelCount = UInt32
/// The index of a node's input or output bus.
public typealias AVAudioNodeBus = Int
