import AppleStyleCode
import CaptureTestSupport
import CPulse
import XCTest
@testable import AVFoundation
import TestSupport

/// A player's sound, heard through a real PulseAudio server: the player plays to the server's
/// null sink and the test records the sink's monitor (the AV Foundation Programming Guide's time-pitch table: the spectral
/// and time-domain algorithms keep the pitch, varispeed does not).
final class AVPlayerSoundTests: CaptureTestCase {
    private var server: PrivatePulseServer!
    private var tone: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        // Made before the server starts: Foundation's Process waits for children one at a time.
        tone = makeScratchFolder(name).appendingPathComponent("tone.mp4")
        try TestMovies.picturesAndTone(tone, seconds: 2)
        guard let server = PrivatePulseServer() else { try skipOrFail("pulseaudio is not installed: scripts/install-deps.sh --with-servers") }
        self.server = server
    }

    override func tearDown() {
        super.tearDown()
        server?.stop()
    }

    /// What the sink played: the left channel at 48 kHz, recorded for `seconds`.
    private final class Recording: @unchecked Sendable {
        private let lock = NSLock()
        private var samples: [Int16] = []
        private var running = true
        private let done = DispatchSemaphore(value: 0)

        init(source: String) throws {
            var error: Int32 = 0
            guard let capture = cpulse_open(source, 48_000, 2, 480, &error) else { throw XCTSkip("the monitor cannot be recorded: \(error)") }
            nonisolated(unsafe) let stream = capture
            Thread { [self] in
                var block = [Int16](repeating: 0, count: 960)
                while lock.withLock({ running }) {
                    guard block.withUnsafeMutableBytes({ cpulse_read(stream, $0.baseAddress, $0.count) }) == 0 else { break }
                    lock.withLock { for frame in 0..<480 { samples.append(block[frame * 2]) } }
                }
                cpulse_close(stream)
                done.signal()
            }.start()
        }

        /// Waits until the last `seconds` recorded are quiet (what was played has played out of the
        /// server, however late a busy machine makes it), at most `timeout` seconds.
        func waitForQuiet(seconds: Double = 0.4, timeout: Double = 10) {
            let needed = Int(seconds * 48_000)
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let quiet = lock.withLock { samples.count >= needed && samples.suffix(needed).allSatisfy { abs(Int($0)) <= 1000 } }
                if quiet { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        func stop() -> [Int16] {
            lock.withLock { running = false }
            done.wait()
            return lock.withLock { samples }
        }
    }

    private func frequency(_ samples: ArraySlice<Int16>) -> Double { ToneAnalysis.frequency(samples, rate: 48_000) }

    /// The 10 ms stretches louder than a quiet floor.
    private func loudWindows(_ samples: [Int16]) -> [Int] {
        stride(from: 0, to: samples.count - 480, by: 480).filter { start in samples[start..<(start + 480)].map { abs(Int($0)) }.max() ?? 0 > 1000 }
    }

    /// The samples from the first to the last 10 ms stretch louder than a quiet floor.
    private func heard(_ samples: [Int16]) -> ArraySlice<Int16> {
        let loud = loudWindows(samples)
        guard let first = loud.first, let last = loud.last else { return [] }
        return samples[first..<(last + 480)]
    }

    /// Checks that what was played lasted `seconds`: on a busy machine a starved server may put
    /// silence between stretches of sound (the span grows) or the player may pass over sound to
    /// keep its clock (the sound heard shrinks), never both, so the span is at least `seconds` and
    /// the sound heard at most `seconds`, each within `accuracy`.
    private func assertLasts(
        _ samples: [Int16], _ seconds: Double, accuracy: Double, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let loud = loudWindows(samples)
        let span = Double((loud.last ?? 0) + 480 - (loud.first ?? 0)) / 48_000, sounding = Double(loud.count * 480) / 48_000
        XCTAssertGreaterThanOrEqual(span, seconds - accuracy, "from the first sound to the last: \(message)", file: file, line: line)
        XCTAssertLessThanOrEqual(sounding, seconds + accuracy, "sound heard: \(message)", file: file, line: line)
    }

    /// Plays a 2-second 1 kHz tone at a rate with an algorithm; what the sink heard.
    private func play(rate: Float, algorithm: AVAudioTimePitchAlgorithm, volume: Float = 1, mix: ((AVAssetTrack) -> AVAudioMix)? = nil) throws -> [Int16] {
        let item = AVPlayerItem(url: tone)
        item.audioTimePitchAlgorithm = algorithm
        if let mix { item.audioMix = mix(item.asset.tracks(withMediaType: .audio)[0]) }
        let player = AVPlayer(playerItem: item)
        player.volume = volume
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        let recording = try Recording(source: "testsink.monitor")
        spin(0.3)
        let ended = expectation(forNotification: .AVPlayerItemDidPlayToEndTime, object: item)
        player.rate = rate
        wait(for: [ended], timeout: 2 / Double(rate) + 5)
        recording.waitForQuiet()
        XCTAssertNil(PlayerSound.lastProblem.withLock { $0 }, "the server took the sound")
        return recording.stop()
    }

    /// Plays the tone with an AVAudioPlayer (which takes a file's first sound track); what the sink heard on its left channel.
    private func playWithAudioPlayer(_ configure: (AVAudioPlayer) -> Void) throws -> [Int16] {
        let player = try AVAudioPlayer(contentsOf: tone)
        configure(player)
        let recording = try Recording(source: "testsink.monitor")
        spin(0.3)
        XCTAssertTrue(player.play())
        XCTAssertTrue(waitUntil(timeout: 10) { !player.isPlaying }, "the player reaches the end")
        recording.waitForQuiet()
        return recording.stop()
    }

    func testAnAudioPlayerPlaysToTheServerFasterAtTheSamePitchAndPanned() throws {
        let fastRecording = try playWithAudioPlayer {
            $0.enableRate = true
            $0.rate = 2
        }
        let fast = heard(fastRecording)
        assertLasts(fastRecording, 1, accuracy: 0.25, "two seconds played in one")
        XCTAssertEqual(frequency(fast), 1000, accuracy: 15, "still 1 kHz")
        let right = heard(try playWithAudioPlayer { $0.pan = 1 })
        XCTAssertEqual(right.count, 0, "panned right, the left channel hears nothing")
        assertLasts(try playWithAudioPlayer { $0.pan = -1 }, 2, accuracy: 0.25)
    }

    func testSpectralAtHalfSpeedLastsTwiceAsLongAtTheSamePitch() throws {
        let recording = try play(rate: 0.5, algorithm: .spectral)
        let sound = heard(recording)
        assertLasts(recording, 4, accuracy: 0.25, "twice as long")
        XCTAssertEqual(frequency(sound), 1000, accuracy: 15, "still 1 kHz")
    }

    func testTimeDomainAtHalfSpeedKeepsThePitch() throws {
        let recording = try play(rate: 0.5, algorithm: .timeDomain)
        let sound = heard(recording)
        assertLasts(recording, 4, accuracy: 0.25)
        XCTAssertEqual(frequency(sound), 1000, accuracy: 15)
    }

    func testVarispeedAtHalfSpeedPlaysAnOctaveLower() throws {
        let recording = try play(rate: 0.5, algorithm: .varispeed)
        let sound = heard(recording)
        assertLasts(recording, 4, accuracy: 0.25)
        XCTAssertEqual(frequency(sound), 500, accuracy: 8, "no pitch correction: 500 Hz")
    }

    func testNormalSpeedPlaysTheToneAsRecordedAndVolumeScalesIt() throws {
        let recording = try play(rate: 1, algorithm: .spectral)
        let full = heard(recording)
        assertLasts(recording, 2, accuracy: 0.2)
        XCTAssertEqual(frequency(full), 1000, accuracy: 15)
        let half = heard(try play(rate: 1, algorithm: .spectral, volume: 0.5))
        let peak = { (samples: ArraySlice<Int16>) in Double(samples.map { abs(Int($0)) }.sorted()[samples.count * 99 / 100]) }
        XCTAssertEqual(peak(half) / peak(full), 0.5, accuracy: 0.05, "volume 0.5 halves the level")
    }

    func testTheItemsAudioMixSetsTheVolumeOverTime() throws {
        let recording = try play(rate: 1, algorithm: .spectral) { track in
            let parameters = AVMutableAudioMixInputParameters(track: track)
            parameters.setVolume(0.5, at: CMTime(value: 1, timescale: 1))
            let mix = AVMutableAudioMix()
            mix.inputParameters = [parameters]
            return mix
        }
        let sound = heard(recording)
        assertLasts(recording, 2, accuracy: 0.2)
        guard sound.count > 90_000 else { return }
        let peak = { (samples: ArraySlice<Int16>) in Double(samples.map { abs(Int($0)) }.max() ?? 0) }
        let start = sound.startIndex
        let first = peak(sound[(start + 12_000)..<(start + 36_000)]), second = peak(sound[(start + 60_000)..<(start + 84_000)])
        XCTAssertEqual(second / first, 0.5, accuracy: 0.05, "half the volume from 1 s")
    }

    func testAnItemsTapProcessesWhatIsPlayed() throws {
        let plain = heard(try play(rate: 1, algorithm: .spectral))
        let meter = LevelMeterTap(gain: 0.5)
        let halved = heard(try play(rate: 1, algorithm: .spectral) { track in meter.audioMix(for: track)! })
        guard plain.count > 60_000, halved.count > 60_000 else { return XCTFail("too little was heard: \(plain.count), \(halved.count)") }
        let peak = { (samples: ArraySlice<Int16>) in Double(samples.map { abs(Int($0)) }.max() ?? 0) }
        let first = peak(plain[(plain.startIndex + 12_000)..<(plain.startIndex + 60_000)])
        let second = peak(halved[(halved.startIndex + 12_000)..<(halved.startIndex + 60_000)])
        XCTAssertEqual(second / first, 0.5, accuracy: 0.05, "the tap halves what the player plays")
        XCTAssertEqual(meter.format.mSampleRate, 48_000)
        XCTAssertGreaterThan(meter.frames, 80_000, "the tap saw the whole tone")
        XCTAssertTrue(waitUntil(timeout: 10) { meter.events.last == "unprepare" || meter.events.last == "finalize" }, "\(meter.events)")
        XCTAssertTrue(isLifecycle(meter.events), "\(meter.events)")
    }

    /// Whether a tap's callbacks came in Apple's order: init first, then prepare and unprepare in
    /// turn (the player prepares again each time its sound starts again, after a seek or as the
    /// item becomes ready), ending unprepared, with sound processed.
    private func isLifecycle(_ events: [String]) -> Bool {
        let turns = events.filter { $0 == "prepare" || $0 == "unprepare" }
        return events.first == "init" && events.contains("process") && turns.count % 2 == 0
            && turns.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "prepare" : "unprepare") }
    }

    /// A player of the tone whose item's mix runs `meter`'s tap, playing once the tap processes sound.
    private func playing(through meter: LevelMeterTap) -> AVPlayer {
        let item = AVPlayerItem(url: tone)
        item.audioMix = meter.audioMix(for: item.asset.tracks(withMediaType: .audio)[0])
        let player = AVPlayer(playerItem: item)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        player.play()
        XCTAssertTrue(waitUntil(timeout: 10) { meter.events.contains("process") }, "\(meter.events)")
        // The item's readiness may still restart the sound where it is (its update is queued on
        // the player's engine): once that has run, the sound playing is the one that stays.
        player.engine.sync {}
        XCTAssertTrue(waitUntil(timeout: 10) { meter.events.last == "process" }, "\(meter.events)")
        return player
    }

    func testReplacingTheItemUnpreparesItsTap() throws {
        let meter = LevelMeterTap(gain: 1)
        let player = playing(through: meter)
        let before = meter.events.count
        player.replaceCurrentItem(with: AVPlayerItem(url: tone))
        XCTAssertTrue(waitUntil(timeout: 10) { meter.events.dropFirst(before).contains("unprepare") }, "\(meter.events)")
        XCTAssertEqual(Array(meter.events.dropFirst(before).prefix(1)), ["unprepare"], "let go of, and not prepared again")
        XCTAssertTrue(meter.events.dropFirst(before + 1).allSatisfy { $0 == "finalize" }, "at most finalized with the item: \(meter.events)")
        XCTAssertTrue(isLifecycle(meter.events), "\(meter.events)")
        player.pause()
    }

    func testASeekHandsTheTapToTheSoundThatFollows() throws {
        let meter = LevelMeterTap(gain: 1)
        let player = playing(through: meter)
        // The sound after the seek starts while the one before is still letting go of the tap.
        let before = meter.events.count
        player.seek(to: CMTime(value: 1, timescale: 10))
        XCTAssertTrue(
            waitUntil(timeout: 10) { Array(meter.events.dropFirst(before).prefix(3)) == ["unprepare", "prepare", "process"] }, "\(meter.events)")
        player.pause()
    }

    func testTimeDomainOutsideItsRangeIsSilentButTimeGoesOn() throws {
        let sound = heard(try play(rate: 4, algorithm: .timeDomain))
        XCTAssertTrue(sound.isEmpty, "time domain plays 0.5x to 2x only (the AV Foundation Programming Guide)")
    }
}
