@testable import AVFAudio
import TestSupport
import XCTest

/// Plays sound files where no sound server runs, so the player keeps time by the host clock:
/// these tests need real time, play well under two seconds each and wait up to ten.
final class AudioPlayerTests: XCTestCase {
    private final class Listener: NSObject, AVAudioPlayerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var flags: [Bool] = []
        private var times: [Date] = []
        /// What the delegate heard, in order.
        var finished: [Bool] { lock.withLock { flags } }
        /// When it heard it.
        var finishedAt: Date? { lock.withLock { times.last } }
        func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
            lock.withLock {
                flags.append(flag)
                times.append(Date())
            }
        }
    }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = makeScratchFolder(name)
        // No sound server for these: the player keeps time itself.
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
    }

    override func tearDown() { unsetenv("PULSE_SERVER") }

    /// A WAV file of a 440 Hz tone at half of full scale.
    private func tone(seconds: Double) throws -> URL { try Tones.wavFile(in: folder, seconds: seconds, sampleRate: 48_000) }

    /// Plays a player to its end; the seconds it took.
    private func playToEnd(_ player: AVAudioPlayer, _ listener: Listener) -> Double {
        player.delegate = listener
        let start = Date()
        XCTAssertTrue(player.play())
        XCTAssertTrue(player.isPlaying)
        XCTAssertTrue(waitUntil(timeout: 10) { !listener.finished.isEmpty }, "the delegate hears the end")
        XCTAssertEqual(listener.finished, [true])
        return (listener.finishedAt ?? Date()).timeIntervalSince(start)
    }

    func testASoundPlaysForItsDurationAndTheDelegateHearsTheEnd() throws {
        let player = try AVAudioPlayer(contentsOf: tone(seconds: 0.5))
        XCTAssertEqual(player.duration, 0.5, accuracy: 1e-9)
        XCTAssertEqual(player.numberOfChannels, 1)
        XCTAssertTrue(player.prepareToPlay())
        let took = playToEnd(player, Listener())
        XCTAssertGreaterThanOrEqual(took, 0.45, "played in real time")
        XCTAssertLessThan(took, 3)
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(player.currentTime, 0, "back to the start at the end")
    }

    func testLoopsPlayTheSoundAgainAndTheRateShortensIt() throws {
        let looping = try AVAudioPlayer(contentsOf: tone(seconds: 0.3))
        looping.numberOfLoops = 2
        XCTAssertGreaterThanOrEqual(playToEnd(looping, Listener()), 0.85, "three times 0.3 s")
        let fast = try AVAudioPlayer(contentsOf: tone(seconds: 1))
        fast.enableRate = true
        fast.rate = 2
        let took = playToEnd(fast, Listener())
        XCTAssertGreaterThanOrEqual(took, 0.45, "played in real time")
        // What the output was given, not how long it took: a busy machine makes playing late, never short.
        XCTAssertEqual(Double(fast.outputFramesPlayed), 24_000, accuracy: 1_200, "twice as fast: half a second at 48 kHz, not one")
        fast.rate = .nan
        XCTAssertEqual(fast.rate, 2, "a rate that is not a number is ignored")
        fast.rate = 10
        XCTAssertEqual(fast.rate, 2, "rates are 0.5 to 2")
    }

    func testPausingKeepsTheTimeAndSettingItMovesPlaying() throws {
        let player = try AVAudioPlayer(contentsOf: tone(seconds: 1))
        let listener = Listener()
        player.delegate = listener
        XCTAssertTrue(player.play())
        XCTAssertTrue(waitUntil(timeout: 10) { player.currentTime > 0.2 })
        player.pause()
        XCTAssertFalse(player.isPlaying)
        let paused = player.currentTime
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(player.currentTime, paused, "time stands still while paused")
        player.currentTime = 0.85
        XCTAssertEqual(player.currentTime, 0.85, accuracy: 1e-9)
        let start = Date()
        XCTAssertTrue(player.play())
        XCTAssertTrue(waitUntil(timeout: 10) { !listener.finished.isEmpty })
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.6, "only the last 0.15 s were left to play")
        player.currentTime = .infinity
        XCTAssertEqual(player.currentTime, 0, "a time that is not finite is ignored")
    }

    func testMetersGiveTheLevelOfWhatIsPlayed() throws {
        let player = try AVAudioPlayer(contentsOf: tone(seconds: 1))
        player.isMeteringEnabled = true
        XCTAssertTrue(player.play())
        XCTAssertTrue(waitUntil(timeout: 10) { player.currentTime > 0.3 })
        player.updateMeters()
        // A sine at half of full scale: peak -6 dB, average (its RMS) -9 dB.
        XCTAssertEqual(player.peakPower(forChannel: 0), -6.02, accuracy: 0.1)
        XCTAssertEqual(player.averagePower(forChannel: 0), -9.03, accuracy: 0.2)
        player.stop()
        player.volume = 2
        XCTAssertEqual(player.volume, 1, "volumes are 0 to 1")
        player.pan = -3
        XCTAssertEqual(player.pan, -1)
    }

    func testSoundInMemoryPlaysAndWhatIsNotSoundIsRefused() throws {
        let data = try Data(contentsOf: tone(seconds: 0.2))
        let player = try AVAudioPlayer(data: data)
        XCTAssertEqual(player.data, data)
        XCTAssertNil(player.url)
        XCTAssertEqual(player.duration, 0.2, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(playToEnd(player, Listener()), 0.15)
        XCTAssertThrowsError(try AVAudioPlayer(data: Data("not a sound".utf8)))
        XCTAssertThrowsError(try AVAudioPlayer(contentsOf: folder.appendingPathComponent("missing.wav")))
    }
}
