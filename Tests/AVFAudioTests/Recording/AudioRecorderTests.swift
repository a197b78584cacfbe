import AVFAudio
import TestSupport
import XCTest

/// Records from the virtual microphone (a 440 Hz voice-like tone at about -10 dBFS), in real
/// time: each test records well under a second and waits up to ten.
final class AudioRecorderTests: XCTestCase {
    private final class Listener: NSObject, AVAudioRecorderDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var flags: [Bool] = []
        /// What the delegate heard, in order.
        var finished: [Bool] { lock.withLock { flags } }
        func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) { lock.withLock { flags.append(flag) } }
    }

    private var folder: URL!

    override func setUp() {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        folder = makeScratchFolder(name)
    }

    override func tearDown() { unsetenv("LINUXAVFOUNDATION_DEVICES") }

    private let voiceMemo: [String: Any] = [
        AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1,
        AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
    ]

    func testRecordingForADurationStopsByItselfAndWritesThatMuchOfTheMicrophone() throws {
        let url = folder.appendingPathComponent("memo.m4a")
        let recorder = try AVAudioRecorder(url: url, settings: voiceMemo)
        let listener = Listener()
        recorder.delegate = listener
        XCTAssertTrue(recorder.prepareToRecord())
        XCTAssertTrue(recorder.record(forDuration: 0.5))
        XCTAssertTrue(recorder.isRecording)
        XCTAssertTrue(waitUntil(timeout: 10) { listener.finished == [true] }, "the delegate hears it finished: \(listener.finished)")
        XCTAssertFalse(recorder.isRecording)
        XCTAssertEqual(recorder.currentTime, 0, "no time once stopped")
        let file = try AVAudioFile(forReading: url)
        XCTAssertEqual(file.length, 22_050, "half a second at 44.1 kHz, to the frame")
        XCTAssertEqual(file.fileFormat.streamDescription.pointee.mFormatID, kAudioFormatMPEG4AAC)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 22_050)!
        try file.read(into: buffer)
        XCTAssertEqual(Tones.frequency(Tones.samples(buffer), rate: 44_100), 440, accuracy: 12, "the virtual microphone's tone")
        XCTAssertGreaterThan(Tones.rms(Tones.samples(buffer)), 0.05, "sound, not silence")
    }

    func testMetersGiveTheLevelOfWhatIsRecorded() throws {
        let recorder = try AVAudioRecorder(url: folder.appendingPathComponent("levels.wav"), settings: [AVFormatIDKey: kAudioFormatLinearPCM])
        XCTAssertEqual(recorder.format.sampleRate, 44_100, "the default rate")
        XCTAssertEqual(recorder.format.channelCount, 2, "and channels")
        XCTAssertTrue(recorder.record())
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.currentTime > 0.3 })
        recorder.updateMeters()
        XCTAssertEqual(recorder.averagePower(forChannel: 0), -160, "metering is off")
        recorder.isMeteringEnabled = true
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.currentTime > 0.6 })
        recorder.updateMeters()
        let average = recorder.averagePower(forChannel: 0), peak = recorder.peakPower(forChannel: 0)
        // The tone peaks at 0.3 of full scale (-10.5 dB) under a syllable envelope.
        XCTAssertEqual(peak, -10.5, accuracy: 1.5)
        XCTAssertLessThan(average, peak - 3)
        XCTAssertGreaterThan(average, -25)
        XCTAssertEqual(recorder.averagePower(forChannel: 1), average, accuracy: 0.01, "mono spread to both channels")
        XCTAssertEqual(recorder.averagePower(forChannel: 5), -160, "no such channel")
        recorder.stop()
        XCTAssertEqual(MediaProbe.probe(recorder.url)?.audio?.channels, 2)
    }

    func testPausingLeavesOutWhatIsSaidMeanwhile() throws {
        let url = folder.appendingPathComponent("paused.caf")
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1])
        XCTAssertTrue(recorder.record())
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.currentTime >= 0.3 })
        recorder.pause()
        XCTAssertFalse(recorder.isRecording)
        let paused = recorder.currentTime
        Thread.sleep(forTimeInterval: 0.4)
        XCTAssertEqual(recorder.currentTime, paused, accuracy: 0.1, "nothing recorded while paused, but what was on its way")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "the file appears when recording stops")
        XCTAssertTrue(recorder.record(), "resumes")
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.currentTime >= paused + 0.3 })
        XCTAssertFalse(recorder.deleteRecording(), "not while recording")
        recorder.stop()
        let length = Double(try AVAudioFile(forReading: url).length) / 16_000
        XCTAssertEqual(length, paused + 0.3, accuracy: 0.25, "the paused time is not in the file")
        XCTAssertTrue(recorder.deleteRecording())
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }

    func testSettingsAndPlacesThatCannotBeRecordedAreRefused() throws {
        XCTAssertThrowsError(try AVAudioRecorder(url: folder.appendingPathComponent("memo.txt"), settings: voiceMemo))
        XCTAssertThrowsError(try AVAudioRecorder(url: folder.appendingPathComponent("memo.m4a"), settings: [AVSampleRateKey: 44_100]))
        XCTAssertThrowsError(
            try AVAudioRecorder(url: folder.appendingPathComponent("memo.m4a"), settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVNumberOfChannelsKey: -2]))
        let nowhere = try AVAudioRecorder(url: folder.appendingPathComponent("no/such/folder/memo.m4a"), settings: voiceMemo)
        XCTAssertFalse(nowhere.prepareToRecord())
        XCTAssertFalse(nowhere.record())
        XCTAssertFalse(nowhere.record(forDuration: .nan))
        XCTAssertFalse(nowhere.isRecording)
    }
}
