import Foundation

/// A buffer of compressed audio: packets in one block of memory, with a description of each
/// packet for formats whose packets vary in size.
open class AVAudioCompressedBuffer: AVAudioBuffer, @unchecked Sendable {
    /// The packets the buffer can hold.
    public let packetCapacity: AVAudioPacketCount
    /// The largest packet the buffer holds, in bytes.
    public let maximumPacketSize: Int
    /// The bytes the buffer can hold.
    public let byteCapacity: UInt32
    /// The packets' memory.
    public let data: UnsafeMutableRawPointer
    /// Where each packet is, for formats whose packets vary in size; nil otherwise.
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    private var packets: AVAudioPacketCount = 0

    /// Creates a buffer for `packetCapacity` packets of at most `maximumPacketSize` bytes each.
    public init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount, maximumPacketSize: Int) {
        precondition(format.streamDescription.pointee.mFormatID != kAudioFormatLinearPCM, "AVAudioCompressedBuffer: use AVAudioPCMBuffer for linear PCM")
        precondition(maximumPacketSize > 0, "AVAudioCompressedBuffer: the maximum packet size must be positive")
        let bytes = Int(packetCapacity) * maximumPacketSize
        precondition(bytes <= Int(UInt32.max), "AVAudioCompressedBuffer: too large")
        self.packetCapacity = packetCapacity
        self.maximumPacketSize = maximumPacketSize
        byteCapacity = UInt32(bytes)
        data = .allocate(byteCount: max(1, bytes), alignment: 16)
        let variable = format.streamDescription.pointee.mBytesPerPacket == 0
        packetDescriptions = variable ? .allocate(capacity: max(1, Int(packetCapacity))) : nil
        packetDescriptions?.initialize(repeating: AudioStreamPacketDescription(), count: max(1, Int(packetCapacity)))
        super.init(format: format, buffers: 1)
        list[0] = AudioBuffer(mNumberChannels: format.channelCount, mDataByteSize: 0, mData: data)
    }

    /// Creates a buffer for `packetCapacity` packets of a format whose packets have a fixed size.
    public convenience init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount) {
        let size = Int(format.streamDescription.pointee.mBytesPerPacket)
        precondition(size > 0, "AVAudioCompressedBuffer: this format's packets vary in size; give a maximum packet size")
        self.init(format: format, packetCapacity: packetCapacity, maximumPacketSize: size)
    }

    deinit {
        data.deallocate()
        packetDescriptions?.deallocate()
    }

    /// The packets that are valid; setting it past `packetCapacity` is a programming error.
    open var packetCount: AVAudioPacketCount {
        get { packets }
        set {
            precondition(newValue <= packetCapacity, "AVAudioCompressedBuffer: packetCount exceeds packetCapacity")
            packets = newValue
        }
    }

    /// The bytes that are valid.
    open var byteLength: UInt32 {
        get { list[0].mDataByteSize }
        set {
            precondition(newValue <= byteCapacity, "AVAudioCompressedBuffer: byteLength exceeds byteCapacity")
            list[0].mDataByteSize = newValue
        }
    }
}
