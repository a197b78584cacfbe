import CoreMedia
import XCTest

final class AudioBufferListTests: XCTestCase {
    /// A sample buffer of 16-bit interleaved stereo: frame n is (n, -n).
    private func stereo(frames: Int) throws -> CMSampleBuffer {
        let block = CMBlockBuffer(capacity: frames * 4)
        block.length = frames * 4
        let samples = block.bytes.assumingMemoryBound(to: Int16.self)
        for frame in 0..<frames {
            samples[frame * 2] = Int16(frame)
            samples[frame * 2 + 1] = Int16(-frame)
        }
        var asbd = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var format: CMAudioFormatDescription?
        XCTAssertEqual(
            CMAudioFormatDescriptionCreate(
                allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil,
                formatDescriptionOut: &format), noErr)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var buffer: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
            sampleCount: frames, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 0, sampleSizeArray: nil,
            sampleBufferOut: &buffer)
        return try XCTUnwrap(buffer)
    }

    func testTrimmingAndSpeedShapeTheOutputTimesAsAppleDocumentsThem() throws {
        let buffer = try stereo(frames: 4800)
        XCTAssertEqual(buffer.outputPresentationTimeStamp, .zero, "nothing trimmed: the presentation time")
        XCTAssertEqual(CMSampleBufferGetOutputDuration(buffer), CMTime(value: 4800, timescale: 48_000))
        let start = CMTimeCopyAsDictionary(CMTime(value: 1024, timescale: 48_000), allocator: nil)
        let end = CMTimeCopyAsDictionary(CMTime(value: 776, timescale: 48_000), allocator: nil)
        CMSetAttachment(buffer, key: kCMSampleBufferAttachmentKey_TrimDurationAtStart, value: start, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        CMSetAttachment(buffer, key: kCMSampleBufferAttachmentKey_TrimDurationAtEnd, value: end, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        // (PresentationTimeStamp + TrimDurationAtStart), and (Duration - both trims) / SpeedMultiplier.
        XCTAssertEqual(CMSampleBufferGetOutputPresentationTimeStamp(buffer), CMTime(value: 1024, timescale: 48_000))
        XCTAssertEqual(buffer.outputDuration, CMTime(value: 3000, timescale: 48_000))
        CMSetAttachment(
            buffer, key: kCMSampleBufferAttachmentKey_SpeedMultiplier, value: NSNumber(value: 2.0), attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        XCTAssertEqual(buffer.outputDuration.seconds, 1500.0 / 48_000, accuracy: 1e-9)
        CMSetAttachment(
            buffer, key: kCMSampleBufferAttachmentKey_SpeedMultiplier, value: NSNumber(value: Double.nan), attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        XCTAssertEqual(buffer.outputDuration, CMTime(value: 3000, timescale: 48_000), "a speed that is not a number is ignored")
        // Reversed, the output starts at the end less what is trimmed there.
        CMSetAttachment(buffer, key: kCMSampleBufferAttachmentKey_Reverse, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        XCTAssertEqual(buffer.outputPresentationTimeStamp, CMTime(value: 4024, timescale: 48_000))
        // A time set explicitly wins.
        XCTAssertEqual(CMSampleBufferSetOutputPresentationTimeStamp(buffer, newValue: CMTime(value: 7, timescale: 1)), noErr)
        XCTAssertEqual(buffer.outputPresentationTimeStamp, CMTime(value: 7, timescale: 1))
    }

    func testAnAudioSampleBufferIsDescribedAsABufferListOverItsOwnMemory() throws {
        let sampleBuffer = try stereo(frames: 100)
        var needed = 0
        XCTAssertEqual(
            CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                sampleBuffer, bufferListSizeNeededOut: &needed, bufferListOut: nil, bufferListSize: 0, blockBufferAllocator: nil,
                blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil), noErr)
        XCTAssertEqual(needed, MemoryLayout<AudioBufferList>.size)
        var audioBufferList = AudioBufferList()
        var blockBuffer: CMBlockBuffer?
        let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            sampleBuffer, bufferListSizeNeededOut: nil, bufferListOut: &audioBufferList, bufferListSize: MemoryLayout<AudioBufferList>.size,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment,
            blockBufferOut: &blockBuffer)
        XCTAssertEqual(status, noErr)
        XCTAssertTrue(blockBuffer === CMSampleBufferGetDataBuffer(sampleBuffer), "the sample buffer's own block")
        let buffers = UnsafeMutableAudioBufferListPointer(&audioBufferList)
        XCTAssertEqual(buffers.count, 1)
        XCTAssertEqual(buffers[0].mNumberChannels, 2)
        XCTAssertEqual(buffers[0].mDataByteSize, 400)
        let samples = UnsafeBufferPointer<Int16>(buffers[0])
        XCTAssertEqual(samples.count, 200)
        XCTAssertEqual(samples[2 * 42], 42)
        XCTAssertEqual(samples[2 * 42 + 1], -42)
    }

    func testFramesAreCopiedOutAndBadRequestsRefused() throws {
        let sampleBuffer = try stereo(frames: 100)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { list.free() }
        let memory = UnsafeMutablePointer<Int16>.allocate(capacity: 20)
        defer { memory.deallocate() }
        list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: 40, mData: memory)
        XCTAssertEqual(CMSampleBufferCopyPCMDataIntoAudioBufferList(sampleBuffer, at: 10, frameCount: 10, into: list.unsafeMutablePointer), noErr)
        XCTAssertEqual(memory[0], 10)
        XCTAssertEqual(memory[19], -19)
        XCTAssertNotEqual(
            CMSampleBufferCopyPCMDataIntoAudioBufferList(sampleBuffer, at: 95, frameCount: 10, into: list.unsafeMutablePointer), noErr, "past the end")
        XCTAssertEqual(
            CMSampleBufferCopyPCMDataIntoAudioBufferList(sampleBuffer, at: 0, frameCount: 20, into: list.unsafeMutablePointer),
            kCMSampleBufferError_ArrayTooSmall,
            "more than the buffer holds")
        XCTAssertEqual(
            CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                sampleBuffer, bufferListSizeNeededOut: nil, bufferListOut: list.unsafeMutablePointer, bufferListSize: 4,
                blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil), kCMSampleBufferError_ArrayTooSmall)
    }
}
