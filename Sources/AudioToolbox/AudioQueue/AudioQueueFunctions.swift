import CoreAudioTypes
import CoreGraphics
import CoreVideo
import Foundation

/// The queues made and not yet disposed of, by reference: what keeps them alive, and what tells a
/// reference the application passes from a stale or made-up one.
private let liveQueues = LockedValue<[AudioQueueRef: AudioQueueObject]>([:])

private func queue(_ reference: AudioQueueRef?) -> AudioQueueObject? {
    guard let reference else { return nil }
    return liveQueues.withLock { $0[reference] }
}

private func make(
    _ format: UnsafePointer<AudioStreamBasicDescription>, _ callback: AudioQueueObject.Callback, _ runLoop: CFRunLoop?,
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>
) -> OSStatus {
    outAQ.pointee = nil
    guard AudioQueueObject.isSupported(format.pointee) else { return kAudioFormatUnsupportedDataFormatError }
    let made = AudioQueueObject(format: format.pointee, callback: callback, runLoop: runLoop)
    liveQueues.withLock { $0[made.reference] = made }
    outAQ.pointee = made.reference
    return noErr
}

/// A format the audio queue cannot take: 'fmt?'.
public let kAudioFormatUnsupportedDataFormatError: OSStatus = 0x666D_743F

/// Creates a queue that plays the buffers enqueued to it, calling `inCallbackProc` with each once
/// played; on `inCallbackRunLoop` when one is given, else on the queue's own thread. Linear PCM
/// of 16-bit integers or 32-bit floats, interleaved.
@discardableResult
public func AudioQueueNewOutput(
    _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inCallbackProc: AudioQueueOutputCallback, _ inUserData: UnsafeMutableRawPointer?,
    _ inCallbackRunLoop: CFRunLoop?, _ inCallbackRunLoopMode: CFString?, _ inFlags: UInt32, _ outAQ: UnsafeMutablePointer<AudioQueueRef?>
) -> OSStatus {
    make(inFormat, .outputProc(inCallbackProc, inUserData), inCallbackRunLoop, outAQ)
}

/// Creates a queue that records from the current input into the buffers enqueued to it, calling
/// `inCallbackProc` with each once filled; on `inCallbackRunLoop` when one is given, else on the
/// queue's own thread.
@discardableResult
public func AudioQueueNewInput(
    _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inCallbackProc: AudioQueueInputCallback, _ inUserData: UnsafeMutableRawPointer?,
    _ inCallbackRunLoop: CFRunLoop?, _ inCallbackRunLoopMode: CFString?, _ inFlags: UInt32, _ outAQ: UnsafeMutablePointer<AudioQueueRef?>
) -> OSStatus {
    make(inFormat, .inputProc(inCallbackProc, inUserData), inCallbackRunLoop, outAQ)
}

/// Creates a playing queue whose callback block runs on a dispatch queue.
@discardableResult
public func AudioQueueNewOutputWithDispatchQueue(
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>, _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: UInt32,
    _ inCallbackDispatchQueue: DispatchQueue, _ inCallbackBlock: @escaping AudioQueueOutputCallbackBlock
) -> OSStatus {
    make(inFormat, .outputBlock(inCallbackBlock, inCallbackDispatchQueue), nil, outAQ)
}

/// Creates a recording queue whose callback block runs on a dispatch queue.
@discardableResult
public func AudioQueueNewInputWithDispatchQueue(
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>, _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: UInt32,
    _ inCallbackDispatchQueue: DispatchQueue, _ inCallbackBlock: @escaping AudioQueueInputCallbackBlock
) -> OSStatus {
    make(inFormat, .inputBlock(inCallbackBlock, inCallbackDispatchQueue), nil, outAQ)
}

