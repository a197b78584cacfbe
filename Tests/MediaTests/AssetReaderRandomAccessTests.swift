import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// An asset reader output with random access (`supportsRandomAccess`,
/// `reset(forReadingTimeRanges:)`, `markConfigurationAsFinal()`): read to the end, then read
/// other ranges again, in any order from call to call, until the configuration is final.
final class AssetReaderRandomAccessTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    private func times(_ output: AVAssetReaderOutput) -> [Double] {
        var times: [Double] = []
        while let sample = output.copyNextSampleBuffer() { times.append(sample.presentationTimeStamp.seconds) }
        return times
    }

    private func range(_ start: Double, _ end: Double) -> NSValue {
        NSValue(timeRange: CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: CMTime(seconds: end, preferredTimescale: 600)))
    }

    func testDecodedPicturesAreReadAgainRangeByRangeUntilTheConfigurationIsFinal() throws {
        let url = makeScratchFolder().appendingPathComponent("three.mp4")
        try TestMovies.picturesAndTone(url, seconds: 3)
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let pictures = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .video)[0], outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        pictures.supportsRandomAccess = true
        let sound = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        reader.add(pictures)
        reader.add(sound)
        XCTAssertTrue(reader.startReading())
        let all = times(pictures)
        XCTAssertEqual(all.count, 90)
        XCTAssertEqual(all, all.sorted(), "in presentation order")
        XCTAssertFalse(times(sound).isEmpty, "the other output reads on, from the shared file")
        XCTAssertEqual(reader.status, .reading, "a random-access output keeps the reader reading at its end")

        // A range from the middle of a group of pictures (keyframes every 15 frames: 0.5 s).
        pictures.reset(forReadingTimeRanges: [range(1.2, 1.6)])
        let middle = times(pictures)
        XCTAssertEqual(middle, all.filter { $0 >= 1.2 - 1e-6 && $0 < 1.6 - 1e-6 }, "exactly the range's pictures")
        XCTAssertEqual(middle.count, 12)
        // Backwards from call to call, as reversing code reads; two ranges in one call, in order.
        pictures.reset(forReadingTimeRanges: [range(2.9, 3)])
        XCTAssertEqual(times(pictures), all.filter { $0 >= 2.9 - 1e-6 })
        pictures.reset(forReadingTimeRanges: [range(0, 0.1), range(2, 2.1)])
        XCTAssertEqual(times(pictures), all.filter { $0 < 0.1 - 1e-6 || ($0 >= 2 - 1e-6 && $0 < 2.1 - 1e-6) })
        XCTAssertEqual(reader.status, .reading)
        pictures.markConfigurationAsFinal()
        XCTAssertEqual(reader.status, .completed, "final, and every output has given its last sample")
        XCTAssertNil(pictures.copyNextSampleBuffer())
    }

    func testStoredSoundIsReadAgainFromTheRangeAndTheReaderCompletesWhenFinalBeforeTheEnd() throws {
        let url = makeScratchFolder().appendingPathComponent("tone.mp4")
        try TestMovies.picturesAndTone(url, seconds: 2)
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let sound = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .audio)[0],
            outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2])
        sound.supportsRandomAccess = true
        reader.add(sound)
        reader.startReading()
        var frames = 0
        while let sample = sound.copyNextSampleBuffer() { frames += CMSampleBufferGetNumSamples(sample) }
        XCTAssertEqual(Double(frames), 96_000, accuracy: 1_024, "two seconds at 48 kHz")
        sound.reset(forReadingTimeRanges: [range(1, 1.5)])
        sound.markConfigurationAsFinal()
        XCTAssertEqual(reader.status, .reading, "final, but the range is still to be read")
        var first: CMTime?
        var end = CMTime.zero
        while let sample = sound.copyNextSampleBuffer() {
            first = first ?? sample.presentationTimeStamp
            end = sample.presentationTimeStamp + sample.duration
        }
        let start = try XCTUnwrap(first).seconds
        XCTAssertLessThanOrEqual(start, 1.0, "the first buffer holds the range's start")
        XCTAssertGreaterThan(start, 1.0 - 1_024.0 / 48_000 - 1e-6, "and starts no more than one AAC packet before it")
        XCTAssertGreaterThanOrEqual(end.seconds, 1.5 - 1e-6)
        XCTAssertEqual(reader.status, .completed)
    }
}
