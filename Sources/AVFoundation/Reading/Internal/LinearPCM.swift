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
        CMAudioFormatDescriptionCreate(
            allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil,
            extensions: nil, formatDescriptionOut: &format)
        return format
    }

    /// A sample buffer of `frames` frames held in `block`, the first presented at `start`, each lasting 1/`rate` s.
    static func sampleBuffer(
        _ block: CMBlockBuffer, format: CMAudioFormatDescription?, frames: Int, bytesPerFrame: Int,
        start: CMTime, rate: Int32
    ) -> CMSampleBuffer? {
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: rate), presentationTimeStamp: start, decodeTimeStamp: .invalid)
        var size = bytesPerFrame
        var buffer: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
            sampleCount: frames, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1,
            sampleSizeArray: &size, sampleBufferOut: &buffer)
        return buffer
    }

    /// A block of `frames` interleaved frames made from float samples: as they are, or as 16-bit integers.
    static func block(from samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int, isFloat: Bool) -> CMBlockBuffer {
        let bytes = frames * channels * (isFloat ? 4 : 2)
        let block = CMBlockBuffer(capacity: bytes)
        block.length = bytes
        if isFloat {
            block.bytes.copyMemory(from: samples.baseAddress!, byteCount: bytes)
        } else {
            int16(from: samples.baseAddress!, to: block.bytes.assumingMemoryBound(to: Int16.self), count: frames * channels)
        }
        return block
    }

    /// Converts `count` float samples to 16-bit integers, rounded to the nearest (ties to even) and
    /// clamped: NaN becomes silence.
    ///
    /// Adding 1.5 x 2^23 to a clamped sample leaves the rounded integer in the sum's low mantissa bits,
    /// so the loop has no call and no branch and the compiler vectorises it.
    static func int16(from samples: UnsafePointer<Float>, to target: UnsafeMutablePointer<Int16>, count: Int) {
        let magic: Float = 12_582_912
        let magicBits = Int32(bitPattern: magic.bitPattern)
        for index in 0..<count {
            let sample = samples[index]
            let clamped = min(32767, max(-32768, sample.isNaN ? 0 : sample * 32768))
            target[index] = Int16(truncatingIfNeeded: Int32(bitPattern: (clamped + magic).bitPattern) &- magicBits)
        }
    }
}