/// Stops a queue and frees it and its buffers.
@discardableResult
public func AudioQueueDispose(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus {
    guard let queue = liveQueues.withLock({ $0.removeValue(forKey: inAQ) }) else { return kAudio_ParamError }
    queue.dispose()
    return noErr
}

/// Allocates a buffer of `inBufferByteSize` bytes for a queue.
@discardableResult
public func AudioQueueAllocateBuffer(_ inAQ: AudioQueueRef, _ inBufferByteSize: UInt32, _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>)
    -> OSStatus
{
    AudioQueueAllocateBufferWithPacketDescriptions(inAQ, inBufferByteSize, 0, outBuffer)
}

/// Allocates a buffer with room for packet descriptions.
@discardableResult
public func AudioQueueAllocateBufferWithPacketDescriptions(
    _ inAQ: AudioQueueRef, _ inBufferByteSize: UInt32, _ inNumberPacketDescriptions: UInt32, _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>
) -> OSStatus {
    outBuffer.pointee = nil
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    guard let buffer = queue.allocateBuffer(bytes: inBufferByteSize, packetDescriptions: inNumberPacketDescriptions) else { return kAudio_ParamError }
    outBuffer.pointee = buffer
    return noErr
}

/// Frees a buffer that is not enqueued.
@discardableResult
public func AudioQueueFreeBuffer(_ inAQ: AudioQueueRef, _ inBuffer: AudioQueueBufferRef) -> OSStatus {
    queue(inAQ)?.freeBuffer(inBuffer) ?? kAudio_ParamError
}

/// Adds a buffer to the queue: to be filled, when recording, or played, when playing.
@discardableResult
public func AudioQueueEnqueueBuffer(
    _ inAQ: AudioQueueRef, _ inBuffer: AudioQueueBufferRef, _ inNumPacketDescs: UInt32, _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?
) -> OSStatus {
    queue(inAQ)?.enqueue(inBuffer) ?? kAudio_ParamError
}

/// Starts (or resumes) recording or playing; `inStartTime` nil starts as soon as possible.
@discardableResult
public func AudioQueueStart(_ inAQ: AudioQueueRef, _ inStartTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus {
    queue(inAQ)?.start() ?? kAudio_ParamError
}

/// Prepares the enqueued buffers for playing; linear PCM needs no preparing.
@discardableResult
public func AudioQueuePrime(_ inAQ: AudioQueueRef, _ inNumberOfFramesToPrepare: UInt32, _ outNumberOfFramesPrepared: UnsafeMutablePointer<UInt32>?)
    -> OSStatus
{
    guard queue(inAQ) != nil else { return kAudio_ParamError }
    outNumberOfFramesPrepared?.pointee = 0
    return noErr
}

/// Stops the queue: at once, or (playing) once what is enqueued has played.
@discardableResult
public func AudioQueueStop(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus {
    queue(inAQ)?.stop(immediately: inImmediate) ?? kAudio_ParamError
}

/// Pauses the queue; `AudioQueueStart` resumes it.
@discardableResult
public func AudioQueuePause(_ inAQ: AudioQueueRef) -> OSStatus {
    queue(inAQ)?.pause() ?? kAudio_ParamError
}

/// Plays out decoder state; linear PCM keeps none, so nothing is left to flush.
@discardableResult
public func AudioQueueFlush(_ inAQ: AudioQueueRef) -> OSStatus {
    queue(inAQ) == nil ? kAudio_ParamError : noErr
}

/// Removes every enqueued buffer.
@discardableResult
public func AudioQueueReset(_ inAQ: AudioQueueRef) -> OSStatus {
    queue(inAQ)?.reset() ?? kAudio_ParamError
}

/// Reads a parameter of the queue: its volume.
@discardableResult
public func AudioQueueGetParameter(_ inAQ: AudioQueueRef, _ inParamID: AudioQueueParameterID, _ outValue: UnsafeMutablePointer<AudioQueueParameterValue>)
    -> OSStatus
{
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    guard let value = queue.parameter(inParamID) else { return kAudioQueueErr_InvalidParameter }
    outValue.pointee = value
    return noErr
}

/// Sets a parameter of the queue: its volume, from 0 to 1.
@discardableResult
public func AudioQueueSetParameter(_ inAQ: AudioQueueRef, _ inParamID: AudioQueueParameterID, _ inValue: AudioQueueParameterValue) -> OSStatus {
    queue(inAQ)?.setParameter(inParamID, inValue) ?? kAudio_ParamError
}

/// The size of a property's value, for the properties a queue has.
private func propertySize(_ queue: AudioQueueObject, _ id: AudioQueuePropertyID) -> Int? {
    switch id {
    case kAudioQueueProperty_IsRunning, kAudioQueueDeviceProperty_NumberChannels, kAudioQueueProperty_EnableLevelMetering:
        MemoryLayout<UInt32>.size
    case kAudioQueueDeviceProperty_SampleRate: MemoryLayout<Float64>.size
    case kAudioQueueProperty_StreamDescription: MemoryLayout<AudioStreamBasicDescription>.size
    case kAudioQueueProperty_CurrentLevelMeter, kAudioQueueProperty_CurrentLevelMeterDB:
        MemoryLayout<AudioQueueLevelMeterState>.stride * Int(queue.format.mChannelsPerFrame)
    default: nil
    }
}

/// Gives the size of a property's value.
@discardableResult
public func AudioQueueGetPropertySize(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ outDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    guard let size = propertySize(queue, inID) else { return kAudioQueueErr_InvalidProperty }
    outDataSize.pointee = UInt32(size)
    return noErr
}

/// Reads a property: whether the queue runs, its format, its device's rate and channels, and its levels.
@discardableResult
public func AudioQueueGetProperty(
    _ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ outData: UnsafeMutableRawPointer, _ ioDataSize: UnsafeMutablePointer<UInt32>
) -> OSStatus {
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    guard let size = propertySize(queue, inID) else { return kAudioQueueErr_InvalidProperty }
    let isLevel = inID == kAudioQueueProperty_CurrentLevelMeter || inID == kAudioQueueProperty_CurrentLevelMeterDB
    guard Int(ioDataSize.pointee) >= (isLevel ? MemoryLayout<AudioQueueLevelMeterState>.stride : size) else { return kAudioQueueErr_InvalidPropertySize }
    switch inID {
    case kAudioQueueProperty_IsRunning: outData.storeBytes(of: queue.isRunning ? 1 : 0, as: UInt32.self)
    case kAudioQueueDeviceProperty_NumberChannels: outData.storeBytes(of: queue.format.mChannelsPerFrame, as: UInt32.self)
    case kAudioQueueProperty_EnableLevelMetering: outData.storeBytes(of: queue.isMetering ? 1 : 0, as: UInt32.self)
    case kAudioQueueDeviceProperty_SampleRate: outData.storeBytes(of: queue.format.mSampleRate, as: Float64.self)
    case kAudioQueueProperty_StreamDescription: outData.storeBytes(of: queue.format, as: AudioStreamBasicDescription.self)
    default:
        // As many channels' levels as fit.
        let levels = queue.levels(decibels: inID == kAudioQueueProperty_CurrentLevelMeterDB)
        let count = min(levels.count, Int(ioDataSize.pointee) / MemoryLayout<AudioQueueLevelMeterState>.stride)
        let states = outData.bindMemory(to: AudioQueueLevelMeterState.self, capacity: count)
        for index in 0..<count { states[index] = levels[index] }
        ioDataSize.pointee = UInt32(count * MemoryLayout<AudioQueueLevelMeterState>.stride)
        return noErr
    }
    ioDataSize.pointee = UInt32(size)
    return noErr
}

/// Sets a property: level metering on or off; the others are read-only.
@discardableResult
public func AudioQueueSetProperty(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ inData: UnsafeRawPointer, _ inDataSize: UInt32) -> OSStatus {
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    guard inID == kAudioQueueProperty_EnableLevelMetering else {
        return propertySize(queue, inID) == nil ? kAudioQueueErr_InvalidProperty : kAudioQueueErr_InvalidPropertyValue
    }
    guard inDataSize == UInt32(MemoryLayout<UInt32>.size) else { return kAudioQueueErr_InvalidPropertySize }
    queue.isMetering = inData.load(as: UInt32.self) != 0
    return noErr
}

/// Calls `inProc` whenever the property changes: `kAudioQueueProperty_IsRunning`.
@discardableResult
public func AudioQueueAddPropertyListener(
    _ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ inProc: @escaping AudioQueuePropertyListenerProc, _ inUserData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    guard inID == kAudioQueueProperty_IsRunning else { return kAudioQueueErr_InvalidProperty }
    queue.addListener(inProc, inUserData)
    return noErr
}

/// Stops calling a listener added with `AudioQueueAddPropertyListener`.
@discardableResult
public func AudioQueueRemovePropertyListener(
    _ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ inProc: @escaping AudioQueuePropertyListenerProc, _ inUserData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    return queue.removeListener(inProc, inUserData) ? noErr : kAudio_ParamError
}

/// Creates a timeline, which tells when the queue's sound was interrupted; one per queue.
@discardableResult
public func AudioQueueCreateTimeline(_ inAQ: AudioQueueRef, _ outTimeline: UnsafeMutablePointer<AudioQueueTimelineRef?>) -> OSStatus {
    guard queue(inAQ) != nil else { return kAudio_ParamError }
    outTimeline.pointee = inAQ
    return noErr
}

/// Disposes of a timeline.
@discardableResult
public func AudioQueueDisposeTimeline(_ inAQ: AudioQueueRef, _ inTimeline: AudioQueueTimelineRef) -> OSStatus {
    queue(inAQ) == nil || inTimeline != inAQ ? kAudio_ParamError : noErr
}

/// The queue's current time: the frames recorded, or heard, since it was created, and the host time now.
@discardableResult
public func AudioQueueGetCurrentTime(
    _ inAQ: AudioQueueRef, _ inTimeline: AudioQueueTimelineRef?, _ outTimeStamp: UnsafeMutablePointer<AudioTimeStamp>?,
    _ outTimelineDiscontinuity: UnsafeMutablePointer<DarwinBoolean>?
) -> OSStatus {
    guard let queue = queue(inAQ) else { return kAudio_ParamError }
    if let outTimeStamp {
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = queue.sampleTime
        stamp.mHostTime = mach_absolute_time()
        stamp.mRateScalar = 1
        stamp.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        outTimeStamp.pointee = stamp
    }
    outTimelineDiscontinuity?.pointee = false
    return noErr
}
