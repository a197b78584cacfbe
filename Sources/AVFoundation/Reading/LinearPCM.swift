import CoreMedia

/// Interleaved linear PCM as readers give it: its format, and sample buffers over blocks of it.
enum LinearPCM {
    /// The format of interleaved, packed 16-bit integer or 32-bit float samples.
    static func format(rate: Double, channels: Int, isFloat: Bool) -> CMAudioFormatDescription? {
        let bytesPerFrame = UInt32(channels * (isFloat ? 4 : 2))
        var asbd = AudioStreamBasicDescription()
        asbd.mSampleRate = rate
        asbd.mFormatID = kAudioFormatLinearPCM
        asbd.mFormatFlags = (isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked
        asbd.mBitsPerChannel = isFloat ? 32 : 16
        asbd.mChannelsPerFrame = UInt32(channels)
        asbd.mFramesPerPacket = 1
        asbd.mBytesPerFrame = bytesPerFrame
        asbd.mBytesPerPacket = bytesPerFrame
        var format: CMAudioFormatDescription?
        CMAudioFormatDescriptionCreate(allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil,
                                       extensions: nil, formatDescriptionOut: &format)
        return format
    }

    /// A sample buffer of `frames` frames held in `block`, the first presented at `start`, each lasting 1/`rate` s.
    static func sampleBuffer(_ block: CMBlockBuffer, format: CMAudioFormatDescription?, frames: Int, bytesPerFrame: Int,
                             start: CMTime, rate: Int32) -> CMSampleBuffer? {
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: rate), presentationTimeStamp: start, decodeTimeStamp: .invalid)
        var size = bytesPerFrame
        var buffer: CMSampleBuffer?
        CMSampleBufferCreate(allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
                             sampleCount: frames, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1,
                             sampleSizeArray: &size, sampleBufferOut: &buffer)
        return buffer
    }
}
