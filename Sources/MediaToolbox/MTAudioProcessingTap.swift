import CoreAudioTypes
import CoreMedia
import Foundation

/// Flags that say where a tap processes sound: before or after the effects (volume, time pitch) of its mix.
public typealias MTAudioProcessingTapCreationFlags = UInt32
/// The tap processes the sound before the mix's effects.
public let kMTAudioProcessingTapCreationFlag_PreEffects: MTAudioProcessingTapCreationFlags = 1 << 0
/// The tap processes the sound after the mix's effects.
public let kMTAudioProcessingTapCreationFlag_PostEffects: MTAudioProcessingTapCreationFlags = 1 << 1

/// Flags that describe the sound a tap processes.
public typealias MTAudioProcessingTapFlags = UInt32
/// The sound starts a continuous stream: the beginning, or playing again after a stop or seek.
public let kMTAudioProcessingTapFlag_StartOfStream: MTAudioProcessingTapFlags = 1 << 8
/// The sound is past the end of the stream.
public let kMTAudioProcessingTapFlag_EndOfStream: MTAudioProcessingTapFlags = 1 << 9

/// The version of the callbacks structure.
public let kMTAudioProcessingTapCallbacksVersion_0: Int32 = 0

/// Called once when a tap is made, with the client's information; sets the tap's storage.
public typealias MTAudioProcessingTapInitCallback =
    @Sendable (MTAudioProcessingTap, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Void
/// Called once when a tap is released, to free its storage.
public typealias MTAudioProcessingTapFinalizeCallback = @Sendable (MTAudioProcessingTap) -> Void
/// Called before processing starts, with the most frames a call will ask for and the processing format.
public typealias MTAudioProcessingTapPrepareCallback = @Sendable (MTAudioProcessingTap, CMItemCount, UnsafePointer<AudioStreamBasicDescription>) -> Void
/// Called when processing stops, to let go of what prepare made.
public typealias MTAudioProcessingTapUnprepareCallback = @Sendable (MTAudioProcessingTap) -> Void
/// Called for each block of sound: the tap gets the source sound with `MTAudioProcessingTapGetSourceAudio`
/// into the buffer list, changes it there, and says how many frames it gives.
public typealias MTAudioProcessingTapProcessCallback =
    @Sendable (
        MTAudioProcessingTap, CMItemCount, MTAudioProcessingTapFlags, UnsafeMutablePointer<AudioBufferList>, UnsafeMutablePointer<CMItemCount>,
        UnsafeMutablePointer<MTAudioProcessingTapFlags>
    ) -> Void

/// The callbacks of an audio processing tap.
public struct MTAudioProcessingTapCallbacks {
    /// The structure's version: `kMTAudioProcessingTapCallbacksVersion_0`.
    public var version: Int32
    /// The client's information, passed to the initialization callback.
    public var clientInfo: UnsafeMutableRawPointer?
    /// Called when the tap is made.
    public var `init`: MTAudioProcessingTapInitCallback?
    /// Called when the tap is released.
    public var finalize: MTAudioProcessingTapFinalizeCallback?
    /// Called before processing starts.
    public var prepare: MTAudioProcessingTapPrepareCallback?
    /// Called when processing stops.
    public var unprepare: MTAudioProcessingTapUnprepareCallback?
    /// Called for each block of sound.
    public var process: MTAudioProcessingTapProcessCallback

    /// Creates a structure of callbacks.
    public init(
        version: Int32, clientInfo: UnsafeMutableRawPointer?, `init`: MTAudioProcessingTapInitCallback?, finalize: MTAudioProcessingTapFinalizeCallback?,
        prepare: MTAudioProcessingTapPrepareCallback?, unprepare: MTAudioProcessingTapUnprepareCallback?, process: @escaping MTAudioProcessingTapProcessCallback
    ) {
        self.version = version
        self.clientInfo = clientInfo
        self.`init` = `init`
        self.finalize = finalize
        self.prepare = prepare
        self.unprepare = unprepare
        self.process = process
    }
}

/// An audio processing tap: the client's callbacks, called with the sound of one track of an
/// audio mix as a player plays it or an export or reader mixes it, in non-interleaved 32-bit
/// float, a block at a time.
///
/// Thread ownership: one pipeline uses a tap at a time, on its rendering thread; prepare,
/// process and unprepare come from that thread in that order.
public final class MTAudioProcessingTap: @unchecked Sendable {
    let callbacks: MTAudioProcessingTapCallbacks
    /// Where the tap processes: before or after the mix's effects.
    package let creationFlags: MTAudioProcessingTapCreationFlags
    var storage: UnsafeMutableRawPointer?
    /// The pipeline's source sound for the process call under way.
    private var source: UnsafeBufferPointer<Float>?
    private var sourceFrames = 0
    private var sourceChannels = 0
    private var sourceFlags: MTAudioProcessingTapFlags = 0
    private var sourceTimeRange = CMTimeRange.invalid
    private let prepared = NSLock()
    private var isPrepared = false

    init(callbacks: MTAudioProcessingTapCallbacks, flags: MTAudioProcessingTapCreationFlags) {
        self.callbacks = callbacks
        self.creationFlags = flags
        var made: UnsafeMutableRawPointer?
        callbacks.`init`?(self, callbacks.clientInfo, &made)
        storage = made
    }

    deinit {
        callbacks.finalize?(self)
        emptyStorage.deallocate()
    }

    /// What `MTAudioProcessingTapGetStorage` gives when the initialization callback set no storage.
    let emptyStorage: UnsafeMutableRawPointer = {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        return bytes
    }()

    /// Whether the tap processes after the mix's effects.
    package var isPostEffects: Bool { creationFlags & kMTAudioProcessingTapCreationFlag_PostEffects != 0 }

    /// Tells the tap the processing format and the most frames a call asks for; false when it is
    /// in use by another pipeline already.
    package func prepare(maxFrames: Int, sampleRate: Double, channels: Int) -> Bool {
        let claimed = prepared.withLock { () -> Bool in
            if isPrepared { return false }
            isPrepared = true
            return true
        }
        guard claimed else { return false }
        var format = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, mBytesPerPacket: 4, mFramesPerPacket: 1,
            mBytesPerFrame: 4, mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0)
        callbacks.prepare?(self, maxFrames, &format)
        return true
    }

    /// Tells the tap processing has stopped.
    package func unprepare() {
        let was = prepared.withLock { () -> Bool in
            defer { isPrepared = false }
            return isPrepared
        }
        if was { callbacks.unprepare?(self) }
    }

    /// Runs the process callback on a block of interleaved samples in place (its source sound), through
    /// `planes`, non-interleaved scratch of `channels` x `frames` floats the caller keeps; the frames the tap gave.
    package func process(
        _ samples: UnsafeMutableBufferPointer<Float>, channels: Int, planes: UnsafeMutablePointer<Float>, list: UnsafeMutableAudioBufferListPointer,
        timeRange: CMTimeRange, flags: MTAudioProcessingTapFlags
    ) -> Int {
        let frames = samples.count / channels
        source = UnsafeBufferPointer(samples)
        sourceFrames = frames
        sourceChannels = channels
        sourceFlags = flags
        sourceTimeRange = timeRange
        defer { source = nil }
        list.count = channels
        for channel in 0..<channels {
            list[channel] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(planes + channel * frames))
        }
        var given: CMItemCount = 0
        var flagsOut: MTAudioProcessingTapFlags = 0
        callbacks.process(self, frames, flags, list.unsafeMutablePointer, &given, &flagsOut)
        let made = max(0, min(frames, given))
        for channel in 0..<min(channels, list.count) {
            guard let data = list[channel].mData?.assumingMemoryBound(to: Float.self) else { continue }
            for frame in 0..<made { samples[frame * channels + channel] = data[frame] }
        }
        for index in (made * channels)..<samples.count { samples[index] = 0 }
        return made
    }

    /// Copies the source sound into a buffer list, for `MTAudioProcessingTapGetSourceAudio`.
    fileprivate func sourceAudio(
        frames: Int, into list: UnsafeMutablePointer<AudioBufferList>, flags: UnsafeMutablePointer<MTAudioProcessingTapFlags>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?, framesOut: UnsafeMutablePointer<CMItemCount>?
    ) -> OSStatus {
        guard let source else { return kMTAudioProcessingTapError_NotInProcess }
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        let count = min(frames, sourceFrames)
        for channel in 0..<min(sourceChannels, buffers.count) {
            guard let data = buffers[channel].mData?.assumingMemoryBound(to: Float.self), Int(buffers[channel].mDataByteSize) >= count * 4 else {
                return kMTAudioProcessingTapError_InvalidArgument
            }
            for frame in 0..<count { data[frame] = source[frame * sourceChannels + channel] }
            buffers[channel].mDataByteSize = UInt32(count * 4)
        }
        flags?.pointee = sourceFlags
        timeRange?.pointee = sourceTimeRange
        framesOut?.pointee = count
        return noErr
    }
}

