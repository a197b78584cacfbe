import AVFAudio
import TestSupport
import XCTest

/// The engine running in real time with no sound server (its render thread keeps time by the
/// host clock) and the virtual microphone: these tests need real time, run under a second of
/// audio each and wait up to ten.
final class RealtimeEngineTests: XCTestCase {
    override func setUp() {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
    }

    override func tearDown() {
        unsetenv("LINUXAVFOUNDATION_DEVICES")
        unsetenv("PULSE_SERVER")
    }

    func testATunersTapOnTheInputNodeHearsTheMicrophonesTone() throws {
        let engine = AVAudioEngine()
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        XCTAssertEqual(format.sampleRate, 44_100, "the virtual microphone's rate")
        XCTAssertEqual(format.channelCount, 1)
        let lock = NSLock()
        var samples: [Float] = []
        input.installTap(onBus: 0, bufferSize: 4096, format: format) { buffer, when in
            XCTAssertTrue(when.isSampleTimeValid)
            lock.withLock { samples += Tones.samples(buffer) }
        }
        engine.prepare()
        try engine.start()
        XCTAssertTrue(engine.isRunning)
        XCTAssertTrue(waitUntil(timeout: 10) { lock.withLock { samples.count } >= 22_050 }, "half a second of the microphone")
        engine.stop()
        input.removeTap(onBus: 0)
        XCTAssertFalse(engine.isRunning)
        XCTAssertEqual(Tones.frequency(lock.withLock { samples }, rate: 44_100), 440, accuracy: 12, "the virtual microphone's voice")
    }

    func testTheMicrophoneReachesASinkNodeThroughTheRenderThread() throws {
        let engine = AVAudioEngine()
        let lock = NSLock()
        var received = 0
        var loudest: Float = 0
        let sink = AVAudioSinkNode { _, frameCount, list -> OSStatus in
            let samples = list.pointee.mBuffers.mData!.assumingMemoryBound(to: Float.self)
            let peak = (0..<Int(frameCount)).map { abs(samples[$0]) }.max() ?? 0
            lock.withLock {
                received += Int(frameCount)
                loudest = max(loudest, peak)
            }
            return noErr
        }
        engine.attach(sink)
        engine.connect(engine.inputNode, to: sink, format: nil)
        try engine.start()
        XCTAssertTrue(waitUntil(timeout: 10) { lock.withLock { received } >= 24_000 && lock.withLock { loudest } > 0.1 }, "the sink hears the voice")
        engine.stop()
    }

    func testARunningEngineRendersInRealTimeWithoutAServer() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let tone = Tones.sine(frequency: 440, seconds: 0.3, sampleRate: 48_000, channels: 2)
        engine.connect(player, to: engine.mainMixerNode, format: tone.format)
        let done = expectation(description: "played")
        player.scheduleBuffer(tone) { done.fulfill() }
        let start = Date()
        try engine.start()
        player.play()
        wait(for: [done], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.25, "played in real time")
        let rendered = try XCTUnwrap(player.lastRenderTime)
        XCTAssertGreaterThan(rendered.sampleTime, 12_000)
        XCTAssertNotNil(player.playerTime(forNodeTime: rendered))
        engine.stop()
        XCTAssertNil(player.lastRenderTime, "nothing renders once stopped")
    }
}
