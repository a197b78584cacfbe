import AVFoundation

/// Interleaved 16-bit PCM in sample buffers, as microphones deliver it, for the writer tests.
public enum PCMSampleBuffers {
    /// A sample buffer of interleaved `samples` (`channels` to a frame) at `sampleRate`, its first
    /// frame presented `firstFrame` frames after `start`.
    public static func make(_ samples: [Int16], channels: Int, sampleRate: Double, firstFrame: Int, start: CMTime = .zero) -> CMSampleBuffer {
        var asbd = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: UInt32(2 * channels), mFramesPerPacket: 1, mBytesPerFrame: UInt32(2 * channels), mChannelsPerFrame: UInt32(channels),
            mBitsPerChannel: 16, mReserved: 0)
        var format: CMAudioFormatDescription?
        CMAudioFormatDescriptionCreate(
            allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &format)
        var block: CMBlockBuffer?
        CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: samples.count * 2, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
            dataLength: samples.count * 2, flags: 0, blockBufferOut: &block)
        samples.withUnsafeBytes {
            _ = CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: $0.count)
        }
        let rate = CMTimeScale(sampleRate)
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: rate), presentationTimeStamp: start + CMTime(value: CMTimeValue(firstFrame), timescale: rate),
            decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
            sampleCount: samples.count / channels, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 0, sampleSizeArray: nil,
            sampleBufferOut: &sample)
        return sample!
    }
}
