import AppleStyleCode
import AVFoundation
import CaptureTestSupport
import TestSupport
import XCTest

/// Voice code on Audio Queue services, unchanged: a recorder taking the virtual microphone at
/// 16 kHz through a C callback, and a tone player refilling its buffers from a dispatch queue,
/// paced by the host clock where no sound server runs.
final class AudioQueueVoiceTests: XCTestCase {
    override func setUp() {
        super.setUp()
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
    }

    override func tearDown() {
        unsetenv("LINUXAVFOUNDATION_DEVICES")
        unsetenv("PULSE_SERVER")
        super.tearDown()
    }

    func testARecorderFillsEachBufferInTurnWithTheMicrophoneAt16kHz() throws {
        let recorder = AudioQueueVoiceRecorder()
        try recorder.start()
        XCTAssertTrue(waitUntil(timeout: 15) { recorder.samples.count >= 16_000 }, "a second of 16 kHz samples: \(recorder.samples.count)")
        recorder.stop()
        let samples = recorder.samples
        let starts = recorder.bufferStartTimes
        XCTAssertGreaterThanOrEqual(starts.count, 10)
        for (index, start) in starts.enumerated() {
            XCTAssertEqual(start, Double(index * 1600), "buffer \(index) starts where the one before ended: 1600 frames of 100 ms")
        }
        let last = samples.count - (starts.count - 1) * 1600
        XCTAssertTrue((1...1600).contains(last), "every buffer delivered full, the last (at the stop) as far as it was filled: \(last)")
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        XCTAssertGreaterThan(peak, 3000, "the microphone's voice, converted to 16-bit samples")
        XCTAssertGreaterThan(recorder.peakLevel, 0.1, "level metering follows the voice")
        XCTAssertLessThanOrEqual(recorder.peakLevel, 1)
    }

    func testATonePlayerIsPacedByTheClockAndStopsOnceItsBuffersHavePlayed() throws {
        let player = AudioQueueTonePlayer()
        let started = Date()
        try player.start(volume: 0.5)
        XCTAssertTrue(player.isRunning)
        XCTAssertTrue(waitUntil(timeout: 15) { player.played >= 10 }, "each buffer handed back once played: \(player.played)")
        let elapsed = Date().timeIntervalSince(started)
        // Ten 100 ms buffers take a second of the host clock: none is handed back before its time.
        XCTAssertGreaterThanOrEqual(elapsed, 0.9, "played in real time, not at once")
        XCTAssertGreaterThanOrEqual(player.sampleTime, 44100 * 0.9, "the queue's clock counts the frames played")
        player.finish()
        XCTAssertTrue(waitUntil(timeout: 5) { !player.isRunning }, "it stops once what was enqueued has played")
        XCTAssertTrue(waitUntil(timeout: 5) { player.runningStates == [true, false] }, "the listener hears it start and stop: \(player.runningStates)")
        player.dispose()
    }
}
