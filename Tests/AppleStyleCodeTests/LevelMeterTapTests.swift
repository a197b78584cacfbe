import AVFoundation
import AppleStyleCode
import CaptureTestSupport
import TestSupport
import XCTest

/// A metering tap that halves the level, attached through an audio mix to an export and to an
/// asset reader's mix output: the export is 6 dB quieter than without it, the tap sees the sound in
/// Apple's processing format, and its callbacks come in the order Apple documents.
final class LevelMeterTapTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
    }

    /// The root mean square of a file's sound from 0.5 s to 1.5 s, read as floats.
    private func level(_ url: URL) throws -> Double {
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: asset.tracks(withMediaType: .audio)[0],
            outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        var samples: [Float] = []
        while let sample = output.copyNextSampleBuffer(), let block = CMSampleBufferGetDataBuffer(sample) {
            try block.dataBytes().withUnsafeBytes { samples.append(contentsOf: $0.bindMemory(to: Float.self)) }
        }
        let middle = samples[min(samples.count, 24_000)..<min(samples.count, 72_000)]
        return (middle.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, middle.count))).squareRoot()
    }

    private func export(_ source: URL, mix: AVAudioMix?, to name: String) throws -> URL {
        let url = makeScratchFolder(name).appendingPathComponent("\(name).m4a")
        let session = try XCTUnwrap(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetAppleM4A))
        session.outputURL = url
        session.outputFileType = .m4a
        session.audioMix = mix
        let done = expectation(description: "export")
        session.exportAsynchronously { done.fulfill() }
        wait(for: [done], timeout: 60)
        XCTAssertEqual(session.status, .completed, "\(String(describing: session.error))")
        return url
    }

    func testAnExportThroughAHalvingTapIsSixDecibelsQuieter() throws {
        let source = makeScratchFolder("tap-source").appendingPathComponent("tone.mov")
        try TestMovies.make(source, inputs: ["sine=frequency=440:sample_rate=48000:duration=2"], arguments: ["-c:a", "pcm_s16le", "-af", "volume=4"])
        let meter = LevelMeterTap(gain: 0.5)
        let track = AVURLAsset(url: source).tracks(withMediaType: .audio)[0]
        var mix = meter.audioMix(for: track)
        XCTAssertNotNil(mix)
        let plain = try level(try export(source, mix: nil, to: "plain"))
        let tapped = try level(try export(source, mix: mix, to: "tapped"))
        XCTAssertGreaterThan(plain, 0.25)
        XCTAssertEqual(20 * log10(tapped / plain), -6.02, accuracy: 0.3, "levels \(plain) and \(tapped)")
        XCTAssertEqual(Double(meter.peak), plain * 2.squareRoot(), accuracy: 0.05, "the tap saw the sine before its gain")
        XCTAssertEqual(Double(meter.frames), 96_000, accuracy: 2048, "two seconds went through the tap")
        // Apple's processing format: non-interleaved 32-bit float at the mix's rate.
        XCTAssertEqual(meter.format.mFormatID, kAudioFormatLinearPCM)
        XCTAssertNotEqual(meter.format.mFormatFlags & kAudioFormatFlagIsNonInterleaved, 0)
        XCTAssertNotEqual(meter.format.mFormatFlags & kAudioFormatFlagIsFloat, 0)
        XCTAssertEqual(meter.format.mSampleRate, 48_000)
        XCTAssertEqual(meter.events, ["init", "prepare", "process", "unprepare"])
        mix = nil
        XCTAssertTrue(waitUntil(timeout: 5) { meter.events.last == "finalize" }, "the tap is finalized once released: \(meter.events)")
    }

    func testAReaderMixOutputRunsTheTap() throws {
        let source = makeScratchFolder("tap-reader").appendingPathComponent("tone.mov")
        try TestMovies.make(source, inputs: ["sine=frequency=440:sample_rate=48000:duration=1"], arguments: ["-c:a", "pcm_s16le"])
        let asset = AVURLAsset(url: source)
        let meter = LevelMeterTap(gain: 0)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio), audioSettings: nil)
        output.audioMix = meter.audioMix(for: asset.tracks(withMediaType: .audio)[0])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        var loudest: Float = 0
        while let sample = output.copyNextSampleBuffer(), let block = CMSampleBufferGetDataBuffer(sample) {
            try block.dataBytes().withUnsafeBytes { for value in $0.bindMemory(to: Float.self) { loudest = max(loudest, abs(value)) } }
        }
        XCTAssertEqual(loudest, 0, "a tap with no gain silences the track")
        XCTAssertGreaterThan(meter.peak, 0.1, "the tap saw the tone")
    }
}
