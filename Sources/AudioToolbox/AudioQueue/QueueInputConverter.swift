import CoreMedia
import MovieEngine

/// A microphone's sample buffers converted to a recording queue's format (rate, channels and
/// sample type), with libswresample: a mono microphone fills every channel, extra channels are
/// left out, as Apple's converter does without a downmix.
///
/// Thread ownership: the microphone's thread. The converter and the block converted into are made
/// once, and again only when the device's format changes or it delivers a larger block.
final class QueueInputConverter {
    private let target: SampleConverter.Layout
    private let bytesPerFrame: Int
    private var converter: SampleConverter?
    private var deviceFormat: AudioStreamBasicDescription?
    private var converted: UnsafeMutableRawPointer?
    private var convertedCapacity = 0

    /// A converter to `format`, one of the queue's formats (interleaved 16-bit integers or 32-bit floats).
    init(to format: AudioStreamBasicDescription) {
        target = SampleConverter.Layout(
            format: format.mFormatFlags & kAudioFormatFlagIsFloat != 0 ? .float32 : .int16, planar: false,
            sampleRate: Int(format.mSampleRate.rounded()), channels: Int(format.mChannelsPerFrame))
        bytesPerFrame = Int(format.mBytesPerFrame)
    }

    deinit { converted?.deallocate() }

    /// The layout of a device's interleaved linear PCM, or nil for a format that is not.
    static func layout(of description: AudioStreamBasicDescription) -> SampleConverter.Layout? {
        guard description.mFormatID == kAudioFormatLinearPCM, description.mChannelsPerFrame > 0, description.mSampleRate.isFinite,
            description.mSampleRate >= 1, description.mFormatFlags & kAudioFormatFlagIsBigEndian == 0
        else { return nil }
        let isFloat = description.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let format: SampleConverter.Format
        switch (isFloat, description.mBitsPerChannel) {
        case (true, 32): format = .float32
        case (true, 64): format = .float64
        case (false, 16): format = .int16
        case (false, 32): format = .int32
        default: return nil
        }
        guard description.mBytesPerFrame == UInt32(format.size) * description.mChannelsPerFrame else { return nil }
        return SampleConverter.Layout(
            format: format, planar: false, sampleRate: Int(description.mSampleRate.rounded()), channels: Int(description.mChannelsPerFrame))
    }

    /// The sample buffer's sound in the queue's format, valid until the next call; nil for a
    /// buffer that is not linear PCM or a conversion that failed.
    func convert(_ sampleBuffer: CMSampleBuffer) -> UnsafeRawBufferPointer? {
        guard let description = sampleBuffer.formatDescription?.audioStreamBasicDescription, let block = sampleBuffer.dataBuffer,
            description.mBytesPerFrame > 0
        else { return nil }
        let frames = block.length / Int(description.mBytesPerFrame)
        guard frames > 0 else { return nil }
        if description != deviceFormat {
            guard let layout = Self.layout(of: description), let made = try? SampleConverter(from: layout, to: target) else { return nil }
            converter = made
            deviceFormat = description
        }
        guard let converter else { return nil }
        let bound = converter.outputBound(forInputFrames: frames)
        if bound > convertedCapacity {
            converted?.deallocate()
            convertedCapacity = max(bound, 4096)
            converted = UnsafeMutableRawPointer.allocate(byteCount: convertedCapacity * bytesPerFrame, alignment: 16)
        }
        guard let converted else { return nil }
        var input: UnsafePointer<UInt8>? = UnsafePointer(block.bytes.assumingMemoryBound(to: UInt8.self))
        var output: UnsafeMutablePointer<UInt8>? = converted.assumingMemoryBound(to: UInt8.self)
        let made = withUnsafePointer(to: &input) { input in
            withUnsafePointer(to: &output) { output in
                try? converter.convert(input, frames: frames, into: output, capacity: convertedCapacity)
            }
        }
        guard let made, made > 0 else { return nil }
        return UnsafeRawBufferPointer(start: converted, count: made * bytesPerFrame)
    }
}
