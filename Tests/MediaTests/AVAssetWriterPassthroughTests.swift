import XCTest
@testable import AVFoundation
import TestSupport

/// `outputSettings: nil` writes already-compressed samples as they are.
final class AVAssetWriterPassthroughTests: XCTestCase {
    /// H.264 access units made by the ffmpeg command: parameter sets and length-prefixed frames.
    struct H264Stream {
        var parameterSets: [Data] = []
        var frames: [(data: Data, keyframe: Bool)] = []
    }

    private func makeH264(frames: Int) throws -> H264Stream {
        let url = makeScratchFolder().appendingPathComponent("stream.h264")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "\(frames)", "-c:v", "libx264",
            "-bf", "0", "-g", "15", "-x264-params", "aud=1", "-f", "h264", "-y", url.path,
        ]
        try process.run()
        process.waitUntilExit()
        let bytes = [UInt8](try Data(contentsOf: url))
        // Split at start codes into NAL units.
        var units: [ArraySlice<UInt8>] = []
        var start: Int?
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let start { units.append(bytes[start..<(index > 0 && bytes[index - 1] == 0 ? index - 1 : index)]) }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start { units.append(bytes[start...]) }
        var stream = H264Stream()
        var current = Data(), keyframe = false
        for unit in units {
            switch unit.first! & 0x1F {
            case 9:  // access unit delimiter: a new frame begins
                if !current.isEmpty { stream.frames.append((current, keyframe)) }
                current = Data(); keyframe = false
            case 7, 8:
                if stream.parameterSets.count < 2 { stream.parameterSets.append(Data(unit)) }
            default:
                if unit.first! & 0x1F == 5 { keyframe = true }
                var length = UInt32(unit.count).bigEndian
                current.append(Data(bytes: &length, count: 4))
                current.append(contentsOf: unit)
            }
        }
        if !current.isEmpty { stream.frames.append((current, keyframe)) }
        return stream
    }

    private func sampleBuffer(_ data: Data, format: CMFormatDescription, time: CMTime, duration: CMTime, samples: Int = 1) -> CMSampleBuffer {
        var block: CMBlockBuffer?
        data.withUnsafeBytes { raw in
            _ = CMBlockBufferCreateWithMemoryBlock(
                allocator: nil, memoryBlock: UnsafeMutableRawPointer(mutating: raw.baseAddress!), blockLength: raw.count,
                blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: raw.count, flags: 0, blockBufferOut: &block)
        }
        var timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: time, decodeTimeStamp: time)
        var sample: CMSampleBuffer?
        CMSampleBufferCreate(
            allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
            sampleCount: samples, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 0, sampleSizeArray: nil, sampleBufferOut: &sample
        )
        return sample!
    }

    func testCompressedVideoAndPCMAudioAreWrittenAsTheyAre() async throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed")
        let stream = try makeH264(frames: 45)
        XCTAssertEqual(stream.frames.count, 45)
        var format: CMFormatDescription?
        let sets = stream.parameterSets.map { [UInt8]($0) }
        let status = sets[0].withUnsafeBufferPointer { sps in
            sets[1].withUnsafeBufferPointer { pps in
                let pointers = [sps.baseAddress!, pps.baseAddress!]
                let sizes = [sps.count, pps.count]
                return CMVideoFormatDescriptionCreateFromH264ParameterSets(
                    allocator: nil, parameterSetCount: 2, parameterSetPointers: pointers,
                    parameterSetSizes: sizes, nalUnitHeaderLength: 4, formatDescriptionOut: &format)
            }
        }
        XCTAssertEqual(status, noErr)
        XCTAssertEqual(format?.dimensions, CMVideoDimensions(width: 320, height: 240), "the size is read from the sequence parameter set")
        XCTAssertNotNil(CMFormatDescriptionGetExtensions(format!))

        var asbd = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var audioFormat: CMAudioFormatDescription?
        CMAudioFormatDescriptionCreate(
            allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &audioFormat)

        let url = makeScratchFolder().appendingPathComponent("passthrough.mov")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: format)
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: audioFormat)
        XCTAssertFalse(writer.canAdd(AVAssetWriterInput(mediaType: .video, outputSettings: nil)), "passthrough needs a format hint")
        XCTAssertTrue(writer.canAdd(video))
        writer.add(video)
        writer.add(audio)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for (index, frame) in stream.frames.enumerated() {
            let sample = sampleBuffer(
                frame.data, format: format!, time: CMTime(value: CMTimeValue(index), timescale: 30), duration: CMTime(value: 1, timescale: 30))
            if !frame.keyframe {
                // As encoder code marks it: through the sample's attachment dictionary, with Core Foundation's functions.
                let attachments = CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: true)
                let dictionary = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
                CFDictionarySetValue(
                    dictionary, Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque(), Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
            }
            XCTAssertTrue(video.append(sample))
        }
        for block in 0..<((48_000 * 3 / 2) / 960) {
            let pcm = Data(count: 960 * 4)
            XCTAssertTrue(
                audio.append(
                    sampleBuffer(
                        pcm, format: audioFormat!, time: CMTime(value: CMTimeValue(block * 960), timescale: 48_000),
                        duration: CMTime(value: 1, timescale: 48_000), samples: 960)))
        }
        video.markAsFinished()
        audio.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertEqual(probe.video?.codec, "h264")
        XCTAssertEqual(probe.video?.frames, 45)
        XCTAssertEqual(probe.audio?.codec, "pcm_s16le")
        XCTAssertEqual(probe.duration, 1.5, accuracy: 0.05)
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }
}
