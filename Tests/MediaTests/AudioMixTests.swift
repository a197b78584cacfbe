import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// Audio mixes: each track's volume over time (setVolume, setVolumeRamp), read through
/// AVAssetReaderAudioMixOutput, exported, and played.
final class AudioMixTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
    }

    /// Three seconds of two sound tracks: 1 kHz in the first, 250 Hz in the second, both at ffmpeg's eighth of full scale.
    private func twoTones(_ name: String = #function) throws -> URL {
        let url = makeScratchFolder(name).appendingPathComponent("two.mov")
        try TestMovies.make(
            url, inputs: ["sine=frequency=1000:sample_rate=48000:duration=3", "sine=frequency=250:sample_rate=48000:duration=3"],
            arguments: ["-map", "0", "-map", "1", "-c:a", "pcm_s16le"])
        return url
    }

    /// The mixed sound, left channel, as floats, and its rate.
    private func mixed(_ asset: AVAsset, mix: AVAudioMix?, settings: [String: Any]? = nil) throws -> (samples: [Float], rate: Double) {
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio), audioSettings: settings)
        output.audioMix = mix
        XCTAssertTrue(reader.canAdd(output))
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        var samples: [Float] = []
        var rate = 0.0
        var expected = CMTime.zero
        while let buffer = output.copyNextSampleBuffer() {
            let asbd = try XCTUnwrap(buffer.formatDescription?.audioStreamBasicDescription)
            rate = asbd.mSampleRate
            XCTAssertEqual(buffer.presentationTimeStamp, expected, "blocks follow each other")
            expected = buffer.presentationTimeStamp + CMTime(value: CMTimeValue(buffer.numSamples), timescale: CMTimeScale(rate))
            let block = try XCTUnwrap(buffer.dataBuffer)
            let channels = Int(asbd.mChannelsPerFrame)
            if asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0 {
                let floats = block.bytes.assumingMemoryBound(to: Float.self)
                for frame in 0..<buffer.numSamples { samples.append(floats[frame * channels]) }
            } else {
                let shorts = block.bytes.assumingMemoryBound(to: Int16.self)
                for frame in 0..<buffer.numSamples { samples.append(Float(shorts[frame * channels]) / 32768) }
            }
        }
        XCTAssertEqual(reader.status, .completed)
        return (samples, rate)
    }

    /// The peak level over a tenth of a second from a time.
    private func level(_ samples: [Float], rate: Double, at time: Double) -> Float {
        let start = Int(time * rate), end = min(samples.count, start + Int(rate / 10))
        return samples[start..<end].map(abs).max() ?? 0
    }

    /// The strength of one frequency in a tenth of a second from a time (a single DFT bin).
    private func strength(_ samples: [Float], rate: Double, at time: Double, frequency: Double) -> Double {
        let start = Int(time * rate), count = Int(rate / 10)
        var re = 0.0, im = 0.0
        for index in 0..<count {
            let phase = 2 * Double.pi * frequency * Double(index) / rate
            re += Double(samples[start + index]) * cos(phase)
            im += Double(samples[start + index]) * sin(phase)
        }
        return (re * re + im * im).squareRoot() / Double(count)
    }

    func testWithoutAMixEveryTrackIsSummedAtFullVolume() throws {
        let asset = AVURLAsset(url: try twoTones())
        XCTAssertEqual(asset.tracks(withMediaType: .audio).count, 2)
        let (samples, rate) = try mixed(asset, mix: nil)
        XCTAssertEqual(rate, 48_000)
        XCTAssertEqual(Double(samples.count) / rate, 3, accuracy: 0.01)
        XCTAssertEqual(strength(samples, rate: rate, at: 1, frequency: 1000), 0.0625, accuracy: 0.005)
        XCTAssertEqual(strength(samples, rate: rate, at: 1, frequency: 250), 0.0625, accuracy: 0.005, "both tones are in the mix, each at its own level")
    }

    func testVolumesAndRampsShapeEachTrack() throws {
        let asset = AVURLAsset(url: try twoTones())
        let tracks = asset.tracks(withMediaType: .audio)
        let first = AVMutableAudioMixInputParameters(track: tracks[0])
        first.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1)))
        let second = AVMutableAudioMixInputParameters(track: tracks[1])
        second.setVolume(0, at: .zero)
        second.setVolume(1, at: CMTime(value: 2, timescale: 1))
        let mix = AVMutableAudioMix()
        mix.inputParameters = [first, second]
        let (samples, rate) = try mixed(asset, mix: mix, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16])
        let full = strength(samples, rate: rate, at: 0, frequency: 1000)
        XCTAssertEqual(strength(samples, rate: rate, at: 0.95, frequency: 1000) / full, 0.5, accuracy: 0.05, "halfway down the ramp at 1 s")
        XCTAssertLessThan(strength(samples, rate: rate, at: 2.2, frequency: 1000), full * 0.01, "silent after the ramp")
        XCTAssertLessThan(strength(samples, rate: rate, at: 1, frequency: 250), 0.001, "the second track is silent until 2 s")
        XCTAssertEqual(
            strength(samples, rate: rate, at: 2.5, frequency: 250), 0.0625, accuracy: 0.005, "and full from 2 s (an eighth-scale sine's bin is a sixteenth)")

        var start: Float = 0, end: Float = 0
        var range = CMTimeRange.invalid
        XCTAssertTrue(first.getVolumeRamp(for: CMTime(value: 1, timescale: 1), startVolume: &start, endVolume: &end, timeRange: &range))
        XCTAssertEqual(start, 1)
        XCTAssertEqual(end, 0)
        XCTAssertEqual(range.duration, CMTime(value: 2, timescale: 1))
        XCTAssertFalse(first.getVolumeRamp(for: CMTime(value: 5, timescale: 2), startVolume: nil, endVolume: nil, timeRange: nil))
        let copy = mix.copy() as! AVAudioMix
        first.setVolume(0.25, at: .zero)
        XCTAssertEqual(copy.volume(ofTrack: tracks[0].trackID, at: .zero), 1, "a copy keeps the parameters it was made with")
    }

    func testAnExportWithAMixFadesOut() throws {
        let source = AVURLAsset(url: try twoTones())
        let tracks = source.tracks(withMediaType: .audio)
        let mix = AVMutableAudioMix()
        mix.inputParameters = tracks.map { track in
            let parameters = AVMutableAudioMixInputParameters(track: track)
            parameters.setVolumeRamp(
                fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: CMTime(value: 2, timescale: 1), duration: CMTime(value: 1, timescale: 1)))
            return parameters
        }
        let url = makeScratchFolder("faded").appendingPathComponent("faded.m4a")
        let session = try XCTUnwrap(AVAssetExportSession(asset: source, presetName: AVAssetExportPresetAppleM4A))
        session.outputURL = url
        session.outputFileType = .m4a
        session.audioMix = mix
        let done = expectation(description: "export")
        session.exportAsynchronously { done.fulfill() }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(session.status, .completed, "\(String(describing: session.error))")
        let exported = AVURLAsset(url: url)
        XCTAssertEqual(exported.tracks(withMediaType: .audio).count, 1, "the tracks are mixed into one")
        let (samples, rate) = try mixed(exported, mix: nil)
        let before = level(samples, rate: rate, at: 1), during = level(samples, rate: rate, at: 2.45), after = level(samples, rate: rate, at: 2.85)
        XCTAssertGreaterThan(before, 0.2, "both tones at full volume")
        XCTAssertEqual(during / before, 0.5, accuracy: 0.1, "halfway through the fade")
        XCTAssertLessThan(after / before, 0.2, "nearly gone at the end")
    }
}