/// A tap call was made outside the process callback.
public let kMTAudioProcessingTapError_NotInProcess: OSStatus = -12790
/// A tap call was given an argument it cannot use.
public let kMTAudioProcessingTapError_InvalidArgument: OSStatus = -12780

/// Creates an audio processing tap with the client's callbacks; the initialization callback runs before this returns.
@discardableResult
public func MTAudioProcessingTapCreate(
    _ allocator: CFAllocator?, _ callbacks: UnsafePointer<MTAudioProcessingTapCallbacks>, _ flags: MTAudioProcessingTapCreationFlags,
    _ tapOut: UnsafeMutablePointer<MTAudioProcessingTap?>
) -> OSStatus {
    let both = kMTAudioProcessingTapCreationFlag_PreEffects | kMTAudioProcessingTapCreationFlag_PostEffects
    guard callbacks.pointee.version == kMTAudioProcessingTapCallbacksVersion_0, flags & both != 0, flags & both != both else {
        tapOut.pointee = nil
        return kMTAudioProcessingTapError_InvalidArgument
    }
    tapOut.pointee = MTAudioProcessingTap(callbacks: callbacks.pointee, flags: flags)
    return noErr
}

/// Creates an audio processing tap, handing it out retained, as older Swift code receives it.
@discardableResult
public func MTAudioProcessingTapCreate(
    _ allocator: CFAllocator?, _ callbacks: UnsafePointer<MTAudioProcessingTapCallbacks>, _ flags: MTAudioProcessingTapCreationFlags,
    _ tapOut: UnsafeMutablePointer<Unmanaged<MTAudioProcessingTap>?>
) -> OSStatus {
    var made: MTAudioProcessingTap?
    let status = MTAudioProcessingTapCreate(allocator, callbacks, flags, &made)
    tapOut.pointee = made.map { Unmanaged.passRetained($0) }
    return status
}

/// Returns the storage the initialization callback set (a tap whose callback set none has 16 zeroed bytes of its own).
public func MTAudioProcessingTapGetStorage(_ tap: MTAudioProcessingTap) -> UnsafeMutableRawPointer { tap.storage ?? tap.emptyStorage }

/// Fills a buffer list with the source sound of the process call under way: up to `numberFrames`
/// frames, non-interleaved float, with its flags, time range and frame count.
@discardableResult
public func MTAudioProcessingTapGetSourceAudio(
    _ tap: MTAudioProcessingTap, _ numberFrames: CMItemCount, _ bufferListInOut: UnsafeMutablePointer<AudioBufferList>,
    _ flagsOut: UnsafeMutablePointer<MTAudioProcessingTapFlags>?, _ timeRangeOut: UnsafeMutablePointer<CMTimeRange>?,
    _ numberFramesOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    guard numberFrames >= 0 else { return kMTAudioProcessingTapError_InvalidArgument }
    return tap.sourceAudio(frames: numberFrames, into: bufferListInOut, flags: flagsOut, timeRange: timeRangeOut, framesOut: numberFramesOut)
}
