import AudioToolbox

// What a file importing only Audio Toolbox uses, as Apple's module brings it: Core Audio's types,
// Core Foundation's run loop and strings, Foundation, and the audio queue's structures.
enum AudioToolboxBrings {
    static func playingQueue(on runLoop: CFRunLoop = CFRunLoopGetCurrent()) -> (OSStatus, AudioQueueRef?) {
        var format = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 4,
            mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        var queue: AudioQueueRef?
        let status = AudioQueueNewOutput(
            &format, { _, _, buffer in buffer.pointee.mAudioDataByteSize = 0 }, nil, runLoop, CFRunLoopMode.commonModes.rawValue, 0, &queue)
        return (status, queue)
    }

    static func level(_ state: AudioQueueLevelMeterState, at time: AudioTimeStamp, interrupted: DarwinBoolean) -> String {
        String(format: "%.1f at %.0f%@", state.mPeakPower, time.mSampleTime, interrupted.boolValue ? " after a gap" : "")
    }
}
