import CaptureTestSupport
import TestSupport
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

    /// Captures `seconds` of the virtual microphone's time from `device`, on the manual clock.
    func record(_ device: AVCaptureDevice, seconds: TimeInterval = 1) throws -> (buffers: [CMSampleBuffer], count: Int) {
        let collector = FrameCollector()
        // Keeping every buffer would starve the microphone's pool: keep the first few.
        collector.audioBuffersToKeep = 20
        let (session, _) = try makeAudioSession(microphone: device, collector: collector)
        try XCTUnwrap(device.virtualScene).clock = manualClock
        // Time waits for the delegate, 5 ms at a time, so that no buffer waits for a free one.
        outputsCaughtUp = { !session.outputsHaveWorkInFlight }
        session.startRunning()
        passTime(seconds, step: CMTime(value: 1, timescale: 200))
        XCTAssertTrue(waitUntil { !session.outputsHaveWorkInFlight }, "every buffer reached the delegate")
        session.stopRunning()
        return (collector.audioBuffers, collector.audioBufferCount)
    }

    private var virtualMicrophone: AVCaptureDevice { AVCaptureDevice.devices(for: .audio).first { $0.uniqueID == "virtual:microphone" }! }

    /// An expectation of an audio session notification whose user info has `value` at `key`.
    private func expectNotification(_ name: Notification.Name, _ key: String? = nil, _ value: UInt? = nil) -> XCTestExpectation {
        expectation(forNotification: name, object: audioSession) { notification in
            guard let key else { return true }
            return (notification.userInfo?[key] as? UInt) == value
        }
    }

    func testTheMicrophonesEventsAreTheSessionsNotifications() throws {
        let scene = try XCTUnwrap(virtualMicrophone.virtualScene)
        let left = expectation(forNotification: AVAudioSession.routeChangeNotification, object: audioSession) { notification in
            let previous = notification.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
            return (notification.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt) == AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue
                && previous?.inputs.first?.uid == "virtual:microphone"
        }
        scene.disconnect()
        wait(for: [left], timeout: 5)
        let lost = expectNotification(AVAudioSession.mediaServicesWereLostNotification)
        scene.failWithRuntimeError(code: AVError.Code.mediaServicesWereReset.rawValue)
        wait(for: [lost], timeout: 5)
        let reset = expectNotification(AVAudioSession.mediaServicesWereResetNotification)
        let back = expectNotification(
            AVAudioSession.routeChangeNotification, AVAudioSessionRouteChangeReasonKey, AVAudioSession.RouteChangeReason.newDeviceAvailable.rawValue)
        scene.reconnect()
        wait(for: [reset, back], timeout: 5)
        let began = expectNotification(
            AVAudioSession.interruptionNotification, AVAudioSessionInterruptionTypeKey, AVAudioSession.InterruptionType.began.rawValue)
        scene.interrupt()
        wait(for: [began], timeout: 5)
        let ended = expectation(forNotification: AVAudioSession.interruptionNotification, object: audioSession) { notification in
            (notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt) == AVAudioSession.InterruptionType.ended.rawValue
                && AVAudioSession.InterruptionOptions(rawValue: notification.userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt ?? 0).contains(
                    .shouldResume)
        }
        scene.endInterruption()
        wait(for: [ended], timeout: 5)
        try audioSession.setCategory(.record)
        // That change's notification is delivered before the one this test waits for is expected.
        XCTAssertTrue(drainMainQueue())
        let category = expectNotification(
            AVAudioSession.routeChangeNotification, AVAudioSessionRouteChangeReasonKey, AVAudioSession.RouteChangeReason.categoryChange.rawValue)
        try audioSession.setCategory(.playAndRecord, mode: .default, options: [])
        wait(for: [category], timeout: 5)
        try audioSession.setCategory(.soloAmbient)
    }

    func testAnEngineRecordingFromAMicrophoneThatGoesAwayStopsAndSaysItsConfigurationChanged() throws {
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
        defer { unsetenv("PULSE_SERVER") }
        let scene = try XCTUnwrap(virtualMicrophone.virtualScene)
        let engine = AVAudioEngine()
        let heard = LockedValue(0)
        engine.inputNode.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in heard.withLock { $0 += 1 } }
        try engine.start()
        XCTAssertTrue(waitUntil { heard.withLock { $0 } > 0 }, "the tap hears the microphone")
        let changed = expectation(forNotification: .AVAudioEngineConfigurationChange, object: engine)
        scene.disconnect()
        wait(for: [changed], timeout: 5)
        XCTAssertFalse(engine.isRunning, "the engine stopped itself")
        scene.reconnect()
        XCTAssertTrue(drainMainQueue())
        let playing = AVAudioEngine()
        _ = playing.mainMixerNode
        try playing.start()
        let quiet = expectation(forNotification: .AVAudioEngineConfigurationChange, object: playing)
        quiet.isInverted = true
        scene.disconnect()
        wait(for: [quiet], timeout: 1)
        XCTAssertTrue(playing.isRunning, "an engine that records nothing is not changed by a microphone")
        playing.stop()
        scene.reconnect()
        XCTAssertTrue(drainMainQueue())
    }

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
