import AVFAudio
import TestSupport
import XCTest

final class AudioFileTests: XCTestCase {
    private var folder: URL!

    override func setUp() {
        folder = makeScratchFolder(name)
    }

    /// Writes a tone to a file with settings, in buffers of `chunk` frames; returns the tone.
    @discardableResult
    private func write(_ url: URL, settings: [String: Any], seconds: Double = 1, channels: AVAudioChannelCount = 1, chunk: Int = 4096) throws
        -> AVAudioPCMBuffer
    {
        let rate = (settings[AVSampleRateKey] as? Double) ?? Double(settings[AVSampleRateKey] as? Int ?? 48_000)
        let tone = Tones.sine(frequency: 440, seconds: seconds, sampleRate: rate, channels: channels)
        let file = try AVAudioFile(forWriting: url, settings: settings)
        let piece = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(chunk))!
        var offset = 0
        while offset < Int(tone.frameLength) {
            let count = min(chunk, Int(tone.frameLength) - offset)
            for channel in 0..<Int(channels) {
                for frame in 0..<count { piece.floatChannelData![channel][frame] = tone.floatChannelData![channel][offset + frame] }
            }
            piece.frameLength = AVAudioFrameCount(count)
            try file.write(from: piece)
            offset += count
        }
        XCTAssertEqual(file.length, AVAudioFramePosition(tone.frameLength))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "the file appears only when complete")
        file.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).filter { $0.hasSuffix(".partial") }
        XCTAssertEqual(leftovers, [], "nothing left beside it")
        return tone
    }

    /// Reads a whole file in the standard format.
    private func readAll(_ url: URL, chunk: AVAudioFrameCount = 1000) throws -> (AVAudioFile, [[Float]]) {
        let file = try AVAudioFile(forReading: url)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: chunk)!
        var channels = [[Float]](repeating: [], count: Int(file.processingFormat.channelCount))
        while true {
            try file.read(into: buffer)
            if buffer.frameLength == 0 { break }
            for channel in channels.indices { channels[channel] += Tones.samples(buffer, channel: channel) }
        }
        return (file, channels)
    }

    func testAWAVFileIsWrittenAsSixteenBitPCMAndReadsBackTheSameSound() throws {
        let url = folder.appendingPathComponent("tone.wav")
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 16]
        let tone = try write(url, settings: settings, channels: 2, chunk: 1000)
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertEqual(probe.formatName, "wav")
        XCTAssertEqual(probe.audio?.codec, "pcm_s16le")
        XCTAssertEqual(probe.audio?.sampleRate, 48_000)
        XCTAssertEqual(probe.audio?.channels, 2)
        XCTAssertEqual(probe.duration, 1, accuracy: 0.001)
        let (file, channels) = try readAll(url, chunk: 777)
        XCTAssertEqual(file.length, 48_000)
        XCTAssertEqual(file.fileFormat.commonFormat, .pcmFormatInt16)
        XCTAssertTrue(file.processingFormat.isStandard)
        XCTAssertEqual(channels[0].count, 48_000)
        let original = [Tones.samples(tone, channel: 0), Tones.samples(tone, channel: 1)]
        for channel in 0..<2 {
            let error = zip(original[channel], channels[channel]).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(error, 1.0 / 32_768 + 1e-6, "channel \(channel) within one 16-bit step")
        }
        XCTAssertEqual(Tones.frequency(channels[1], rate: 48_000), 880, accuracy: 0.5, "the second channel's own tone")
    }

    func testEachFileTypeWritesItsCodecAndReadsBack() throws {
        let cases: [(String, [String: Any], String)] = [
            ("aiff", [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 24], "pcm_s24be"),
            ("caf", [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true], "pcm_f32le"),
            ("flac", [AVFormatIDKey: kAudioFormatFLAC], "flac"),
            ("m4a", [AVFormatIDKey: kAudioFormatMPEG4AAC, AVEncoderBitRateKey: 96_000], "aac"),
            ("caf", [AVFormatIDKey: kAudioFormatAppleLossless, AVEncoderBitDepthHintKey: 16], "alac"),
        ]
        for (index, (kind, extra, codec)) in cases.enumerated() {
            let url = folder.appendingPathComponent("tone\(index).\(kind)")
            var settings = extra
            settings[AVSampleRateKey] = 44_100
            settings[AVNumberOfChannelsKey] = 1
            try write(url, settings: settings)
            XCTAssertEqual(MediaProbe.probe(url)?.audio?.codec, codec, kind)
            let (file, channels) = try readAll(url)
            XCTAssertEqual(file.processingFormat.sampleRate, 44_100)
            // AAC's frames come in 1024s; the others keep the length exactly.
            XCTAssertEqual(Double(file.length), 44_100, accuracy: codec == "aac" ? 1024 : 0, kind)
            XCTAssertEqual(Double(channels[0].count), Double(file.length), accuracy: 0, "\(kind): the frames read are the length")
            XCTAssertEqual(Tones.frequency(channels[0], rate: 44_100), 440, accuracy: 0.5, kind)
            XCTAssertEqual(Tones.rms(Array(channels[0][4410..<39_690])), 0.5 / 2.squareRoot(), accuracy: 0.01, kind)
        }
    }

    func testSeekingReadsTheSameFramesAsReadingThrough() throws {
        for kind in ["wav", "m4a"] {
            let url = folder.appendingPathComponent("seek.\(kind)")
            let format = kind == "wav" ? kAudioFormatLinearPCM : kAudioFormatMPEG4AAC
            try write(url, settings: [AVFormatIDKey: format, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1], seconds: 2)
            let all = try readAll(url).1[0]
            let file = try AVAudioFile(forReading: url)
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 500)!
            for position in [AVAudioFramePosition(70_001), 1234, 0, 95_000] {
                file.framePosition = position
                XCTAssertEqual(file.framePosition, position)
                try file.read(into: buffer)
                XCTAssertEqual(file.framePosition, position + AVAudioFramePosition(buffer.frameLength))
                let expected = Array(all[Int(position)..<min(all.count, Int(position) + 500)])
                let error = zip(expected, Tones.samples(buffer)).map { abs($0 - $1) }.max() ?? 1
                XCTAssertEqual(Int(buffer.frameLength), expected.count, "\(kind) at \(position)")
                // AAC decoders fill some bands with noise of their own (perceptual noise
                // substitution), which depends on what was decoded before: the same within -60 dB.
                XCTAssertLessThan(error, kind == "wav" ? 1e-6 : 1e-3, "\(kind) at \(position): the same samples")
            }
            file.framePosition = file.length
            try file.read(into: buffer)
            XCTAssertEqual(buffer.frameLength, 0, "nothing past the end")
            file.framePosition = 100
            try file.read(into: buffer)
            XCTAssertEqual(buffer.frameLength, 500, "reading again after the end")
            XCTAssertLessThan(zip(all[100..<600], Tones.samples(buffer)).map { abs($0 - $1) }.max() ?? 1, kind == "wav" ? 1e-6 : 1e-3)
        }
    }

    func testOtherProcessingFormatsAreReadAndWritten() throws {
        let url = folder.appendingPathComponent("int16.wav")
        let file = try AVAudioFile(
            forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 8000, AVNumberOfChannelsKey: 2],
            commonFormat: .pcmFormatInt16, interleaved: true)
        XCTAssertEqual(file.processingFormat.commonFormat, .pcmFormatInt16)
        XCTAssertTrue(file.processingFormat.isInterleaved)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 3)!
        for (index, value) in [Int16(100), -100, 32_767, -32_768, 0, 7].enumerated() { buffer.int16ChannelData![0][index] = value }
        buffer.frameLength = 3
        try file.write(from: buffer)
        XCTAssertThrowsError(try file.write(from: Tones.sine(frequency: 1, seconds: 0.01, sampleRate: 8000)), "a buffer of another format")
        file.close()
        XCTAssertThrowsError(try file.write(from: buffer), "a closed file")
        let reading = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        let back = AVAudioPCMBuffer(pcmFormat: reading.processingFormat, frameCapacity: 10)!
        try reading.read(into: back)
        XCTAssertEqual(back.frameLength, 3)
        XCTAssertEqual((0..<6).map { back.int16ChannelData![0][$0] }, [100, -100, 32_767, -32_768, 0, 7])
    }

    func testBadFilesAndSettingsGiveClearErrorsAndLeaveNothing() throws {
        let pcm: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 8000, AVNumberOfChannelsKey: 1]
        XCTAssertThrowsError(try AVAudioFile(forReading: folder.appendingPathComponent("missing.wav"))) { error in
            XCTAssertEqual((error as NSError).code, -43, "file not found")
        }
        let garbage = folder.appendingPathComponent("garbage.wav")
        try Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        XCTAssertThrowsError(try AVAudioFile(forReading: garbage))
        XCTAssertThrowsError(try AVAudioFile(forWriting: folder.appendingPathComponent("tone.xyz"), settings: pcm)) { error in
            XCTAssertEqual((error as NSError).code, 0x7479_703F, "'typ?': no file type by that extension")
        }
        XCTAssertThrowsError(try AVAudioFile(forWriting: folder.appendingPathComponent("tone.m4a"), settings: pcm)) { error in
            XCTAssertEqual((error as NSError).code, 0x666D_743F, "'fmt?': linear PCM does not go in M4A")
        }
        XCTAssertThrowsError(
            try AVAudioFile(
                forWriting: folder.appendingPathComponent("nan.wav"), settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: Double.nan]))
        XCTAssertThrowsError(try AVAudioFile(forWriting: folder.appendingPathComponent("no/such/folder/tone.wav"), settings: pcm))
        let video = folder.appendingPathComponent("silent.txt")
        try Data("not sound".utf8).write(to: video)
        XCTAssertThrowsError(try AVAudioFile(forReading: video))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(left, ["garbage.wav", "silent.txt"], "no file made by a failure")
    }

    func testWritingReplacesAFileOnlyWhenItIsComplete() throws {
        let url = folder.appendingPathComponent("replace.wav")
        try Data("old".utf8).write(to: url)
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 8000, AVNumberOfChannelsKey: 1]
        var file: AVAudioFile? = try AVAudioFile(forWriting: url, settings: settings)
        try file?.write(from: Tones.sine(frequency: 200, seconds: 0.5, sampleRate: 8000))
        XCTAssertEqual(try Data(contentsOf: url), Data("old".utf8), "the old file stays until the new one is complete")
        file = nil
        XCTAssertEqual(try AVAudioFile(forReading: url).length, 4000, "letting go of the file finishes it")
    }

    func testAnMP3MadeByFFmpegIsReadWithItsLength() throws {
        let url = folder.appendingPathComponent("ffmpeg.mp3")
        let made = runCommand([
            "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2", "-c:a", "libmp3lame", url.path,
        ])
        try XCTSkipIf(made.status != 0, "this FFmpeg cannot encode MP3: \(made.text)")
        let (file, channels) = try readAll(url)
        XCTAssertEqual(file.fileFormat.streamDescription.pointee.mFormatID, kAudioFormatMPEGLayer3)
        XCTAssertEqual(Double(file.length), 88_200, accuracy: 1152, "two seconds, give or take a frame")
        XCTAssertEqual(Int64(channels[0].count), file.length)
        XCTAssertEqual(Tones.frequency(channels[0], rate: 44_100), 1000, accuracy: 1)
    }
}
