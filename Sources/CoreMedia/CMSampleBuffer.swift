@_spi(Plumbing) import CoreVideo
import Foundation
import Synchronization

/// A count of items, such as samples.
public typealias CMItemCount = Int

/// The timing of one sample: its duration and its presentation and decode times.
public struct CMSampleTimingInfo: Sendable, Hashable {
    /// The sample's duration.
    public var duration: CMTime
    /// When the sample is presented.
    public var presentationTimeStamp: CMTime
    /// When the sample is decoded.
    public var decodeTimeStamp: CMTime

    /// Creates timing from its three times.
    public init(duration: CMTime, presentationTimeStamp: CMTime, decodeTimeStamp: CMTime) {
        self.duration = duration
        self.presentationTimeStamp = presentationTimeStamp
        self.decodeTimeStamp = decodeTimeStamp
    }

    /// Creates timing with every time invalid.
    public init() { self.init(duration: .invalid, presentationTimeStamp: .invalid, decodeTimeStamp: .invalid) }

    /// Timing with every time invalid.
    public static let invalid = CMSampleTimingInfo()
}

/// Timing with every time invalid.
public let kCMTimingInfoInvalid = CMSampleTimingInfo.invalid

/// A sample buffer call was given a bad argument.
public let kCMSampleBufferError_RequiredParameterMissing: OSStatus = -12731
/// The sample buffer was invalidated.
public let kCMSampleBufferError_Invalidated: OSStatus = -12744
/// A sample buffer's sizes or counts do not agree.
public let kCMSampleBufferError_InvalidEntryCount: OSStatus = -12738
/// A sample index is outside the range of samples the buffer holds.
public let kCMSampleBufferError_SampleIndexOutOfRange: OSStatus = -12734
/// The sample buffer cannot be divided into the samples asked for.
public let kCMSampleBufferError_CannotSubdivide: OSStatus = -12739
/// A sample buffer's media type does not match its buffer.
public let kCMSampleBufferError_InvalidMediaTypeForOperation: OSStatus = -12741
/// The array given was too small for what it had to hold.
public let kCMSampleBufferError_ArrayTooSmall: OSStatus = -12737
/// The sample buffer has no timing information.
public let kCMSampleBufferError_BufferHasNoSampleTimingInfo: OSStatus = -12736

/// A callback that makes a sample buffer's data ready.
public typealias CMSampleBufferMakeDataReadyCallback = (CMSampleBuffer, UnsafeMutableRawPointer?) -> OSStatus

/// Media samples with their format, timing and attachments: a video frame in an image buffer,
/// or audio samples in a block buffer.
///
/// Thread ownership: the producer fills a sample buffer before publishing it; after that
/// it is read-only, apart from its attachments, which are thread-safe. Buffers from the frame
/// path are pooled: one returns to its pool when its last reference goes.
public final class CMSampleBuffer: CMAttachmentBearer, @unchecked Sendable, CustomStringConvertible {
    package var imageBufferStorage: CVImageBuffer?
    package var dataBufferStorage: CMBlockBuffer?
    package var formatDescriptionStorage: CMFormatDescription?
    package var timing: CMSampleTimingInfo
    package var sampleCount: CMItemCount
    package var sampleSize: Int
    /// The presentation time after edits, when it was set apart from the presentation time.
    package var outputPresentationTime: CMTime?
    /// The buffer's attachments.
    @_spi(Plumbing) public let _attachmentStorage = CMAttachmentStorage()
    /// Each sample's attachments, made when first asked for.
    package let sampleAttachments = Mutex<CMSampleAttachmentsArray?>(nil)

    /// Creates an empty sample buffer for the frame path to fill.
    package init() {
        timing = .invalid
        sampleCount = 0
        sampleSize = 0
    }

    /// Empties the buffer for reuse.
    package func reset() {
        imageBufferStorage = nil
        dataBufferStorage = nil
        formatDescriptionStorage = nil
        timing = .invalid
        sampleCount = 0
        sampleSize = 0
        outputPresentationTime = nil
        _attachmentStorage.removeAll()
        sampleAttachments.withLock { $0 = nil }
    }

