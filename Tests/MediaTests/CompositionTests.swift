import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVMutableComposition (the AV Foundation Programming Guide, "Editing": "you use the AVMutableComposition class to build
/// temporal edits", and SloPoke's "setting time scales for portions of a composition"), read back
/// and exported passthrough, which "retimes the media with the sections of the media tagged as
/// section 60 fps, section slowed down, or section sped up" ("Export").
final class CompositionTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 600) }

    /// A 4-second 60 fps 320x240 recording with a 1 kHz tone, and a composition of it whose second
    /// second plays at quarter speed (1-2 s scaled to 4 s: 7 s in all).
    private func slowMotion(_ folder: URL) throws -> (source: URL, composition: AVMutableComposition) {
        let source = folder.appendingPathComponent("sixty.mp4")
        try TestMovies.make(
            source, inputs: ["testsrc2=s=320x240:r=60:d=4", "sine=frequency=1000:sample_rate=48000:duration=4"],
            arguments: [
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-bf", "0", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-shortest",
            ])
        let composition = AVMutableComposition()
        let asset = AVURLAsset(url: source)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        composition.scaleTimeRange(CMTimeRange(start: seconds(1), duration: seconds(1)), toDuration: seconds(4))
        return (source, composition)
    }

    /// Editing code takes a mutable composition's tracks as mutable tracks, without a cast, and an
    /// immutable composition's as composition tracks, as Apple's declarations give them; seen as
    /// an asset, the same tracks.
    func testACompositionsTracksAreOfItsOwnTrackType() throws {
        let (_, composition) = try slowMotion(makeScratchFolder())
        let all: [AVMutableCompositionTrack] = composition.tracks
        XCTAssertEqual(all.map(\.mediaType), [.video, .audio])
        let video: AVMutableCompositionTrack = try XCTUnwrap(composition.tracks(withMediaType: .video).first)
        let found: AVMutableCompositionTrack? = composition.track(withTrackID: video.trackID)
        XCTAssertTrue(found === video)
        XCTAssertNil(composition.track(withTrackID: 999))
        let immutable: AVComposition = composition
        let segments: [[AVCompositionTrackSegment]] = immutable.tracks.map(\.segments)
        XCTAssertEqual(segments.map(\.count), [3, 3], "the slow-motion edit splits both tracks")
        XCTAssertEqual(immutable.tracks(withMediaType: .audio).map(\.trackID), [all[1].trackID])
        XCTAssertTrue(immutable.track(withTrackID: video.trackID) === video)
        let asset: AVAsset = composition
        XCTAssertEqual(asset.tracks.map(\.trackID), all.map(\.trackID))
        XCTAssertEqual(asset.tracks(withMediaType: .video).count, 1)
        composition.removeTrack(video)
        XCTAssertEqual(composition.tracks.map(\.mediaType), [.audio])
    }

    func testEditsPlaceAndScaleSegmentsOnTheTimeline() throws {
        let (_, composition) = try slowMotion(makeScratchFolder())
        XCTAssertEqual(composition.duration.seconds, 7, accuracy: 0.03)
        let video = try XCTUnwrap(composition.tracks(withMediaType: .video).first)
        let mappings = video.segments.map { ($0.timeMapping.source, $0.timeMapping.target) }
        XCTAssertEqual(mappings.count, 3)
        XCTAssertEqual(mappings[1].0.start.seconds, 1, accuracy: 0.001)
        XCTAssertEqual(mappings[1].0.duration.seconds, 1, accuracy: 0.001)
        XCTAssertEqual(mappings[1].1.start.seconds, 1, accuracy: 0.001)
        XCTAssertEqual(mappings[1].1.duration.seconds, 4, accuracy: 0.001, "a quarter speed")
        XCTAssertEqual(mappings[2].1.start.seconds, 5, accuracy: 0.001, "what follows moves on")
        XCTAssertEqual(video.minFrameDuration.seconds, 1.0 / 60, accuracy: 0.0005)
        XCTAssertEqual(video.naturalSize, CGSize(width: 320, height: 240))

        // Removing the first second moves everything back; an empty range pushes it on again.
        video.removeTimeRange(CMTimeRange(start: .zero, duration: seconds(1)))
        XCTAssertEqual(video.timeRange.duration.seconds, 6, accuracy: 0.03)
        XCTAssertEqual(video.segments[0].timeMapping.target.duration.seconds, 4, accuracy: 0.001)
        video.insertEmptyTimeRange(CMTimeRange(start: .zero, duration: seconds(0.5)))
        XCTAssertTrue(video.segments[0].isEmpty)
        XCTAssertEqual(video.segments[1].timeMapping.target.start.seconds, 0.5, accuracy: 0.001)
        XCTAssertEqual(video.segment(forTrackTime: seconds(1))?.timeMapping.source.start.seconds ?? -1, 1, accuracy: 0.001)

        // A track takes only its own media type.
        let sound = try XCTUnwrap(composition.tracks(withMediaType: .audio).first)
        XCTAssertThrowsError(try video.insertTimeRange(CMTimeRange(start: .zero, duration: seconds(1)), of: sound, at: .zero))
        XCTAssertNil(composition.addMutableTrack(withMediaType: .video, preferredTrackID: video.trackID), "the identifier is taken")
    }

    func testReadingAScaledCompositionGivesEveryFrameAtItsNewTime() throws {
        let (_, composition) = try slowMotion(makeScratchFolder())
        let reader = try AVAssetReader(asset: composition)
        let output = AVAssetReaderTrackOutput(
            track: composition.tracks(withMediaType: .video)[0],
            outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        // Each retimed where it is: a sample held keeps its time while the next are read.
        let times = try assertLetGoSampleBuffersAreUsedAgain(output)
        XCTAssertEqual(times.count, 240, "every one of the recording's frames")
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertEqual(steps[10], 1.0 / 60, accuracy: 0.001, "60 fps before the slow section")
        XCTAssertEqual(steps[90], 4.0 / 60, accuracy: 0.001, "a quarter speed within it")
        XCTAssertEqual(steps[200], 1.0 / 60, accuracy: 0.001, "60 fps after it")
        XCTAssertEqual(times.last ?? 0, 7 - 1.0 / 60, accuracy: 0.002)
    }

    func testPassthroughExportRetimesTheSamePacketsAndStretchesTheSound() async throws {
        let folder = makeScratchFolder()
        let (source, composition) = try slowMotion(folder)
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetPassthrough))
        session.audioTimePitchAlgorithm = .varispeed
        let output = folder.appendingPathComponent("slow.mov")
        try await session.export(to: output, as: .mov)

        let original = TestMovies.packets(source, stream: "v:0"), exported = TestMovies.packets(output, stream: "v:0")
        XCTAssertEqual(exported.map(\.size), original.map(\.size), "the same packets, never encoded again")
        let steps = zip(exported.dropFirst(), exported).map { $0.pts - $1.pts }
        XCTAssertEqual(steps[10], 1.0 / 60, accuracy: 0.001)
        XCTAssertEqual(steps[90], 4.0 / 60, accuracy: 0.001, "the slowed section's frames last four times as long")
        XCTAssertEqual(steps[200], 1.0 / 60, accuracy: 0.001)
        let probe = try XCTUnwrap(MediaProbe.probe(output))
        XCTAssertEqual(probe.duration, 7, accuracy: 0.1)
        XCTAssertTrue(MediaProbe.decodesCleanly(output))

        // Varispeed: the slowed second's 1 kHz tone plays at 250 Hz; the rest stays at 1 kHz.
        XCTAssertEqual(try tone(of: output, from: 0.2, to: 0.8), 1000, accuracy: 10)
        XCTAssertEqual(try tone(of: output, from: 2, to: 4), 250, accuracy: 5)
        XCTAssertEqual(try tone(of: output, from: 5.5, to: 6.5), 1000, accuracy: 10)
        let soundTrack = try XCTUnwrap(probe.audio)
        XCTAssertEqual(soundTrack.duration ?? 0, 7, accuracy: 0.1)
    }

    /// The tone of a movie's sound between two times, read back with an asset reader.
    private func tone(of url: URL, from start: Double, to end: Double) throws -> Double {
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: seconds(start), end: seconds(end))
        let sound = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        reader.add(sound)
        reader.startReading()
        var buffers: [CMSampleBuffer] = []
        while let buffer = sound.copyNextSampleBuffer() { buffers.append(buffer) }
        return ToneAnalysis.frequency(buffers)
    }

    func testSpectralAndTimeDomainStretchesKeepThePitch() async throws {
        let folder = makeScratchFolder()
        // Spectral (Rubber Band) at a quarter speed, the default algorithm.
        let (_, quarter) = try slowMotion(folder)
        let spectral = try XCTUnwrap(AVAssetExportSession(asset: quarter, presetName: AVAssetExportPresetPassthrough))
        XCTAssertEqual(spectral.audioTimePitchAlgorithm, .spectral, "the default")
        let slow = folder.appendingPathComponent("spectral.mov")
        try await spectral.export(to: slow, as: .mov)
        XCTAssertEqual(try tone(of: slow, from: 2, to: 4), 1000, accuracy: 10, "a quarter speed, the same pitch")
        XCTAssertEqual(try tone(of: slow, from: 5.5, to: 6.5), 1000, accuracy: 10)
        XCTAssertEqual(MediaProbe.probe(slow)?.audio?.duration ?? 0, 7, accuracy: 0.1)

        // Time domain (SoundTouch) at half speed.
        let half = AVMutableComposition()
        let source = AVURLAsset(url: folder.appendingPathComponent("sixty.mp4"))
        try half.insertTimeRange(CMTimeRange(start: .zero, duration: source.duration), of: source, at: .zero)
        half.scaleTimeRange(CMTimeRange(start: seconds(1), duration: seconds(1)), toDuration: seconds(2))
        let timeDomain = try XCTUnwrap(AVAssetExportSession(asset: half, presetName: AVAssetExportPresetPassthrough))
        timeDomain.audioTimePitchAlgorithm = .timeDomain
        let halfSpeed = folder.appendingPathComponent("timedomain.mov")
        try await timeDomain.export(to: halfSpeed, as: .mov)
        XCTAssertEqual(try tone(of: halfSpeed, from: 1.3, to: 2.7), 1000, accuracy: 10)
        XCTAssertEqual(MediaProbe.probe(halfSpeed)?.duration ?? 0, 5, accuracy: 0.1)
    }

    func testAConstantRateExportGivesOnePictureEveryTick() async throws {
        // The AV Foundation Programming Guide: "Use a constant frame rate export for maximum playback compatibility. Set the
        // frameDuration property of the video composition to 30 fps."
        let folder = makeScratchFolder()
        let (_, composition) = try slowMotion(folder)
        let video = AVMutableVideoComposition(propertiesOf: composition)
        XCTAssertEqual(video.frameDuration.seconds, 1.0 / 60, accuracy: 0.0005, "the shortest frame: the unscaled sections' 60 fps")
        XCTAssertEqual(video.renderSize, CGSize(width: 320, height: 240))
        video.frameDuration = CMTime(value: 1, timescale: 30)
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        session.videoComposition = video
        let output = folder.appendingPathComponent("constant.mp4")
        try await session.export(to: output, as: .mp4)
        let times = TestMovies.packets(output, stream: "v:0").map(\.pts).sorted()
        XCTAssertEqual(times.count, 210, "7 s at 30 fps")
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertEqual(steps.min() ?? 0, 1.0 / 30, accuracy: 0.001)
        XCTAssertEqual(steps.max() ?? 0, 1.0 / 30, accuracy: 0.001, "constant, through the slowed section too")
        XCTAssertEqual(try tone(of: output, from: 2, to: 4), 1000, accuracy: 10, "the sound stretched keeping its pitch")

        let refused = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetPassthrough))
        refused.videoComposition = video
        do {
            try await refused.export(to: folder.appendingPathComponent("refused.mov"), as: .mov)
            XCTFail("passthrough copies samples as they are")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .invalidVideoComposition)
        }
    }

    func testAStretchBeyondTheAlgorithmsRangeIsAClearError() async throws {
        let folder = makeScratchFolder()
        let (_, composition) = try slowMotion(folder)
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetPassthrough))
        session.audioTimePitchAlgorithm = .timeDomain
        let output = folder.appendingPathComponent("too-slow.mov")
        do {
            try await session.export(to: output, as: .mov)
            XCTFail("time domain plays 0.5x to 2x (the AV Foundation Programming Guide)")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .operationNotSupportedForAsset)
            XCTAssertTrue(error.localizedDescription.contains("0.5x to 2.0x"), error.localizedDescription)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }
}
