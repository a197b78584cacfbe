import AVFAudio
import TestSupport
import XCTest

/// Audio Toolbox's system sounds as camera apps call them, where no sound server runs (a sound keeps
/// time by the host clock): real time, sounds of a fraction of a second, waits of up to ten.
final class SystemSoundTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = makeScratchFolder(name)
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
    }

    override func tearDown() { unsetenv("PULSE_SERVER") }

    /// A WAV file of a 440 Hz tone.
    private func tone(seconds: Double) throws -> URL { try Tones.wavFile(in: folder, seconds: seconds, sampleRate: 8_000) }

    /// Plays a sound with a completion; the seconds until the completion ran.
    private func played(_ id: SystemSoundID) -> Double? {
        let done = LockedFlagAt()
        let start = Date()
        AudioServicesPlaySystemSoundWithCompletion(id) { done.set() }
        guard waitUntil(timeout: 10, { done.at != nil }) else { return nil }
        return done.at.map { $0.timeIntervalSince(start) }
    }

    func testASoundMadeFromAFilePlaysForItsLengthAndItsCompletionRuns() throws {
        var id: SystemSoundID = 0
        XCTAssertEqual(AudioServicesCreateSystemSoundID(try tone(seconds: 0.4) as CFURL, &id), kAudioServicesNoError)
        XCTAssertNotEqual(id, 0)
        let took = try XCTUnwrap(played(id), "the completion runs")
        XCTAssertGreaterThanOrEqual(took, 0.35, "the sound plays for its length first")
        AudioServicesPlaySystemSound(id)
        AudioServicesPlayAlertSound(id)
        XCTAssertEqual(AudioServicesDisposeSystemSoundID(id), kAudioServicesNoError)
        XCTAssertEqual(AudioServicesDisposeSystemSoundID(id), kAudioServicesBadSpecifierSizeError, "disposed once")
        XCTAssertNotNil(played(id), "a disposed sound plays nothing, and its completion still runs")
    }

    func testWhatCannotBeASystemSoundIsRefusedAndTheSystemsOwnIDsAlwaysComplete() throws {
        var id: SystemSoundID = 7
        XCTAssertEqual(AudioServicesCreateSystemSoundID(folder.appendingPathComponent("missing.wav") as CFURL, &id), kAudioServicesSystemSoundUnspecifiedError)
        XCTAssertEqual(id, 0)
        XCTAssertEqual(AudioServicesCreateSystemSoundID(try tone(seconds: 31) as CFURL, &id), kAudioServicesSystemSoundExceededMaximumDurationError)
        // The camera shutter (the freedesktop theme's, where installed) and vibration (nothing here).
        XCTAssertNotNil(played(1108))
        XCTAssertNotNil(played(kSystemSoundID_Vibrate))
    }
}

/// When a flag was set, from any thread.
private final class LockedFlagAt: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Date?
    var at: Date? { lock.withLock { time } }
    func set() { lock.withLock { time = time ?? Date() } }
}
