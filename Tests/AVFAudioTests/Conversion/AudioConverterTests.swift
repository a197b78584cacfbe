import AVFAudio
import XCTest

final class AudioConverterTests: XCTestCase {
    /// Converts a whole buffer with the input block form, `chunk` frames of input and `outputFrames` of output at a time.
    private func convertAll(_ converter: AVAudioConverter, _ input: AVAudioPCMBuffer, chunk: Int, outputFrames: AVAudioFrameCount = 1000) throws -> [Float] {
        var offset = 0
        var output: [Float] = []
        let piece = AVAudioPCMBuffer(pcmFormat: converter.inputFormat, frameCapacity: AVAudioFrameCount(chunk))!
        let out = AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: outputFrames)!
        while true {
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { _, status in
                guard offset < Int(input.frameLength) else {
                    status.pointee = .endOfStream
                    return nil
                }
                let count = min(chunk, Int(input.frameLength) - offset)
                for frame in 0..<count { piece.floatChannelData![0][frame] = input.floatChannelData![0][offset + frame] }
                piece.frameLength = AVAudioFrameCount(count)
                offset += count
                status.pointee = .haveData
                return piece
            }
            XCTAssertNil(error)
            output += Tones.samples(out)
            if status == .endOfStream { break }
            XCTAssertEqual(status, .haveData)
        }
        return output
    }

    func testSamplesConvertBetweenFormatsExactly() throws {
        let from = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 2, interleaved: true)!
        let to = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 2)!
        let converter = try XCTUnwrap(AVAudioConverter(from: from, to: to))
        let input = AVAudioPCMBuffer(pcmFormat: from, frameCapacity: 4)!
        let values: [Int16] = [16_384, -16_384, 8192, 0, -32_768, 32_767, 0, 1]
        for (index, value) in values.enumerated() { input.int16ChannelData![0][index] = value }
        input.frameLength = 4
        let output = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 4)!
        try converter.convert(to: output, from: input)
        XCTAssertEqual(output.frameLength, 4)
        XCTAssertEqual(Tones.samples(output, channel: 0), [0.5, 0.25, -1, 0])
        XCTAssertEqual(Tones.samples(output, channel: 1), [-0.5, 0, Float(32_767) / 32_768, Float(1) / 32_768])
        let back = try XCTUnwrap(AVAudioConverter(from: to, to: from))
        let again = AVAudioPCMBuffer(pcmFormat: from, frameCapacity: 4)!
        try back.convert(to: again, from: output)
        XCTAssertEqual((0..<8).map { again.int16ChannelData![0][$0] }, values, "and back, unchanged")
    }

    func testChannelsAreDroppedMixedSpreadOrMapped() throws {
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 8000, channels: 2)!
        let mono = AVAudioFormat(standardFormatWithSampleRate: 8000, channels: 1)!
        let input = AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 2)!
        input.frameLength = 2
        input.floatChannelData![0][0] = 0.5
        input.floatChannelData![1][0] = 0.25
        input.floatChannelData![0][1] = -0.5
        input.floatChannelData![1][1] = 0
        let output = AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 2)!
        let down = try XCTUnwrap(AVAudioConverter(from: stereo, to: mono))
        try down.convert(to: output, from: input)
        XCTAssertEqual(Tones.samples(output), [0.5, -0.5], "without downmix the first channel is kept")
        let mixing = try XCTUnwrap(AVAudioConverter(from: stereo, to: mono))
        mixing.downmix = true
        try mixing.convert(to: output, from: input)
        XCTAssertEqual(Tones.samples(output), [0.375, -0.25], "with downmix the channels' mean")

        let up = try XCTUnwrap(AVAudioConverter(from: mono, to: stereo))
        XCTAssertEqual(up.channelMap, [0, 0])
        let wide = AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 2)!
        try up.convert(to: wide, from: output)
        XCTAssertEqual(Tones.samples(wide, channel: 1), [0.375, -0.25], "mono goes to both channels")

        let swap = try XCTUnwrap(AVAudioConverter(from: stereo, to: stereo))
        swap.channelMap = [1, 0]
        try swap.convert(to: wide, from: input)
        XCTAssertEqual(Tones.samples(wide, channel: 0), [0.25, 0])
        XCTAssertEqual(Tones.samples(wide, channel: 1), [0.5, -0.5])
        swap.channelMap = [-1, 0]
        try swap.convert(to: wide, from: input)
        XCTAssertEqual(Tones.samples(wide, channel: 0), [0, 0], "-1 is silence")
    }

    func testTheBufferFormRefusesRateChangesAndShortOutputs() throws {
        let a = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let b = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let resampling = try XCTUnwrap(AVAudioConverter(from: a, to: b))
        let input = Tones.sine(frequency: 440, seconds: 0.01)
        XCTAssertThrowsError(try resampling.convert(to: AVAudioPCMBuffer(pcmFormat: b, frameCapacity: 480)!, from: input)) { error in
            XCTAssertEqual((error as NSError).code, -50)
        }
        let same = try XCTUnwrap(AVAudioConverter(from: a, to: a))
        XCTAssertThrowsError(try same.convert(to: AVAudioPCMBuffer(pcmFormat: a, frameCapacity: 100)!, from: input), "480 frames do not fit in 100")
        XCTAssertThrowsError(try same.convert(to: AVAudioPCMBuffer(pcmFormat: b, frameCapacity: 480)!, from: input), "a buffer of another format")
        let aac = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])!
        XCTAssertNil(AVAudioConverter(from: a, to: aac), "encoding keeps the rate and channels")
    }

    func testResamplingKeepsTheToneAndTheLengthHoweverTheInputIsCut() throws {
        let input = Tones.sine(frequency: 1000, seconds: 1, sampleRate: 48_000)
        let to = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let whole = try convertAll(AVAudioConverter(from: input.format, to: to)!, input, chunk: 48_000, outputFrames: 4096)
        let pieces = try convertAll(AVAudioConverter(from: input.format, to: to)!, input, chunk: 317, outputFrames: 123)
        XCTAssertEqual(whole.count, 16_000, "a second at 16 kHz")
        XCTAssertEqual(pieces.count, 16_000)
        XCTAssertEqual(Tones.frequency(whole, rate: 16_000), 1000, accuracy: 0.5)
        XCTAssertEqual(Tones.rms(Array(whole[1000..<15_000])), 0.5 / 2.squareRoot(), accuracy: 0.005, "the level is kept")
        let largest = zip(whole, pieces).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThan(largest, 1e-5, "the resampler keeps its state between calls: cutting the input changes nothing")
        // The tone starts where it did: the first rising crossing after 0 is at one period.
        let firstPeak = whole.prefix(16).enumerated().max { $0.element < $1.element }!.offset
        XCTAssertEqual(firstPeak, 4, "a quarter of a 1 kHz period at 16 kHz: no delay added by the filter")
    }

    func testAnInputThatRunsDryIsToldAndAnEndedStreamStaysEnded() throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let to = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!
        let converter = try XCTUnwrap(AVAudioConverter(from: format, to: to))
        let output = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 512)!
        var error: NSError?
        var status = converter.convert(to: output, error: &error) { _, status in
            status.pointee = .noDataNow
            return nil
        }
        XCTAssertEqual(status, .inputRanDry)
        XCTAssertEqual(output.frameLength, 0)
        status = converter.convert(to: output, error: &error) { _, status in
            status.pointee = .endOfStream
            return nil
        }
        XCTAssertEqual(status, .endOfStream)
        status = converter.convert(to: output, error: &error) { _, status in
            XCTFail("an ended stream asks for no input")
            status.pointee = .endOfStream
            return nil
        }
        XCTAssertEqual(status, .endOfStream)
        converter.reset()
        let tone = Tones.sine(frequency: 440, seconds: 0.1)
        var given = false
        status = converter.convert(to: output, error: &error) { _, status in
            status.pointee = given ? .noDataNow : .haveData
            defer { given = true }
            return given ? nil : tone
        }
        XCTAssertEqual(status, .haveData, "after reset the converter takes a new stream")
        XCTAssertEqual(output.frameLength, 512)
        let wrong = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 10)!
        wrong.frameLength = 10
        converter.reset()
        status = converter.convert(to: output, error: &error) { _, status in
            status.pointee = .haveData
            return wrong
        }
        XCTAssertEqual(status, .error, "a buffer in the wrong format")
        XCTAssertNotNil(error)
    }
}
