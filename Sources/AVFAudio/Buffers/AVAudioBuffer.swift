import Foundation

/// A buffer of audio in a format, whose memory C code reaches through an `AudioBufferList`.
///
/// Thread ownership: a buffer belongs to one thread at a time (the one filling or reading it);
/// handing it on hands over its memory.
open class AVAudioBuffer: NSObject, @unchecked Sendable {
    /// The format of the audio in the buffer.
    public let format: AVAudioFormat
    /// The buffer list describing the memory, allocated with room for every channel's buffer.
    let list: UnsafeMutableAudioBufferListPointer

    init(format: AVAudioFormat, buffers: Int) {
        self.format = format
        list = AudioBufferList.allocate(maximumBuffers: max(1, buffers))
        super.init()
    }

    deinit { list.free() }

    /// The buffer's memory as a Core Audio buffer list.
    open var audioBufferList: UnsafePointer<AudioBufferList> { list.unsafePointer }

    /// The buffer's memory as a Core Audio buffer list that may be changed (its sizes, or the
    /// samples its buffers point to; not where they point).
    open var mutableAudioBufferList: UnsafeMutablePointer<AudioBufferList> { list.unsafeMutablePointer }
}
