extension AudioBufferList {
    /// The size in bytes of a buffer list with room for `maximumBuffers` buffers.
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        precondition(maximumBuffers >= 1, "an AudioBufferList holds at least one buffer")
        return MemoryLayout<AudioBufferList>.size - MemoryLayout<AudioBuffer>.stride + maximumBuffers * MemoryLayout<AudioBuffer>.stride
    }

    /// Allocates a buffer list with room for `maximumBuffers` buffers, all empty; free it with `free()`.
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let size = sizeInBytes(maximumBuffers: maximumBuffers)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<AudioBufferList>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let list = raw.assumingMemoryBound(to: AudioBufferList.self)
        list.pointee.mNumberBuffers = UInt32(maximumBuffers)
        return UnsafeMutableAudioBufferListPointer(list)
    }
}

/// A collection view of an `AudioBufferList`'s buffers, which C gives as a variable-length array.
public struct UnsafeMutableAudioBufferListPointer: RandomAccessCollection, MutableCollection {
    /// The buffer list viewed.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// The buffer list viewed, read-only.
    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    /// Views a buffer list.
    public init(_ p: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = p }

    /// Views a buffer list, if there is one.
    public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        unsafeMutablePointer = p
    }

    /// The number of buffers in the list.
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    /// The index of the first buffer.
    public var startIndex: Int { 0 }
    /// The index past the last buffer.
    public var endIndex: Int { count }

    /// The buffers' first element, where the variable-length array starts.
    private var buffers: UnsafeMutablePointer<AudioBuffer> {
        UnsafeMutableRawPointer(unsafeMutablePointer).advanced(by: MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!)
            .assumingMemoryBound(to: AudioBuffer.self)
    }

    /// The buffer at a position.
    public subscript(index: Int) -> AudioBuffer {
        get {
            precondition(index >= 0 && index < count, "buffer index out of range")
            return buffers[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "buffer index out of range")
            buffers[index] = newValue
        }
    }

    /// Frees a list made by `AudioBufferList.allocate(maximumBuffers:)`.
    public func free() { UnsafeMutableRawPointer(unsafeMutablePointer).deallocate() }
}

extension UnsafeMutableAudioBufferListPointer: @unchecked Sendable {}

extension UnsafeMutableBufferPointer {
    /// A typed view of an audio buffer's memory: as many elements as its byte size holds.
    public init(_ audioBuffer: AudioBuffer) {
        let count = Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride
        self.init(start: audioBuffer.mData?.assumingMemoryBound(to: Element.self), count: audioBuffer.mData == nil ? 0 : count)
    }
}

extension UnsafeBufferPointer {
    /// A typed, read-only view of an audio buffer's memory: as many elements as its byte size holds.
    public init(_ audioBuffer: AudioBuffer) {
        let count = Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride
        self.init(start: audioBuffer.mData.map { UnsafePointer($0.assumingMemoryBound(to: Element.self)) }, count: audioBuffer.mData == nil ? 0 : count)
    }
}

extension AudioBuffer {
    /// An audio buffer describing typed memory holding a number of interleaved channels.
    public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(
            mNumberChannels: UInt32(numberOfChannels), mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
            mData: typedBuffer.baseAddress.map { UnsafeMutableRawPointer($0) })
    }
}
