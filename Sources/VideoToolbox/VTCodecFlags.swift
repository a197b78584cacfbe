import CoreMedia

/// What happened to a frame given to a compression session.
public struct VTEncodeInfoFlags: OptionSet, Sendable {
    /// The flags' bits.
    public var rawValue: UInt32
    /// Creates flags from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The frame was encoded after the call that gave it returned.
    public static let asynchronous = VTEncodeInfoFlags(rawValue: 1 << 0)
    /// The frame was dropped.
    public static let frameDropped = VTEncodeInfoFlags(rawValue: 1 << 1)
}

/// Directions to a decompression session for one frame.
public struct VTDecodeFrameFlags: OptionSet, Sendable {
    /// The flags' bits.
    public var rawValue: UInt32
    /// Creates flags from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The decoder may decode the frame after the call returns, on threads of its own.
    public static let _EnableAsynchronousDecompression = VTDecodeFrameFlags(rawValue: 1 << 0)
    /// The frame is decoded but not output (its output callback reports it dropped).
    public static let _DoNotOutputFrame = VTDecodeFrameFlags(rawValue: 1 << 1)
    /// The frames are played at normal speed: the decoder may trade quality for keeping up.
    public static let _1xRealTimePlayback = VTDecodeFrameFlags(rawValue: 1 << 2)
    /// The decoder may hold frames to output them in display order.
    public static let _EnableTemporalProcessing = VTDecodeFrameFlags(rawValue: 1 << 3)
}

/// What happened to a frame given to a decompression session.
public struct VTDecodeInfoFlags: OptionSet, Sendable {
    /// The flags' bits.
    public var rawValue: UInt32
    /// Creates flags from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The frame was decoded after the call that gave it returned.
    public static let asynchronous = VTDecodeInfoFlags(rawValue: 1 << 0)
    /// The frame was dropped.
    public static let frameDropped = VTDecodeInfoFlags(rawValue: 1 << 1)
    /// The image buffer is the client's to change.
    public static let imageBufferModifiable = VTDecodeInfoFlags(rawValue: 1 << 2)
}

/// No limit on the frames an encoder may hold (`kVTCompressionPropertyKey_MaxFrameDelayCount`).
public let kVTUnlimitedFrameDelayCount: Int = -1
