import XCTest
import Foundation
import CoreMedia
import Synchronization

final class CMSampleBufferTests: XCTestCase {
    func testImageSampleBuffersMadeTheAppleWay() throws {
        var pixelBuffer: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &pixelBuffer), kCVReturnSuccess)
        var format: CMVideoFormatDescription?
        XCTAssertEqual(
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer!, formatDescriptionOut: &format), noErr)
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: 7, timescale: 30), decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        XCTAssertEqual(
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer!, formatDescription: format!,
                sampleTiming: &timing, sampleBufferOut: &sample), noErr)
        let buffer = try XCTUnwrap(sample)
        XCTAssertTrue(CMSampleBufferGetImageBuffer(buffer) === pixelBuffer)
        XCTAssertEqual(buffer.presentationTimeStamp, CMTime(value: 7, timescale: 30))
        XCTAssertEqual(CMSampleBufferGetDuration(buffer), CMTime(value: 1, timescale: 30))
        XCTAssertEqual(buffer.formatDescription?.dimensions, CMVideoDimensions(width: 64, height: 48))
        XCTAssertEqual(buffer.formatDescription?.mediaType, .video)
        XCTAssertNil(buffer.dataBuffer)
        var mismatched: CMVideoFormatDescription?
        XCTAssertEqual(
            CMVideoFormatDescriptionCreate(
                allocator: nil, codecType: kCVPixelFormatType_32BGRA, width: 10, height: 10, extensions: nil, formatDescriptionOut: &mismatched), noErr)
        XCTAssertNotEqual(
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: pixelBuffer!, formatDescription: mismatched!, sampleTiming: &timing, sampleBufferOut: &sample), noErr,
            "a format that does not match the image is refused")
    }

    func testEachSampleHasAMutableAttachmentsDictionaryTheBufferKeeps() throws {
        var pixelBuffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &pixelBuffer)
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixelBuffer!, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var made: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(
            allocator: nil, imageBuffer: pixelBuffer!, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &made)
        let sample = try XCTUnwrap(made)
        XCTAssertNil(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false), "none until asked for")
        XCTAssertTrue(sample.isSyncSample)
        let attachments = try XCTUnwrap(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: true))
        XCTAssertEqual(CFArrayGetCount(attachments), 1, "one dictionary a sample")
        XCTAssertTrue(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) === attachments, "the buffer keeps it")
        // As decoders' callers mark a frame: the dictionary reached by pointer is the sample's own.
        let dictionary = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
        CFDictionarySetValue(
            dictionary, Unmanaged.passUnretained(kCMSampleAttachmentKey_DisplayImmediately).toOpaque(), Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        CFDictionarySetValue(
            dictionary, Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque(), Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        let read = try XCTUnwrap(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) as? [[CFString: Any]])
        XCTAssertEqual(read.first?[kCMSampleAttachmentKey_DisplayImmediately] as? Bool, true)
        XCTAssertFalse(sample.isSyncSample, "NotSync set through the dictionary marks the sample")
        sample.reset()
        XCTAssertNil(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false), "a pooled buffer reused starts without them")
    }

    func testAttachmentsCarryDropReasonsAsStrings() {
        let sample = CMSampleBuffer()
        XCTAssertNil(CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil))
        CMSetAttachment(
            sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, value: kCMSampleBufferDroppedFrameReason_OutOfBuffers as CFTypeRef,
            attachmentMode: kCMAttachmentMode_ShouldPropagate)
        var mode: CMAttachmentMode = 99
        let value = CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: &mode)
        XCTAssertEqual(value as? String, kCMSampleBufferDroppedFrameReason_OutOfBuffers as String)
        XCTAssertEqual(mode, kCMAttachmentMode_ShouldPropagate)
        XCTAssertEqual(CMCopyDictionaryOfAttachments(allocator: nil, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate)?.count, 1)
        CMRemoveAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason)
        XCTAssertNil(CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil))
    }

    /// Four threads set, read and remove one buffer's attachments at once, so that they contend for
    /// its lock thousands of times (under scripts/tsan.sh, also a check that the sanitizer is told
    /// when a contended lock changes hands: without that it reports the entries as racing).
    func testAttachmentsSetAndReadFromSeveralThreadsAtOnceKeepEveryEntry() {
        let sample = CMSampleBuffer()
        let threads = 4
        let rounds = 3000
        let keys = (0..<threads).map { "thread \($0)" }
        let values = (0..<rounds).map { NSNumber(value: $0) }
        let misreads = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var wrong = 0
            for round in 0..<rounds {
                CMSetAttachment(sample, key: keys[thread] as CFString, value: values[round], attachmentMode: kCMAttachmentMode_ShouldPropagate)
                if (CMGetAttachment(sample, key: keys[thread] as CFString, attachmentModeOut: nil) as? NSNumber)?.intValue != round { wrong += 1 }
                if round % 7 == 0 {
                    CMRemoveAttachment(sample, key: keys[thread] as CFString)
                    if CMGetAttachment(sample, key: keys[thread] as CFString, attachmentModeOut: nil) != nil { wrong += 1 }
                }
            }
            misreads.withLock { $0 += wrong }
        }
        XCTAssertEqual(misreads.withLock { $0 }, 0, "each thread reads back what it set and nothing after removing it")
        let all = CMCopyDictionaryOfAttachments(allocator: nil, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate) as? [String: Any]
        XCTAssertEqual(all?.count, threads, "one entry a thread")
        for key in keys { XCTAssertEqual((all?[key] as? NSNumber)?.intValue, rounds - 1) }
    }

    func testABlockBufferIsFilledWithAByteWithinItsLength() throws {
        var block: CMBlockBuffer?
        XCTAssertEqual(
            CMBlockBufferCreateWithMemoryBlock(
                allocator: nil, memoryBlock: nil, blockLength: 8, blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: 8, flags: 0,
                blockBufferOut: &block), kCMBlockBufferNoErr)
        let buffer = try XCTUnwrap(block)
        XCTAssertEqual(CMBlockBufferFillDataBytes(with: 0, blockBuffer: buffer, offsetIntoDestination: 0, dataLength: 8), kCMBlockBufferNoErr)
        XCTAssertEqual(CMBlockBufferFillDataBytes(with: 7, blockBuffer: buffer, offsetIntoDestination: 2, dataLength: 3), kCMBlockBufferNoErr)
        var bytes = [UInt8](repeating: 9, count: 8)
        XCTAssertEqual(CMBlockBufferCopyDataBytes(buffer, atOffset: 0, dataLength: 8, destination: &bytes), kCMBlockBufferNoErr)
        XCTAssertEqual(bytes, [0, 0, 7, 7, 7, 0, 0, 0])
        XCTAssertEqual(CMBlockBufferFillDataBytes(with: 1, blockBuffer: buffer, offsetIntoDestination: 6, dataLength: 3), kCMBlockBufferBadOffsetParameterErr)
    }

    func testARangeOfSoundSamplesIsTheSameMemoryTimedFromItsFirstSample() throws {
        var asbd = AudioStreamBasicDescription(
            mSampleRate: 1_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var format: CMAudioFormatDescription?
        CMAudioFormatDescriptionCreate(
            allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &format)
        var block: CMBlockBuffer?
        CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: 40, blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: 40, flags: 0,
            blockBufferOut: &block)
        let samples: [Int16] = (0..<20).map { Int16($0) }
        samples.withUnsafeBytes { _ = CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: 40) }
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: 1_000), presentationTimeStamp: CMTime(value: 500, timescale: 1_000), decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format, sampleCount: 10,
            sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 0, sampleSizeArray: nil, sampleBufferOut: &sample)
        let whole = try XCTUnwrap(sample)

        var part: CMSampleBuffer?
        XCTAssertEqual(
            CMSampleBufferCopySampleBufferForRange(allocator: nil, sampleBuffer: whole, sampleRange: CFRangeMake(3, 4), sampleBufferOut: &part), noErr)
        let range = try XCTUnwrap(part)
        XCTAssertEqual(range.numSamples, 4)
        XCTAssertEqual(range.presentationTimeStamp, CMTime(value: 503, timescale: 1_000), "timed from the range's first sample")
        XCTAssertEqual(range.duration, CMTime(value: 4, timescale: 1_000))
        var bytes = [Int16](repeating: 0, count: 8)
        bytes.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(range.dataBuffer!, atOffset: 0, dataLength: 16, destination: $0.baseAddress!) }
        XCTAssertEqual(bytes, [6, 7, 8, 9, 10, 11, 12, 13], "frames 3 to 6, both channels")
        block!.withUnsafeMutableBytes { $0.storeBytes(of: Int16(99), toByteOffset: 12, as: Int16.self) }
        XCTAssertEqual(range.dataBuffer!.withUnsafeMutableBytes { $0.load(as: Int16.self) }, 99, "the same memory, not a copy")

        XCTAssertEqual(
            CMSampleBufferCopySampleBufferForRange(allocator: nil, sampleBuffer: whole, sampleRange: CFRangeMake(8, 3), sampleBufferOut: &part),
            kCMSampleBufferError_SampleIndexOutOfRange)
        XCTAssertNil(part)
        var reference: CMBlockBuffer?
        XCTAssertEqual(
            CMBlockBufferCreateWithBufferReference(
                allocator: nil, referenceBuffer: block!, offsetToData: 36, dataLength: 8, flags: 0, blockBufferOut: &reference),
            kCMBlockBufferBadOffsetParameterErr)
    }

    func testAudioSampleBuffersAndBlockBuffers() throws {
        var asbd = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 4,
            mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var format: CMAudioFormatDescription?
        XCTAssertEqual(
            CMAudioFormatDescriptionCreate(
                allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil,
                extensions: nil, formatDescriptionOut: &format), noErr)
        XCTAssertEqual(CMAudioFormatDescriptionGetStreamBasicDescription(format!)?.pointee, asbd)
        let bytes: [UInt8] = (0..<400).map { UInt8($0 % 256) }
        var block: CMBlockBuffer?
        XCTAssertEqual(
            bytes.withUnsafeBytes { raw in
                CMBlockBufferCreateWithMemoryBlock(
                    allocator: nil, memoryBlock: UnsafeMutableRawPointer(mutating: raw.baseAddress!), blockLength: 400,
                    blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: 400, flags: 0, blockBufferOut: &block)
            }, kCMBlockBufferNoErr)
        var copy = [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(CMBlockBufferCopyDataBytes(block!, atOffset: 100, dataLength: 10, destination: &copy), kCMBlockBufferNoErr)
        XCTAssertEqual(copy, Array(bytes[100..<110]))
        XCTAssertEqual(CMBlockBufferCopyDataBytes(block!, atOffset: 395, dataLength: 10, destination: &copy), kCMBlockBufferBadOffsetParameterErr)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 44_100), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        XCTAssertEqual(
            CMSampleBufferCreate(
                allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
                formatDescription: format, sampleCount: 100, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
                sampleSizeEntryCount: 0, sampleSizeArray: nil, sampleBufferOut: &sample), noErr)
        XCTAssertEqual(CMSampleBufferGetNumSamples(sample!), 100)
        XCTAssertEqual(CMSampleBufferGetDuration(sample!), CMTime(value: 100, timescale: 44_100), "duration covers every sample")
        var fifth = CMSampleTimingInfo()
        XCTAssertEqual(CMSampleBufferGetSampleTimingInfo(sample!, at: 5, timingInfoOut: &fifth), noErr)
        XCTAssertEqual(fifth.presentationTimeStamp, CMTime(value: 5, timescale: 44_100))
    }

    func testAnInvalidatedBufferSaysSoAndRunsItsHandlerOnce() {
        let sample = CMSampleBuffer()
        XCTAssertTrue(CMSampleBufferIsValid(sample))
        final class Count: @unchecked Sendable { var value = 0 }
        let calls = Count()
        XCTAssertEqual(CMSampleBufferSetInvalidateHandler(sample) { _ in calls.value += 1 }, noErr)
        XCTAssertEqual(CMSampleBufferInvalidate(sample), noErr)
        XCTAssertFalse(CMSampleBufferIsValid(sample))
        XCTAssertFalse(sample.isValid)
        CMSampleBufferInvalidate(sample)
        XCTAssertEqual(calls.value, 1, "the handler runs once")
        XCTAssertEqual(CMSampleBufferSetInvalidateHandler(sample) { _ in }, kCMSampleBufferError_Invalidated)
    }
}