    /// When the first sample is presented: for capture, when it was captured, on the host clock.
    public var presentationTimeStamp: CMTime { timing.presentationTimeStamp }
    /// When the decoded, trimmed and possibly reversed samples start being presented: the time
    /// set for it, or else the presentation time plus the duration trimmed at the start (for a
    /// reversed buffer, its end less the duration trimmed at the end); for capture, the presentation time.
    public var outputPresentationTimeStamp: CMTime {
        if let outputPresentationTime { return outputPresentationTime }
        let start = timing.presentationTimeStamp
        guard start.isNumeric else { return start }
        if (_attachmentStorage.get(kCMSampleBufferAttachmentKey_Reverse)?.0 as? NSNumber)?.boolValue == true, duration.isNumeric {
            return CMTimeSubtract(CMTimeAdd(start, duration), trimDuration(kCMSampleBufferAttachmentKey_TrimDurationAtEnd) ?? .zero)
        }
        return trimDuration(kCMSampleBufferAttachmentKey_TrimDurationAtStart).map { CMTimeAdd(start, $0) } ?? start
    }
    /// How long the decoded samples are presented: the duration less what is trimmed at either
    /// end, divided by the speed multiplier.
    public var outputDuration: CMTime {
        let whole = duration
        guard whole.isNumeric else { return whole }
        let trimmed = CMTimeSubtract(
            whole,
            CMTimeAdd(
                trimDuration(kCMSampleBufferAttachmentKey_TrimDurationAtStart) ?? .zero, trimDuration(kCMSampleBufferAttachmentKey_TrimDurationAtEnd) ?? .zero))
        guard let speed = (_attachmentStorage.get(kCMSampleBufferAttachmentKey_SpeedMultiplier)?.0 as? NSNumber)?.doubleValue,
            speed.isFinite, speed > 0, speed != 1
        else { return trimmed }
        return CMTimeMultiplyByFloat64(trimmed, multiplier: 1 / speed)
    }

    /// A trim attachment's duration (a CMTime dictionary), where it is a valid, non-negative time.
    private func trimDuration(_ key: CFString) -> CMTime? {
        guard let dictionary = _attachmentStorage.get(key)?.0 as? NSDictionary else { return nil }
        let time = CMTimeMakeFromDictionary(dictionary as CFDictionary)
        return time.isNumeric && time >= .zero ? time : nil
    }
    /// When the first sample is decoded.
    public var decodeTimeStamp: CMTime { timing.decodeTimeStamp }
    /// The duration of all the samples together.
    public var duration: CMTime {
        guard timing.duration.isNumeric else { return timing.duration }
        return sampleCount > 1 && dataBufferStorage != nil && imageBufferStorage == nil && timing.duration.value == 1
            ? CMTime(value: CMTimeValue(sampleCount), timescale: timing.duration.timescale) : timing.duration
    }
    /// The image buffer, for video.
    public var imageBuffer: CVImageBuffer? { imageBufferStorage }
    /// The block buffer, for audio and compressed media.
    public var dataBuffer: CMBlockBuffer? { dataBufferStorage }
    /// The format of the samples.
    public var formatDescription: CMFormatDescription? { formatDescriptionStorage }
    /// The number of samples.
    public var numSamples: CMItemCount { sampleCount }
    /// Whether the buffer holds valid samples: true until `CMSampleBufferInvalidate` is called.
    public var isValid: Bool { !invalidated.load(ordering: .acquiring) }
    /// Whether the buffer has been invalidated.
    private let invalidated = Atomic<Bool>(false)

    /// Makes the buffer invalid; the handler set with `CMSampleBufferSetInvalidateHandler` runs once.
    package func invalidate() {
        guard invalidated.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let handler = invalidateHandler.withLock { handler -> (@Sendable (CMSampleBuffer) -> Void)? in
            defer { handler = nil }
            return handler
        }
        handler?(self)
    }

    /// What runs when the buffer is invalidated.
    package let invalidateHandler = Mutex<(@Sendable (CMSampleBuffer) -> Void)?>(nil)
    /// Whether the buffer's data is ready.
    public var dataReadiness: Bool { true }
    /// The total size of the samples in bytes.
    public var totalSampleSize: Int { dataBufferStorage?.length ?? (imageBufferStorage?.dataSize ?? 0) }

