import CaptureTestSupport
import UniformTypeIdentifiers
import XCTest
@testable import AVFoundation
import TestSupport

/// WWDC 2020 session 10011, "Author fragmented MPEG-4 content with AVAssetWriter": a writer made
/// with a content type outputs an initialization segment and separable segments to its delegate,
/// cut at the interval from the initial segment start time, each with a report.
final class AVAssetWriterSegmentTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    /// Keeps what the writer gives it.
    final class Collector: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [(Data, AVAssetSegmentType, AVAssetSegmentReport?)] = []
        var segments: [(data: Data, type: AVAssetSegmentType, report: AVAssetSegmentReport?)] { lock.withLock { kept.map { ($0.0, $0.1, $0.2) } } }

        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType, segmentReport: AVAssetSegmentReport?)
        {
            lock.withLock { kept.append((segmentData, segmentType, segmentReport)) }
        }
    }

    /// Only the form without a report, as older delegates implement.
    final class PlainCollector: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var types: [AVAssetSegmentType] = []
        var segmentTypes: [AVAssetSegmentType] { lock.withLock { types } }

        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType) {
            lock.withLock { types.append(segmentType) }
        }
    }

    /// Writes `seconds` of 30 fps video (a keyframe a second) and 48 kHz AAC through a segment writer.
    private func writeSegments(seconds: Int, interval: CMTime, initialStart: CMTime, delegate: any AVAssetWriterDelegate) async throws -> AVAssetWriter {
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = interval
        writer.initialSegmentStartTime = initialStart
        writer.delegate = delegate
        let video = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240,
                AVVideoCompressionPropertiesKey: [AVVideoMaxKeyFrameIntervalKey: 30, AVVideoExpectedSourceFrameRateKey: 30],
            ])
        let audio = AVAssetWriterInput(
            mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(
            assetWriterInput: video, sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        writer.add(video)
        writer.add(audio)
        XCTAssertTrue(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: initialStart)
        var frame: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &frame)
        var sample = 0
        for index in 0..<(seconds * 30) {
            let time = initialStart + CMTime(value: CMTimeValue(index), timescale: 30)
            while !video.isReadyForMoreMediaData { try await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertTrue(adaptor.append(frame!, withPresentationTime: time))
            while sample < (index + 1) * 1600 {
                XCTAssertTrue(audio.append(silence(first: sample, start: initialStart)))
                sample += 1600
            }
        }
        video.markAsFinished()
        audio.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        return writer
    }

    /// 1600 frames of 16-bit mono silence at 48 kHz, starting at sample `first` after `start`.
    private func silence(first: Int, start: CMTime) -> CMSampleBuffer {
        PCMSampleBuffers.make([Int16](repeating: 0, count: 1600), channels: 1, sampleRate: 48_000, firstFrame: first, start: start)
    }

    func testSegmentsAreCutAtTheIntervalAndTogetherPlayAsTheMovie() async throws {
        let collector = Collector()
        let writer = try await writeSegments(
            seconds: 6, interval: CMTime(value: 2, timescale: 1), initialStart: CMTime(value: 10, timescale: 1), delegate: collector)
        XCTAssertEqual(writer.outputFileTypeProfile, .mpeg4AppleHLS)
        let segments = collector.segments
        XCTAssertEqual(segments.first?.type, .initialization)
        XCTAssertNil(segments.first?.report, "an initialization segment has no report")
        XCTAssertEqual(segments.filter { $0.type == .initialization }.count, 1)
        let separable = segments.dropFirst()
        XCTAssertEqual(separable.count, 3, "6 s cut every 2 s")
        let initialization = try XCTUnwrap(segments.first?.data)
        XCTAssertEqual(String(decoding: initialization[4..<8], as: UTF8.self), "ftyp")
        XCTAssertTrue(initialization.range(of: Data("moov".utf8)) != nil)

        for (index, segment) in separable.enumerated() {
            XCTAssertEqual(segment.type, .separable)
            XCTAssertTrue(segment.data.range(of: Data("moof".utf8)) != nil)
            let report = try XCTUnwrap(segment.report)
            XCTAssertEqual(report.segmentType, .separable)
            let video = try XCTUnwrap(report.trackReports.first { $0.mediaType == .video })
            XCTAssertEqual(video.earliestPresentationTimeStamp.seconds, Double(index * 2), accuracy: 0.001, "each segment starts at its boundary")
            XCTAssertEqual(video.duration.seconds, 2, accuracy: 0.001)
            let first = try XCTUnwrap(video.firstVideoSampleInformation)
            XCTAssertTrue(first.isSyncSample, "a segment starts with a sync sample")
            XCTAssertEqual(first.presentationTimeStamp, video.earliestPresentationTimeStamp)
            XCTAssertGreaterThan(first.length, 0)
            XCTAssertLessThanOrEqual(first.offset + first.length, segment.data.count)
            let audio = try XCTUnwrap(report.trackReports.first { $0.mediaType == .audio })
            XCTAssertNil(audio.firstVideoSampleInformation)
            XCTAssertEqual(audio.duration.seconds, 2, accuracy: 0.1)
            XCTAssertNotEqual(audio.trackID, video.trackID)
        }

        // The initialization segment and the segments after it are a movie any player reads.
        let joined = makeScratchFolder().appendingPathComponent("joined.mp4")
        try separable.reduce(initialization) { $0 + $1.data }.write(to: joined)
        let probe = try XCTUnwrap(MediaProbe.probe(joined))
        XCTAssertEqual(probe.video?.frames, 180)
        XCTAssertEqual(probe.duration, 6, accuracy: 0.1)
        XCTAssertTrue(MediaProbe.decodesCleanly(joined))
    }

    /// Neither sound that runs ahead of the pictures (a busy machine's camera lags its microphone)
    /// nor a keyframe the encoder makes just before a boundary (here a picture that asks for one, as
    /// a scene cut would; with B-frames it leaves the encoder after the boundary's picture went in)
    /// ends a segment early: each starts with the picture at its boundary.
    func testAKeyframeJustBeforeABoundaryDoesNotCutTheSegmentShort() async throws {
        let collector = Collector()
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = CMTime(value: 1, timescale: 1)
        writer.initialSegmentStartTime = .zero
        writer.delegate = collector
        let video = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240,
                AVVideoCompressionPropertiesKey: [
                    AVVideoMaxKeyFrameIntervalKey: 300, AVVideoExpectedSourceFrameRateKey: 30, AVVideoAllowFrameReorderingKey: true,
                ],
            ])
        let audio = AVAssetWriterInput(
            mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1])
        writer.add(video)
        writer.add(audio)
        XCTAssertTrue(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: .zero)
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &pixels)
        var description: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels!, formatDescriptionOut: &description)
        var sample = 0
        for index in 0..<120 {
            // The sound is written 5 frames (167 ms) ahead of the pictures.
            while sample < (index + 6) * 1600 {
                XCTAssertTrue(audio.append(silence(first: sample, start: .zero)))
                sample += 1600
            }
            var timing = CMSampleTimingInfo(
                duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: CMTimeValue(index), timescale: 30), decodeTimeStamp: .invalid)
            var picture: CMSampleBuffer?
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: pixels!, formatDescription: description!, sampleTiming: &timing, sampleBufferOut: &picture)
            if index % 30 == 26 {
                CMSetAttachment(
                    picture!, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
            }
            while !video.isReadyForMoreMediaData { try await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertTrue(video.append(picture!))
        }
        video.markAsFinished()
        audio.markAsFinished()
        await writer.finishWriting()
        XCTAssertEqual(writer.status, .completed, "\(String(describing: writer.error))")
        let reports = collector.segments.dropFirst().compactMap { $0.report?.trackReports.first { $0.mediaType == .video } }
        XCTAssertEqual(reports.map { $0.earliestPresentationTimeStamp.seconds }, [0, 1, 2, 3], "each segment starts at its boundary")
        XCTAssertEqual(reports.map { $0.duration.seconds }, [1, 1, 1, 1])
        XCTAssertTrue(reports.allSatisfy { $0.firstVideoSampleInformation?.isSyncSample == true })
    }

    func testADelegateWithoutReportsHearsTooAndAWriterWithoutADelegateFailsClearly() async throws {
        let plain = PlainCollector()
        _ = try await writeSegments(seconds: 2, interval: CMTime(value: 1, timescale: 1), initialStart: .zero, delegate: plain)
        XCTAssertEqual(plain.segmentTypes, [.initialization, .separable, .separable])

        let lonely = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        lonely.add(AVAssetWriterInput(mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC]))
        XCTAssertFalse(lonely.startWriting())
        XCTAssertTrue("\(String(describing: lonely.error))".contains("delegate"))

        let untimed = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        untimed.outputFileTypeProfile = .mpeg4CMAFCompliant
        untimed.preferredOutputSegmentInterval = CMTime(value: 6, timescale: 1)
        untimed.delegate = plain
        untimed.add(AVAssetWriterInput(mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC]))
        XCTAssertFalse(untimed.startWriting(), "a streaming profile with an interval needs the initial segment start time")
    }
}
