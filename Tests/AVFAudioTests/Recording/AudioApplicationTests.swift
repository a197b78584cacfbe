import AVFAudio
import TestSupport
import XCTest

/// The application's record permission and input mute, on the virtual microphone (real time:
/// a recorder runs for about half a second).
final class AudioApplicationTests: XCTestCase {
    override func setUp() { setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1) }

    override func tearDown() {
        try? AVAudioApplication.shared.setInputMuted(false)
        unsetenv("LINUXAVFOUNDATION_DEVICES")
    }

    func testRecordingIsPermittedAndTheAnswerComesBack() async throws {
        XCTAssertEqual(AVAudioApplication.shared.recordPermission, .granted)
        let granted = await AVAudioApplication.requestRecordPermission()
        XCTAssertTrue(granted)
    }

    func testMutingTheInputSilencesRecordingAndIsPosted() throws {
        let posted = expectation(forNotification: AVAudioApplication.inputMuteStateChangeNotification, object: AVAudioApplication.shared) {
            ($0.userInfo?[AVAudioApplication.muteStateKey] as? NSNumber)?.boolValue == true
        }
        try AVAudioApplication.shared.setInputMuted(true)
        wait(for: [posted], timeout: 5)
        XCTAssertTrue(AVAudioApplication.shared.isInputMuted)
        let url = makeScratchFolder(name).appendingPathComponent("muted.wav")
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1])
        recorder.isMeteringEnabled = true
        XCTAssertTrue(recorder.record())
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.currentTime > 0.4 })
        recorder.updateMeters()
        XCTAssertEqual(recorder.peakPower(forChannel: 0), -160, "a muted input is silence")
        recorder.stop()
        let file = try AVAudioFile(forReading: url)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
        XCTAssertGreaterThan(buffer.frameLength, 10_000, "time still passes")
        XCTAssertEqual(Tones.rms(Tones.samples(buffer)), 0)
    }
}