    /// A description such as `CMSampleBuffer(vide/BGRA 1280x720 pts 12.5s)`.
    public var description: String {
        "CMSampleBuffer(\(formatDescriptionStorage?.description ?? "no format") pts \(presentationTimeStamp.seconds)s, \(sampleCount) sample(s))"
    }
}

/// Creates a sample buffer around an image buffer whose data is ready.
@discardableResult
public func CMSampleBufferCreateReadyWithImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription,
    sampleTiming: UnsafePointer<CMSampleTimingInfo>,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard CMVideoFormatDescriptionMatchesImageBuffer(formatDescription, imageBuffer: imageBuffer) else {
        return kCMSampleBufferError_InvalidMediaTypeForOperation
    }
    let buffer = CMSampleBuffer()
    buffer.imageBufferStorage = imageBuffer
    buffer.formatDescriptionStorage = formatDescription
    buffer.timing = sampleTiming.pointee
    buffer.sampleCount = 1
    sampleBufferOut.pointee = buffer
    return noErr
}

/// Creates a sample buffer around an image buffer.
@discardableResult
public func CMSampleBufferCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?,
    formatDescription: CMVideoFormatDescription, sampleTiming: UnsafePointer<CMSampleTimingInfo>,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMSampleBufferCreateReadyWithImageBuffer(
        allocator: allocator, imageBuffer: imageBuffer, formatDescription: formatDescription,
        sampleTiming: sampleTiming, sampleBufferOut: sampleBufferOut)
}

/// Creates a sample buffer around a block buffer of samples.
@discardableResult
public func CMSampleBufferCreate(
    allocator: CFAllocator?, dataBuffer: CMBlockBuffer?, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?,
    formatDescription: CMFormatDescription?, sampleCount numSamples: CMItemCount,
    sampleTimingEntryCount: CMItemCount, sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleSizeEntryCount: CMItemCount, sampleSizeArray: UnsafePointer<Int>?,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard numSamples >= 0, sampleTimingEntryCount <= 1 || sampleTimingEntryCount == numSamples else { return kCMSampleBufferError_InvalidEntryCount }
    if sampleTimingEntryCount > 0, sampleTimingArray == nil { return kCMSampleBufferError_RequiredParameterMissing }
    let buffer = CMSampleBuffer()
    buffer.dataBufferStorage = dataBuffer
    buffer.formatDescriptionStorage = formatDescription
    buffer.sampleCount = numSamples
    if let sampleTimingArray, sampleTimingEntryCount > 0 { buffer.timing = sampleTimingArray.pointee }
    if let sampleSizeArray, sampleSizeEntryCount > 0 { buffer.sampleSize = sampleSizeArray.pointee }
    sampleBufferOut.pointee = buffer
    return noErr
}

/// Creates a sample buffer around a block buffer whose data is ready, as received packets are.
@discardableResult
public func CMSampleBufferCreateReady(
    allocator: CFAllocator?, dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription?, sampleCount numSamples: CMItemCount,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount, sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleSizeEntryCount numSampleSizeEntries: CMItemCount, sampleSizeArray: UnsafePointer<Int>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMSampleBufferCreate(
        allocator: allocator, dataBuffer: dataBuffer, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: formatDescription,
        sampleCount: numSamples, sampleTimingEntryCount: numSampleTimingEntries, sampleTimingArray: sampleTimingArray,
        sampleSizeEntryCount: numSampleSizeEntries, sampleSizeArray: sampleSizeArray, sampleBufferOut: sampleBufferOut)
}

/// Returns the image buffer of a video sample buffer.
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? { sbuf.imageBufferStorage }
/// Returns the block buffer of a sample buffer.
public func CMSampleBufferGetDataBuffer(_ sbuf: CMSampleBuffer) -> CMBlockBuffer? { sbuf.dataBufferStorage }
/// Returns the format description of a sample buffer.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { sbuf.formatDescriptionStorage }
/// Returns the presentation time of a sample buffer.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTimeStamp }
/// Returns the output presentation time of a sample buffer.
public func CMSampleBufferGetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.outputPresentationTimeStamp }

