import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import TestSupport

/// A real sound card read through ALSA: the kernel's snd-aloop loopback card, in the VM that
/// `scripts/vm/test-in-vm.sh` runs. What plays on the card's device 0 is captured on device 1.
/// On a machine without it, these tests skip.
final class ALSAMicrophoneTests: CaptureTestCase {
    private var card: AVCaptureDevice!

    override func setUpWithError() throws {
        guard let loopback = AVCaptureDevice.devices(for: .audio).first(where: { $0.uniqueID == "alsa:hw:CARD=Loopback,DEV=1" }) else {
            throw XCTSkip("no snd-aloop card here: run scripts/vm/test-in-vm.sh")
        }
        card = loopback
    }

    /// Plays a tone into the loopback card for `seconds`; returns once the card's playback side
    /// runs (in the VM's emulation aplay can take well over the 0.3 s once waited, and a capture
    /// opened before it finds no sound playing).
    private func play(frequency: Int, volume: Double, seconds: Int, rate: Int = 48_000) throws -> Process {
        let tone = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tone-\(frequency).wav")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        make.arguments = ["-n", "-r", "\(rate)", "-c", "2", "-b", "16", tone.path, "synth", "\(seconds)", "sine", "\(frequency)", "vol", "\(volume)"]
        try make.run()
        make.waitUntilExit()
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/aplay")
        player.arguments = ["-q", "-D", "hw:Loopback,0", tone.path]
        try player.run()
        let status = "/proc/asound/Loopback/pcm0p/sub0/status"
        let playing = waitUntil(timeout: 30) { ((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").contains("state: RUNNING") }
        XCTAssertTrue(playing, "aplay plays into the loopback card")
        return player
    }

    func testTheCardIsListedBeforeTheVirtualMicrophone() {
        XCTAssertEqual(AVCaptureDevice.default(for: .audio)?.uniqueID.hasPrefix("alsa:"), true, "hardware first")
        XCTAssertTrue(card.localizedName.contains("Loopback"))
        XCTAssertTrue(AVCaptureDevice.devices(for: .audio).contains { $0.virtualScene != nil }, "the virtual microphone stays selectable")
    }

    func testTheAudioSessionsRateAndBufferDurationAreAskedOfTheCard() throws {
        let audioSession = AVAudioSession.sharedInstance()
        defer { try? audioSession.setPreferredSampleRate(0); try? audioSession.setPreferredIOBufferDuration(0) }
        try audioSession.setPreferredSampleRate(32_000)
        try audioSession.setPreferredIOBufferDuration(0.01)
        let player = try play(frequency: 1000, volume: 0.5, seconds: 4, rate: 32_000)
        defer { player.terminate(); player.waitUntilExit() }
        let collector = FrameCollector()
        collector.audioBuffersToKeep = 24
        let (session, _) = try makeAudioSession(microphone: card, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 15) { collector.audioBuffers.count >= 24 })
        session.stopRunning()
        let buffers = Array(collector.audioBuffers.dropFirst(4))
        XCTAssertEqual(buffers.first?.formatDescription?.audioStreamBasicDescription?.mSampleRate, 32_000, "the card runs at the preferred rate")
        for buffer in buffers { XCTAssertEqual(buffer.numSamples, 320, "10 ms at 32 kHz") }
        XCTAssertEqual(ToneAnalysis.frequency(buffers), 1000, accuracy: 15)
    }

    func testCapturesAKnownToneAsInterleaved16BitPCM() throws {
        let player = try play(frequency: 1000, volume: 0.5, seconds: 4)
        defer { player.terminate(); player.waitUntilExit() }
        let collector = FrameCollector()
        let (session, output) = try makeAudioSession(microphone: card, collector: collector)
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        XCTAssertTrue(waitUntil(timeout: 15) { collector.audioBuffers.count >= 25 })
        let channel = try XCTUnwrap(output.connections.first?.audioChannels.first)
        let level = channel.averagePowerLevel
        session.stopRunning()
        let buffers = Array(collector.audioBuffers.dropFirst(5))
        let asbd = try XCTUnwrap(buffers.first?.formatDescription?.audioStreamBasicDescription)
        XCTAssertEqual(asbd.mBitsPerChannel, 16)
        XCTAssertEqual(asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved, 0)
        XCTAssertEqual(asbd.mSampleRate, 48_000, "the card runs at the rate its other side plays")
        XCTAssertEqual(asbd.mChannelsPerFrame, 2)
        XCTAssertEqual(ToneAnalysis.frequency(buffers), 1000, accuracy: 10, "the captured tone is the played tone")
        XCTAssertEqual(level, -9, accuracy: 2, "a sine at half scale averages -9 dBFS")
        for (a, b) in zip(buffers, buffers.dropFirst()) { XCTAssertLessThan(a.presentationTimeStamp, b.presentationTimeStamp) }
        let lag = (CMClockGetTime(CMClockGetHostTimeClock()) - buffers.last!.presentationTimeStamp).seconds
        XCTAssertLessThan(abs(lag), 5, "timestamps are on the host clock")
    }

    func testRecordingFromTheCardGivesAnAACTrack() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed")
        let player = try play(frequency: 440, volume: 0.4, seconds: 4)
        defer { player.terminate(); player.waitUntilExit() }
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: card))
        let movie = AVCaptureMovieFileOutput()
        movie.maxRecordedDuration = CMTime(value: 1, timescale: 1)
        session.addOutput(movie)
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("alsa.m4v")
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        XCTAssertTrue(waitUntil(timeout: 20) { log.finished })
        session.stopRunning()
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertEqual(probe.audio?.codec, "aac")
        XCTAssertNil(probe.video)
        XCTAssertEqual(probe.duration, 1, accuracy: 0.1)
    }
}
