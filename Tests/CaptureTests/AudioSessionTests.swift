import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices

/// The application audio session (WWDC 2013 session 610): input choice, preferred rate and buffer duration, input gain.
final class AudioSessionTests: CaptureTestCase {
    private let audioSession = AVAudioSession.sharedInstance()

    override func tearDown() {
        try? audioSession.setPreferredSampleRate(0)
        try? audioSession.setPreferredIOBufferDuration(0)
        try? audioSession.setPreferredInput(nil)
        if let virtual = AVCaptureDevice.devices(for: .audio).first(where: { $0.uniqueID == "virtual:microphone" }) {
            try? (virtual.core.backend as? AudioInputGainControl)?.setInputGain(1)
        }
        super.tearDown()
    }

    /// Captures about `seconds` of audio from `device`.
    func record(_ device: AVCaptureDevice, seconds: TimeInterval = 1) throws -> (buffers: [CMSampleBuffer], count: Int) {
        let collector = FrameCollector()
        // Keeping every buffer would starve the microphone's pool: keep the first few.
        collector.audioBuffersToKeep = 20
        let (session, _) = try makeAudioSession(microphone: device, collector: collector)
        session.startRunning()
        spin(seconds)
        session.stopRunning()
        return (collector.audioBuffers, collector.audioBufferCount)
    }

    private var virtualMicrophone: AVCaptureDevice { AVCaptureDevice.devices(for: .audio).first { $0.uniqueID == "virtual:microphone" }! }

    func testThePreferredInputIsTheMicrophoneCaptureUses() throws {
        let inputs = try XCTUnwrap(audioSession.availableInputs)
        let port = try XCTUnwrap(inputs.first { $0.uid == "virtual:microphone" }, "every microphone is an available input")
        XCTAssertEqual(port.portType, .builtInMic)
        XCTAssertEqual(port.portName, "Virtual Microphone")
        XCTAssertEqual(port.channels?.count, 1)
        try audioSession.setPreferredInput(port)
        XCTAssertEqual(audioSession.preferredInput?.uid, "virtual:microphone")
        XCTAssertEqual(AVCaptureDevice.default(for: .audio)?.uniqueID, "virtual:microphone")
        XCTAssertEqual(audioSession.currentRoute.inputs.map(\.uid), ["virtual:microphone"])
        try audioSession.setPreferredInput(nil)
        XCTAssertNil(audioSession.preferredInput)
    }

    func testPreferredSampleRateAndBufferDurationShapeTheSamples() throws {
        try audioSession.setCategory(.playAndRecord, mode: .videoRecording)
        XCTAssertEqual(audioSession.category, .playAndRecord)
        try audioSession.setPreferredInput(try XCTUnwrap(audioSession.availableInputs?.first { $0.uid == "virtual:microphone" }))
        XCTAssertEqual(audioSession.sampleRate, 44_100, "the microphone's own rate until the application prefers another")
        try audioSession.setPreferredSampleRate(48_000)
        try audioSession.setPreferredIOBufferDuration(0.005)
        XCTAssertEqual(audioSession.preferredSampleRate, 48_000)
        XCTAssertEqual(audioSession.sampleRate, 48_000)
        XCTAssertEqual(audioSession.ioBufferDuration, 0.005, accuracy: 0.0001)
        let (buffers, count) = try record(virtualMicrophone)
        XCTAssertGreaterThan(count, 150, "200 buffers a second")
        for buffer in buffers {
            XCTAssertEqual(buffer.formatDescription?.audioStreamBasicDescription?.mSampleRate, 48_000)
            XCTAssertEqual(buffer.numSamples, 240, "5 ms at 48 kHz")
        }
        XCTAssertEqual(ToneAnalysis.frequency(Array(buffers.dropFirst(2))), 440, accuracy: 25, "the same tone at the new rate")
    }

    func testTheInputGainScalesWhatIsRecordedAndBadValuesAreRefused() throws {
        try audioSession.setPreferredInput(try XCTUnwrap(audioSession.availableInputs?.first { $0.uid == "virtual:microphone" }))
        XCTAssertTrue(audioSession.isInputGainSettable)
        XCTAssertEqual(audioSession.inputGain, 1)
        let full = ToneAnalysis.peak(try record(virtualMicrophone).buffers)
        try audioSession.setInputGain(0.25)
        XCTAssertEqual(audioSession.inputGain, 0.25)
        let quarter = ToneAnalysis.peak(try record(virtualMicrophone).buffers)
        XCTAssertEqual(quarter / full, 0.25, accuracy: 0.03, "peaks \(full) and \(quarter)")
        for bad in [
            { try self.audioSession.setInputGain(1.5) }, { try self.audioSession.setPreferredSampleRate(-1) },
            { try self.audioSession.setPreferredIOBufferDuration(-0.1) },
        ] {
            XCTAssertThrowsError(try bad()) { error in
                XCTAssertEqual((error as NSError).domain, NSOSStatusErrorDomain)
                XCTAssertEqual((error as NSError).code, AVAudioSession.ErrorCode.badParam.rawValue)
            }
        }
        XCTAssertEqual(audioSession.inputGain, 0.25, "a refused value changes nothing")
    }
}