/// Returns how long the buffer's decoded samples are presented, after trimming and speed.
public func CMSampleBufferGetOutputDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.outputDuration }
/// Returns the decode time of a sample buffer.
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.decodeTimeStamp }
/// Returns the duration of a sample buffer.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.duration }
/// Returns the number of samples in a sample buffer.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> CMItemCount { sbuf.numSamples }
/// Returns the total size of the samples in bytes.
public func CMSampleBufferGetTotalSampleSize(_ sbuf: CMSampleBuffer) -> Int { sbuf.totalSampleSize }
/// Returns whether a sample buffer is valid.
public func CMSampleBufferIsValid(_ sbuf: CMSampleBuffer) -> Bool { sbuf.isValid }

/// Makes a sample buffer invalid, calling its invalidation handler; 0.
@discardableResult
public func CMSampleBufferInvalidate(_ sbuf: CMSampleBuffer) -> OSStatus {
    sbuf.invalidate()
    return 0
}

/// Sets the block a sample buffer runs when it is invalidated; an error if it is already invalid.
@discardableResult
public func CMSampleBufferSetInvalidateHandler(_ sbuf: CMSampleBuffer, invalidateHandler: @escaping @Sendable (CMSampleBuffer) -> Void) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    sbuf.invalidateHandler.withLock { $0 = invalidateHandler }
    return 0
}
/// Returns whether a sample buffer's data is ready.
public func CMSampleBufferDataIsReady(_ sbuf: CMSampleBuffer) -> Bool { sbuf.dataReadiness }
/// Copies out the timing of the sample at an index.
@discardableResult
public func CMSampleBufferGetSampleTimingInfo(_ sbuf: CMSampleBuffer, at sampleIndex: CMItemCount, timingInfoOut: UnsafeMutablePointer<CMSampleTimingInfo>)
    -> OSStatus
{
    guard sampleIndex >= 0, sampleIndex < max(1, sbuf.numSamples) else { return kCMSampleBufferError_SampleIndexOutOfRange }
    var timing = sbuf.timing
    if sampleIndex > 0, timing.duration.isNumeric, timing.presentationTimeStamp.isNumeric {
        timing.presentationTimeStamp = timing.presentationTimeStamp + CMTimeMultiply(timing.duration, multiplier: Int32(sampleIndex))
    }
    timingInfoOut.pointee = timing
    return noErr
}

/// The attachment key for why a frame was dropped.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_DroppedFrameReason: CFString = "DroppedFrameReason"
/// The attachment key for more about why a frame was dropped.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo: CFString = "DroppedFrameReasonInfo"
/// The frame was dropped because it arrived while the client was still busy with an earlier one.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReason_FrameWasLate: CFString = "FrameWasLate"
/// The frame was dropped because the client held on to too many buffers.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReason_OutOfBuffers: CFString = "OutOfBuffers"
/// An unknown number of frames were dropped.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReason_Discontinuity: CFString = "Discontinuity"
/// Frames were dropped while the camera switched modes.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReasonInfo_CameraModeSwitch: CFString = "CameraModeSwitch"
/// The attachment key for whether a decoder should drain after this buffer.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_DrainAfterDecoding: CFString = "DrainAfterDecoding"
/// The attachment key for whether a decoder should reset before this buffer.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding: CFString = "ResetDecoderBeforeDecoding"

/// Copies out the timing entries of a sample buffer: one, which every sample shares (each
/// sample's own time follows from it and the duration), or none when it has no timing.
@discardableResult
public func CMSampleBufferGetSampleTimingInfoArray(
    _ sbuf: CMSampleBuffer, entryCount timingArrayEntries: CMItemCount,
    arrayToFill timingArrayOut: UnsafeMutablePointer<CMSampleTimingInfo>?,
    entriesNeededOut timingArrayEntriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    let hasTiming = sbuf.timing.presentationTimeStamp.isValid || sbuf.timing.duration.isValid || sbuf.timing.decodeTimeStamp.isValid
    timingArrayEntriesNeededOut?.pointee = hasTiming ? 1 : 0
    guard hasTiming else { return kCMSampleBufferError_BufferHasNoSampleTimingInfo }
    guard let timingArrayOut else { return noErr }
    guard timingArrayEntries >= 1 else { return kCMSampleBufferError_ArrayTooSmall }
    timingArrayOut.pointee = sbuf.timing
    return noErr
}

