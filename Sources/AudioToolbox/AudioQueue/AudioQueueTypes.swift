import CoreAudioTypes
import Foundation

/// An audio queue: an object that records from the current input or plays to the current output.
public typealias AudioQueueRef = OpaquePointer
/// An audio queue's timeline, which tells when its sound was interrupted.
public typealias AudioQueueTimelineRef = OpaquePointer
/// A property of an audio queue, as a four-character code.
public typealias AudioQueuePropertyID = UInt32
/// A parameter of an audio queue, such as its volume.
public typealias AudioQueueParameterID = UInt32
/// The value of an audio queue parameter.
public typealias AudioQueueParameterValue = Float32

/// A pointer to an audio queue buffer.
public typealias AudioQueueBufferRef = UnsafeMutablePointer<AudioQueueBuffer>

/// Called when a recording audio queue has filled a buffer.
public typealias AudioQueueInputCallback =
    @convention(c) (
        UnsafeMutableRawPointer?, AudioQueueRef, AudioQueueBufferRef, UnsafePointer<AudioTimeStamp>, UInt32,
        UnsafePointer<AudioStreamPacketDescription>?
    ) -> Void
/// Called when a playing audio queue has finished with a buffer, so that it can be filled again.
public typealias AudioQueueOutputCallback = @convention(c) (UnsafeMutableRawPointer?, AudioQueueRef, AudioQueueBufferRef) -> Void
/// Called, on the queue given, when a recording audio queue has filled a buffer.
public typealias AudioQueueInputCallbackBlock = (
    AudioQueueRef, AudioQueueBufferRef, UnsafePointer<AudioTimeStamp>, UInt32, UnsafePointer<AudioStreamPacketDescription>?
) -> Void
/// Called, on the queue given, when a playing audio queue has finished with a buffer.
public typealias AudioQueueOutputCallbackBlock = (AudioQueueRef, AudioQueueBufferRef) -> Void
/// Called when one of an audio queue's properties changes.
public typealias AudioQueuePropertyListenerProc = @convention(c) (UnsafeMutableRawPointer?, AudioQueueRef, AudioQueuePropertyID) -> Void

/// Whether the queue is running: a UInt32, read-only.
public let kAudioQueueProperty_IsRunning: AudioQueuePropertyID = 0x6171_726E  // 'aqrn'
/// The sample rate of the queue's device: a Float64, read-only.
public let kAudioQueueDeviceProperty_SampleRate: AudioQueuePropertyID = 0x6171_7372  // 'aqsr'
/// The number of channels of the queue's device: a UInt32, read-only.
public let kAudioQueueDeviceProperty_NumberChannels: AudioQueuePropertyID = 0x6171_6463  // 'aqdc'
/// The unique identifier of the queue's device: a CFString.
public let kAudioQueueProperty_CurrentDevice: AudioQueuePropertyID = 0x6171_6364  // 'aqcd'
/// The queue's format: an AudioStreamBasicDescription, read-only.
public let kAudioQueueProperty_StreamDescription: AudioQueuePropertyID = 0x6171_6674  // 'aqft'
/// The codec's magic cookie.
public let kAudioQueueProperty_MagicCookie: AudioQueuePropertyID = 0x6171_6D63  // 'aqmc'
/// Whether the queue measures its level: a UInt32.
public let kAudioQueueProperty_EnableLevelMetering: AudioQueuePropertyID = 0x6171_6D65  // 'aqme'
/// The queue's current level, an AudioQueueLevelMeterState a channel, linear.
public let kAudioQueueProperty_CurrentLevelMeter: AudioQueuePropertyID = 0x6171_6D76  // 'aqmv'
/// The queue's current level, an AudioQueueLevelMeterState a channel, in decibels.
public let kAudioQueueProperty_CurrentLevelMeterDB: AudioQueuePropertyID = 0x6171_6D64  // 'aqmd'

/// The playback volume, from 0 to 1.
public let kAudioQueueParam_Volume: AudioQueueParameterID = 1
/// The playback rate, when time and pitch processing is enabled.
public let kAudioQueueParam_PlayRate: AudioQueueParameterID = 2
/// The pitch shift in cents, when time and pitch processing is enabled.
public let kAudioQueueParam_Pitch: AudioQueueParameterID = 3
/// How long volume changes ramp, in seconds.
public let kAudioQueueParam_VolumeRampTime: AudioQueueParameterID = 4
/// The stereo position, from -1 (left) to 1 (right).
public let kAudioQueueParam_Pan: AudioQueueParameterID = 13

/// The buffer does not belong to the queue.
public let kAudioQueueErr_InvalidBuffer: OSStatus = -66687
/// The buffer holds no data to play.
public let kAudioQueueErr_BufferEmpty: OSStatus = -66686
/// The queue is being disposed of.
public let kAudioQueueErr_DisposalPending: OSStatus = -66685
/// The property is not one the queue has.
public let kAudioQueueErr_InvalidProperty: OSStatus = -66684
/// The property's size is wrong.
public let kAudioQueueErr_InvalidPropertySize: OSStatus = -66683
/// The parameter is not one the queue has.
public let kAudioQueueErr_InvalidParameter: OSStatus = -66682
/// The queue could not start.
public let kAudioQueueErr_CannotStart: OSStatus = -66681
/// The device is not one the queue can use.
public let kAudioQueueErr_InvalidDevice: OSStatus = -66680
/// The buffer cannot be freed while it is enqueued.
public let kAudioQueueErr_BufferInQueue: OSStatus = -66679
/// The queue is not in a state that allows the call.
public let kAudioQueueErr_InvalidRunState: OSStatus = -66678
/// The call is for the other kind of queue (input or output).
public let kAudioQueueErr_InvalidQueueType: OSStatus = -66677
/// The application may not record.
public let kAudioQueueErr_Permissions: OSStatus = -66676
/// The property's value is not valid.
public let kAudioQueueErr_InvalidPropertyValue: OSStatus = -66675
/// Priming took too long.
public let kAudioQueueErr_PrimeTimedOut: OSStatus = -66674
/// No codec handles the queue's format.
public let kAudioQueueErr_CodecNotFound: OSStatus = -66673
/// The codec could not be used.
public let kAudioQueueErr_InvalidCodecAccess: OSStatus = -66672
/// The queue was invalidated, as when the sound server went away.
public let kAudioQueueErr_QueueInvalidated: OSStatus = -66671
/// The queue has as many taps as it can.
public let kAudioQueueErr_TooManyTaps: OSStatus = -66670
/// The tap context is not valid.
public let kAudioQueueErr_InvalidTapContext: OSStatus = -66669
/// A recording queue ran out of buffers.
public let kAudioQueueErr_RecordUnderrun: OSStatus = -66668
/// The tap type is not valid.
public let kAudioQueueErr_InvalidTapType: OSStatus = -66667
/// The buffer was enqueued while already enqueued.
public let kAudioQueueErr_BufferEnqueuedTwice: OSStatus = -66666
/// The queue cannot start yet.
public let kAudioQueueErr_CannotStartYet: OSStatus = -66665
/// A buffer was enqueued while the queue was being reset.
public let kAudioQueueErr_EnqueueDuringReset: OSStatus = -66632

/// A parameter was not valid.
public let kAudio_ParamError: OSStatus = -50
