import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// WWDC 2013 session 610, "Recording": "To do custom recording, you must use the AVAssetWriter class ...
/// assetWriterInput.expectsMediaDataInRealTime=YES", and AVOutputSettingsAssistant.
final class AVAssetWriterTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    private func videoSettings(_ width: Int, _ height: Int, codec: AVVideoCodecType = .h264) -> [String: Any] {
        [
            AVVideoCodecKey: codec, AVVideoWidthKey: width, AVVideoHeightKey: height,
            AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: 2_000_000, AVVideoExpectedSourceFrameRateKey: 30],
        ]
    }

    private let audioSettings: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1]

    /// A solid BGRA frame from a pool, its colour changing with `index`.
    private func frame(from pool: CVPixelBufferPool, index: Int) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer), kCVReturnSuccess)
        CVPixelBufferLockBaseAddress(buffer!, [])
        let base = CVPixelBufferGetBaseAddress(buffer!)!.assumingMemoryBound(to: UInt32.self)
        let count = CVPixelBufferGetBytesPerRow(buffer!) / 4 * CVPixelBufferGetHeight(buffer!)
        base.update(repeating: 0xFF00_0000 | UInt32(index * 4 % 256) << 16 | 0x80 << 8, count: count)
        CVPixelBufferUnlockBaseAddress(buffer!, [])
        return buffer!
    }

    /// A buffer of 16-bit mono samples of a 440 Hz tone at 44.1 kHz, starting at sample `first`.
    private func audioBuffer(first: Int, count: Int) -> CMSampleBuffer {
        let samples = (0..<count).map { Int16(sin(Double(first + $0) * 2 * .pi * 440 / 44_100) * 8000) }
        return PCMSampleBuffers.make(samples, channels: 1, sampleRate: 44_100, firstFrame: first)
    }

    func testWritingFramesAndAudioGivesTheFileTheSettingsAsk() async throws {
        let url = makeScratchFolder().appendingPathComponent("written.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings(320, 240))
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: audioSettings)
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(
            assetWriterInput: video,
            sourcePixelBufferAttributes: [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 320,
                kCVPixelBufferHeightKey as String: 240,
            ])
        XCTAssertTrue(writer.canAdd(video))
        writer.add(video)
        writer.add(audio)
        XCTAssertFalse(writer.canAdd(AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings(320, 240))), "one video input")
        XCTAssertNil(adaptor.pixelBufferPool, "no pool before writing starts")
        XCTAssertTrue(writer.startWriting())
        XCTAssertEqual(writer.status, .writing)
        writer.startSession(atSourceTime: CMTime(value: 10, timescale: 1))
        let pool = try XCTUnwrap(adaptor.pixelBufferPool)
        for index in 0..<60 {
            XCTAssertTrue(adaptor.append(frame(from: pool, index: index), withPresentationTime: CMTime(value: 300 + CMTimeValue(index), timescale: 30)))
        }
        var sample = 441_000
        while sample < 441_000 + 88_200 {
            XCTAssertTrue(audio.append(audioBuffer(first: sample, count: 1024)))
            sample += 1024
        }
        video.markAsFinished()
        audio.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertTrue(probe.formatName.contains("mp4"))
        XCTAssertEqual(probe.video?.codec, "h264")
        XCTAssertEqual(probe.video?.width, 320)
        XCTAssertEqual(probe.video?.frames, 60)
        XCTAssertEqual(probe.video?.startTime ?? -1, 0, accuracy: 0.001, "times are relative to the session's start")
        XCTAssertEqual(probe.audio?.codec, "aac")
        XCTAssertEqual(probe.duration, 2, accuracy: 0.1)
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    func testASampleBufferAskingForAKeyFrameGetsOne() async throws {
        let url = makeScratchFolder().appendingPathComponent("keyframes.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        var settings = videoSettings(320, 240)
        settings[AVVideoCompressionPropertiesKey] = [AVVideoMaxKeyFrameIntervalKey: 300, AVVideoAllowFrameReorderingKey: false]
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        video.expectsMediaDataInRealTime = false
        writer.add(video)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let pool = try XCTUnwrap(CVPixelBufferPool(width: 320, height: 240, pixelFormatType: kCVPixelFormatType_32BGRA))
        for index in 0..<60 {
            let pixels = frame(from: pool, index: 0)  // one picture throughout: no scene cut makes a keyframe of its own
            var description: CMVideoFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels, formatDescriptionOut: &description)
            var timing = CMSampleTimingInfo(
                duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30), decodeTimeStamp: .invalid)
            var sample: CMSampleBuffer?
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: pixels, formatDescription: description!, sampleTiming: &timing, sampleBufferOut: &sample)
            if index == 17 || index == 41 {
                CMSetAttachment(
                    sample!, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
            }
            XCTAssertTrue(video.append(sample!))
        }
        video.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        let keyframes = TestMovies.packets(url, stream: "v:0").filter(\.keyframe).map { Int(($0.pts * 30).rounded()) }
        XCTAssertEqual(keyframes, [0, 17, 41], "the first picture and the two that asked, no other in 300")
    }

    func testInvalidSettingsAreRejectedBeforeTheFirstFrame() throws {
        let writer = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("x.mov"), fileType: .mov)
        XCTAssertTrue(writer.canApply(outputSettings: videoSettings(640, 480), forMediaType: .video))
        XCTAssertFalse(writer.canApply(outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264], forMediaType: .video), "no size")
        XCTAssertFalse(writer.canApply(outputSettings: [AVVideoCodecKey: "xvid", AVVideoWidthKey: 640, AVVideoHeightKey: 480], forMediaType: .video))
        XCTAssertFalse(writer.canApply(outputSettings: videoSettings(641, 480), forMediaType: .video), "odd widths cannot be encoded")
        var unknown = videoSettings(640, 480)
        unknown["AVVideoFancyKey"] = true
        XCTAssertFalse(writer.canApply(outputSettings: unknown, forMediaType: .video))
        XCTAssertFalse(writer.canApply(outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM], forMediaType: .audio))
        XCTAssertFalse(writer.canApply(outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVNumberOfChannelsKey: 6], forMediaType: .audio))
        XCTAssertTrue(writer.canApply(outputSettings: audioSettings, forMediaType: .audio))
        XCTAssertThrowsError(try AVAssetWriter(outputURL: URL(string: "https://example.com/x.mov")!, fileType: .mov), "only file URLs")
    }

    func testAnExistingFileFailsAtStartAndIsUntouched() throws {
        let url = makeScratchFolder().appendingPathComponent("exists.mov")
        try Data("keep".utf8).write(to: url)
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings(320, 240)))
        XCTAssertFalse(writer.startWriting())
        XCTAssertEqual(writer.status, .failed)
        XCTAssertEqual((writer.error as? AVError)?.code, .fileAlreadyExists)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "keep")
    }

    func testReadinessIsRealBackPressureAndRequestMediaDataDrivesTheWriter() async throws {
        let url = makeScratchFolder().appendingPathComponent("pressure.mov")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings(1280, 720))
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        XCTAssertTrue(input.isReadyForMoreMediaData)
        let pool = try XCTUnwrap(adaptor.pixelBufferPool)
        final class Counter: @unchecked Sendable { var appended = 0; var sawNotReady = false }
        let counter = Counter()
        let done = expectation(description: "all frames appended")
        let frames = (0..<6).map { frame(from: pool, index: $0) }
        input.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) {
            while input.isReadyForMoreMediaData && counter.appended < 90 {
                adaptor.append(frames[counter.appended % frames.count], withPresentationTime: CMTime(value: CMTimeValue(counter.appended), timescale: 30))
                counter.appended += 1
            }
            if !input.isReadyForMoreMediaData { counter.sawNotReady = true }
            if counter.appended == 90 {
                input.markAsFinished()
                done.fulfill()
            }
        }
        await fulfillment(of: [done], timeout: 60)
        XCTAssertTrue(counter.sawNotReady, "a writer that cannot keep up says so")
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed)
        XCTAssertEqual(MediaProbe.probe(url)?.video?.frames, 90)
    }

    func testCancellingRemovesTheFile() throws {
        let url = makeScratchFolder().appendingPathComponent("cancelled.mov")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings(320, 240)))
        writer.startWriting()
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
        writer.cancelWriting()
        XCTAssertEqual(writer.status, .cancelled)
        XCTAssertTrue(waitUntil { !FileManager.default.fileExists(atPath: url.path) })
    }

    func testWritingACaptureSessionInRealTime() throws {
        // The VideoSnake pattern: frames from a video data output appended as they arrive.
        let url = makeScratchFolder().appendingPathComponent("live.mov")
        let assistant = try XCTUnwrap(AVOutputSettingsAssistant(preset: .preset640x480))
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(
            allocator: nil, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 640, height: 480, extensions: nil, formatDescriptionOut: &format)
        assistant.sourceVideoFormat = format
        assistant.sourceVideoAverageFrameDuration = CMTime(value: 1, timescale: 30)
        let writer = try AVAssetWriter(outputURL: url, fileType: assistant.outputFileType)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: assistant.videoSettings)
        input.expectsMediaDataInRealTime = true
        writer.add(input)
        XCTAssertTrue(writer.startWriting())
        let collector = FrameCollector()
        let lock = NSLock()
        var started = false, appended = 0, times: [CMTime] = []
        collector.onFrame = { sample in
            lock.withLock {
                if !started { writer.startSession(atSourceTime: sample.presentationTimeStamp); started = true }
                if appended < 45, input.isReadyForMoreMediaData, input.append(sample) {
                    appended += 1
                    times.append(sample.presentationTimeStamp)
                }
            }
        }
        let (session, _) = try makeVideoSession(collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil { lock.withLock { appended >= 45 } })
        session.stopRunning()
        input.markAsFinished()
        let finished = expectation(description: "finished")
        writer.finishWriting { finished.fulfill() }
        wait(for: [finished], timeout: 20)
        XCTAssertEqual(writer.status, .completed)
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertEqual(probe.video?.frames, 45)
        // The movie lasts from the first frame's capture time to the last one's end: 1.5 s when the
        // camera kept its rate, longer when a busy machine made it pass frame times over.
        let span = lock.withLock { (times.last! - times.first!).seconds + 1.0 / 30 }
        XCTAssertGreaterThanOrEqual(span, 1.5 - 0.01)
        XCTAssertEqual(probe.duration, span, accuracy: 0.05, "capture timestamps give the real timing")
    }

    func testTheAssistantFitsThePresetWithoutUpscalingAndFollowsTheFrameRate() throws {
        XCTAssertTrue(AVOutputSettingsAssistant.availableOutputSettingsPresets().contains(.preset1920x1080))
        let assistant = try XCTUnwrap(AVOutputSettingsAssistant(preset: .preset1920x1080))
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(
            allocator: nil, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 1280, height: 720, extensions: nil, formatDescriptionOut: &format
        )
        assistant.sourceVideoFormat = format
        assistant.sourceVideoAverageFrameDuration = CMTime(value: 1, timescale: 30)
        let thirty = try XCTUnwrap(assistant.videoSettings)
        XCTAssertEqual(attributeInt(thirty[AVVideoWidthKey]), 1280, "a 720p source is not upscaled")
        XCTAssertEqual(attributeInt(thirty[AVVideoHeightKey]), 720)
        assistant.sourceVideoAverageFrameDuration = CMTime(value: 1, timescale: 60)
        let sixty = try XCTUnwrap(assistant.videoSettings)
        let rate30 = attributeInt((thirty[AVVideoCompressionPropertiesKey] as! [String: Any])[AVVideoAverageBitRateKey])!
        let rate60 = attributeInt((sixty[AVVideoCompressionPropertiesKey] as! [String: Any])[AVVideoAverageBitRateKey])!
        XCTAssertEqual(Double(rate60) / Double(rate30), 2, accuracy: 0.01, "60 fps gets twice the bits")
        let small = try XCTUnwrap(AVOutputSettingsAssistant(preset: .preset640x480))
        CMVideoFormatDescriptionCreate(
            allocator: nil, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 1920, height: 1080, extensions: nil,
            formatDescriptionOut: &format)
        small.sourceVideoFormat = format
        XCTAssertEqual(attributeInt(small.videoSettings![AVVideoWidthKey]), 640, "a 16:9 source fits the 640x480 box")
        XCTAssertEqual(attributeInt(small.videoSettings![AVVideoHeightKey]), 360)
        XCTAssertEqual(attributeInt(small.audioSettings![AVFormatIDKey]).map { UInt32($0) }, kAudioFormatMPEG4AAC)
        XCTAssertEqual(small.outputFileType, .mov)
        let writer = try AVAssetWriter(outputURL: makeScratchFolder().appendingPathComponent("a.mov"), fileType: .mov)
        XCTAssertTrue(writer.canApply(outputSettings: small.videoSettings, forMediaType: .video))
        XCTAssertTrue(writer.canApply(outputSettings: small.audioSettings, forMediaType: .audio))
    }
}