/// Creates a sample buffer with the same samples, format and attachments and new timing: one
/// entry for all samples, or one per sample (of which the first gives the buffer's time).
@discardableResult
public func CMSampleBufferCreateCopyWithNewTiming(
    allocator: CFAllocator?, sampleBuffer originalSBuf: CMSampleBuffer,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount,
    sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard numSampleTimingEntries >= 0, numSampleTimingEntries <= 1 || numSampleTimingEntries == originalSBuf.numSamples else {
        return kCMSampleBufferError_InvalidEntryCount
    }
    if numSampleTimingEntries > 0, sampleTimingArray == nil { return kCMSampleBufferError_RequiredParameterMissing }
    let copy = CMSampleBuffer()
    copy.imageBufferStorage = originalSBuf.imageBufferStorage
    copy.dataBufferStorage = originalSBuf.dataBufferStorage
    copy.formatDescriptionStorage = originalSBuf.formatDescriptionStorage
    copy.sampleCount = originalSBuf.sampleCount
    copy.sampleSize = originalSBuf.sampleSize
    if let sampleTimingArray, numSampleTimingEntries > 0 { copy.timing = sampleTimingArray.pointee }
    for (key, value) in originalSBuf._attachmentStorage.dictionary(mode: nil) {
        let mode = originalSBuf._attachmentStorage.get(key as NSString)?.1 ?? kCMAttachmentMode_ShouldPropagate
        copy._attachmentStorage.set(key as NSString, value, mode: mode)
    }
    sampleBufferOut.pointee = copy
    return noErr
}

/// Sets the presentation time a sample buffer has after edits, apart from its presentation time.
@discardableResult
public func CMSampleBufferSetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer, newValue outputPresentationTimeStamp: CMTime) -> OSStatus {
    sbuf.outputPresentationTime = outputPresentationTimeStamp
    return noErr
}

/// Creates a sample buffer of a range of another's samples: for sound of fixed-size frames, its
/// data over the same memory (no copy), timed from the first sample of the range.
@discardableResult
public func CMSampleBufferCopySampleBufferForRange(
    allocator: CFAllocator?, sampleBuffer sbuf: CMSampleBuffer, sampleRange: CFRange, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    sampleBufferOut.pointee = nil
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    let count = max(1, sbuf.numSamples)
    guard sampleRange.location >= 0, sampleRange.length > 0, sampleRange.location + sampleRange.length <= count else {
        return kCMSampleBufferError_SampleIndexOutOfRange
    }
    let copy = CMSampleBuffer()
    copy.formatDescriptionStorage = sbuf.formatDescriptionStorage
    copy.imageBufferStorage = sbuf.imageBufferStorage
    copy.timing = sbuf.timing
    copy.sampleCount = sampleRange.length
    copy.sampleSize = sbuf.sampleSize
    if let block = sbuf.dataBufferStorage, sampleRange.length < count || sampleRange.location > 0 {
        guard block.length % count == 0 else { return kCMSampleBufferError_CannotSubdivide }
        let size = block.length / count
        guard let part = CMBlockBuffer(referencing: block, offset: sampleRange.location * size, length: sampleRange.length * size) else {
            return kCMSampleBufferError_CannotSubdivide
        }
        copy.dataBufferStorage = part
        if sampleRange.location > 0, sbuf.timing.duration.isNumeric, sbuf.timing.presentationTimeStamp.isNumeric {
            let offset = CMTimeMultiply(sbuf.timing.duration, multiplier: Int32(clamping: sampleRange.location))
            copy.timing.presentationTimeStamp = sbuf.timing.presentationTimeStamp + offset
            if sbuf.timing.decodeTimeStamp.isNumeric { copy.timing.decodeTimeStamp = sbuf.timing.decodeTimeStamp + offset }
        }
    } else {
        copy.dataBufferStorage = sbuf.dataBufferStorage
    }
    sampleBufferOut.pointee = copy
    return noErr
}
