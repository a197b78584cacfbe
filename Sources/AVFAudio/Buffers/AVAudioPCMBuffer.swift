import Foundation

/// A buffer of linear PCM audio: `frameCapacity` frames of memory, of which `frameLength` are valid.
///
/// Each channel has its memory of its own in deinterleaved formats; interleaved formats keep
/// every channel in one. The memory is allocated once, when the buffer is made (16-byte aligned,
/// each channel's buffer too), and never moves.
open class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
    /// The frames the buffer can hold.
    public let frameCapacity: AVAudioFrameCount
    /// One pointer per channel to its first sample (into the one buffer, a sample apart, when interleaved).
    private let channelPointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// The memory allocated for the samples; nil when the caller's buffer list is used without copying.
    private let samples: UnsafeMutableRawPointer?
    /// Called with the caller's buffer list when the buffer is freed, for a buffer made over it.
    private let deallocator: ((UnsafePointer<AudioBufferList>) -> Void)?
    private let callerList: UnsafePointer<AudioBufferList>?
    private var length: AVAudioFrameCount = 0

    /// Creates a buffer for `frameCapacity` frames of a PCM format; nil for a format that is not linear PCM.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        let asbd = format.streamDescription.pointee
        guard asbd.mFormatID == kAudioFormatLinearPCM, asbd.mBytesPerFrame > 0 else { return nil }
        let channels = Int(asbd.mChannelsPerFrame)
        let buffers = format.isInterleaved ? 1 : channels
        // Each buffer's bytes rounded up to 16, so that every channel starts aligned.
        let (bytes, overflow) = Int(frameCapacity).multipliedReportingOverflow(by: Int(asbd.mBytesPerFrame))
        guard !overflow, bytes <= Int(UInt32.max) else { return nil }
        let stridePerBuffer = (bytes + 15) & ~15
        self.frameCapacity = frameCapacity
        samples = UnsafeMutableRawPointer.allocate(byteCount: max(16, stridePerBuffer * buffers), alignment: 16)
        samples!.initializeMemory(as: UInt8.self, repeating: 0, count: max(16, stridePerBuffer * buffers))
        channelPointers = .allocate(capacity: channels)
        deallocator = nil
        callerList = nil
        super.init(format: format, buffers: buffers)
        let sampleBytes = Int(asbd.mBitsPerChannel / 8)
        for index in 0..<buffers {
            list[index] = AudioBuffer(
                mNumberChannels: format.isInterleaved ? UInt32(channels) : 1, mDataByteSize: 0,
                mData: samples! + index * stridePerBuffer)
        }
        for channel in 0..<channels {
            channelPointers[channel] = format.isInterleaved ? samples! + channel * sampleBytes : samples! + channel * stridePerBuffer
        }
    }

    /// Creates a buffer over memory the caller owns, described by a buffer list, without copying
    /// it; `deallocator` is called with the list when the buffer is freed. Nil when the list does
    /// not fit the format. The buffer's length is the frames the list's first buffer holds.
    public init?(
        pcmFormat format: AVAudioFormat, bufferListNoCopy: UnsafePointer<AudioBufferList>,
        deallocator: ((UnsafePointer<AudioBufferList>) -> Void)? = nil
    ) {
        let asbd = format.streamDescription.pointee
        guard asbd.mFormatID == kAudioFormatLinearPCM, asbd.mBytesPerFrame > 0 else { return nil }
        let channels = Int(asbd.mChannelsPerFrame)
        let buffers = format.isInterleaved ? 1 : channels
        let given = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: bufferListNoCopy))
        guard given.count == buffers, given.allSatisfy({ $0.mData != nil }) else { return nil }
        let frames = given.map { $0.mDataByteSize / asbd.mBytesPerFrame }.min() ?? 0
        frameCapacity = frames
        samples = nil
        channelPointers = .allocate(capacity: channels)
        self.deallocator = deallocator
        callerList = bufferListNoCopy
        super.init(format: format, buffers: buffers)
        let sampleBytes = Int(asbd.mBitsPerChannel / 8)
        for index in 0..<buffers { list[index] = given[index] }
        for channel in 0..<channels {
            channelPointers[channel] = format.isInterleaved ? given[0].mData! + channel * sampleBytes : given[channel].mData!
        }
        length = frames
    }

    deinit {
        samples?.deallocate()
        channelPointers.deallocate()
        if let deallocator, let callerList { deallocator(callerList) }
    }

    /// The frames that are valid; setting it past `frameCapacity` is a programming error. The
    /// buffer list's byte sizes follow it.
    open var frameLength: AVAudioFrameCount {
        get { length }
        set {
            precondition(newValue <= frameCapacity, "AVAudioPCMBuffer: frameLength \(newValue) exceeds frameCapacity \(frameCapacity)")
            length = newValue
            let bytes = newValue * format.streamDescription.pointee.mBytesPerFrame
            for index in 0..<list.count { list[index].mDataByteSize = bytes }
        }
    }

    /// The distance, in samples, from one frame's sample of a channel to the next frame's: the
    /// channel count when interleaved, otherwise 1.
    open var stride: Int { format.isInterleaved ? Int(format.channelCount) : 1 }

    /// Each channel's samples, for 32-bit float formats; nil otherwise.
    open var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { channels(of: .pcmFormatFloat32) }

    /// Each channel's samples, for signed 16-bit formats; nil otherwise.
    open var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { channels(of: .pcmFormatInt16) }

    /// Each channel's samples, for signed 32-bit formats; nil otherwise.
    open var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { channels(of: .pcmFormatInt32) }

    /// Each channel's samples, for 64-bit float formats; nil otherwise.
    var float64ChannelData: UnsafePointer<UnsafeMutablePointer<Double>>? { channels(of: .pcmFormatFloat64) }

    /// The channel pointers as pointers to `Sample`, when the buffer's common format is `common`.
    private func channels<Sample>(of common: AVAudioCommonFormat) -> UnsafePointer<UnsafeMutablePointer<Sample>>? {
        guard format.commonFormat == common else { return nil }
        return UnsafeRawPointer(channelPointers).assumingMemoryBound(to: UnsafeMutablePointer<Sample>.self)
    }

    /// The first byte of each buffer of the list (one when interleaved, one per channel otherwise).
    var bufferPointers: [UnsafeMutableRawPointer] { list.map { $0.mData! } }

    /// Copies `frames` frames from another buffer of the same format, from its frame `from`, to this one's frame `to`.
    func copyFrames(from source: AVAudioPCMBuffer, at from: Int, to: Int, count frames: Int) {
        let frameBytes = Int(format.streamDescription.pointee.mBytesPerFrame)
        for index in 0..<min(list.count, source.list.count) {
            (list[index].mData! + to * frameBytes).copyMemory(from: source.list[index].mData! + from * frameBytes, byteCount: frames * frameBytes)
        }
    }
}
