import AVFAudio
import Synchronization
import TestSupport
import XCTest

/// The engine rendered by the test, in offline manual rendering mode: no device, no real time.
final class OfflineRenderingTests: XCTestCase {
    private let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!

    /// An engine in offline manual rendering mode at 48 kHz stereo, 1024 frames a render.
    private func offlineEngine() throws -> AVAudioEngine {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)
        return engine
    }

    /// Renders `seconds` of the engine; each channel's samples.
    private func render(_ engine: AVAudioEngine, seconds: Double) throws -> [[Float]] {
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        var channels = [[Float]](repeating: [], count: Int(format.channelCount))
        var left = Int(seconds * format.sampleRate)
        while left > 0 {
            let frames = AVAudioFrameCount(min(left, Int(buffer.frameCapacity)))
            XCTAssertEqual(try engine.renderOffline(frames, to: buffer), .success)
            for channel in channels.indices { channels[channel] += Tones.samples(buffer, channel: channel) }
            left -= Int(frames)
        }
        return channels
    }

    /// The processor time the process has used, in seconds.
    /// The seconds this thread has run and has waited to run (on a CPU's queue), from the
    /// scheduler's statistics; nil where the kernel keeps none.
    private static func threadScheduling() -> (running: Double, waiting: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count >= 2 else { return nil }
        return (fields[0] / 1e9, fields[1] / 1e9)
    }

    /// A source node rendering a sine tone at an amplitude, as signal generators write one.
    private func sineSource(frequency: Double, amplitude: Float, sampleRate: Double) -> AVAudioSourceNode {
        var phase = 0.0
        let step = 2 * Double.pi * frequency / sampleRate
        return AVAudioSourceNode { _, _, frameCount, audioBufferList -> OSStatus in
            let buffers = UnsafeMutableAudioBufferListPointer(audioBufferList)
            for frame in 0..<Int(frameCount) {
                let value = amplitude * Float(sin(phase))
                phase += step
                for buffer in buffers { buffer.mData!.assumingMemoryBound(to: Float.self)[frame] = value }
            }
            return noErr
        }
    }

    func testASourceNodeThroughTheMainMixerRendersItsToneAsFastAsAsked() throws {
        let engine = try offlineEngine()
        XCTAssertTrue(engine.isInManualRenderingMode)
        XCTAssertEqual(engine.manualRenderingMode, .offline)
        let source = sineSource(frequency: 440, amplitude: 0.5, sampleRate: 48_000)
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        XCTAssertEqual(engine.mainMixerNode.outputFormat(forBus: 0), format, "the main mixer renders in the manual rendering format")
        try engine.start()
        // Offline rendering waits on no clock: either the ten seconds took less than ten, or the
        // rendering thread (this one: renderOffline renders on its caller's thread) spent most of
        // the time they took running or waiting for a CPU (a slow or busy machine, a sanitizer),
        // not asleep; a renderer paced in real time fails both.
        let start = Date(), before = try XCTUnwrap(Self.threadScheduling(), "the kernel's scheduler statistics")
        let channels = try render(engine, seconds: 10)
        let wall = Date().timeIntervalSince(start), after = try XCTUnwrap(Self.threadScheduling())
        let running = after.running - before.running, waiting = after.waiting - before.waiting
        let asleep = wall - running - waiting
        XCTAssertTrue(
            wall < 10 || asleep < wall / 2,
            "ten seconds rendered in \(wall) s: \(running) s running, \(waiting) s waiting for a CPU, \(asleep) s asleep: paced, not offline")
        XCTAssertEqual(engine.manualRenderingSampleTime, 480_000)
        XCTAssertEqual(Tones.frequency(channels[0], rate: 48_000), 440, accuracy: 0.1)
        XCTAssertEqual(Tones.rms(channels[1]), 0.5 / 2.squareRoot(), accuracy: 0.002, "both channels, at the source's level")
        engine.stop()
    }

    func testVolumePanAndTheMixersOutputVolumeApply() throws {
        let engine = try offlineEngine()
        let source = sineSource(frequency: 1000, amplitude: 0.8, sampleRate: 48_000)
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        source.pan = -1
        source.volume = 0.5
        engine.mainMixerNode.outputVolume = 0.5
        try engine.start()
        let channels = try render(engine, seconds: 0.5)
        XCTAssertEqual(Tones.rms(channels[0]), 0.8 * 0.5 * 0.5 / 2.squareRoot(), accuracy: 0.002, "mono to the left, at a quarter")
        XCTAssertEqual(Tones.rms(channels[1]), 0, "panned fully left, the right hears nothing")
    }

    func testAPlayerNodePlaysABufferAtAnotherRateWholeAndTellsWhenDone() throws {
        let engine = try offlineEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let tone = Tones.sine(frequency: 1000, seconds: 1, sampleRate: 44_100, channels: 1, amplitude: 0.5)
        engine.connect(player, to: engine.mainMixerNode, format: tone.format)
        let done = expectation(description: "the completion handler")
        player.scheduleBuffer(tone) { done.fulfill() }
        try engine.start()
        player.play()
        XCTAssertTrue(player.isPlaying)
        let channels = try render(engine, seconds: 1.5)
        wait(for: [done], timeout: 5)
        let loud = channels[0].enumerated().filter { abs($0.element) > 0.01 }.map(\.offset)
        XCTAssertEqual(Double((loud.last ?? 0) - (loud.first ?? 0)) / 48_000, 1, accuracy: 0.01, "one second of tone, resampled to 48 kHz")
        XCTAssertEqual(Tones.frequency(Array(channels[0][1000..<40_000]), rate: 48_000), 1000, accuracy: 0.5, "at its pitch")
        XCTAssertEqual(Tones.rms(Array(channels[0][48_100..<72_000])), 0, "silence after it")
    }

    func testALoopingBufferPlaysUntilStoppedAndAFileSegmentPlaysItsFrames() throws {
        let engine = try offlineEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let tone = Tones.sine(frequency: 500, seconds: 0.1, sampleRate: 48_000, channels: 2, amplitude: 0.5)
        engine.connect(player, to: engine.mainMixerNode, format: tone.format)
        let stopped = expectation(description: "stopping calls the loop's handler")
        player.scheduleBuffer(tone, at: nil, options: .loops) { stopped.fulfill() }
        try engine.start()
        player.play()
        let channels = try render(engine, seconds: 0.5)
        XCTAssertEqual(channels[0].count, 24_000)
        XCTAssertEqual(Tones.rms(Array(channels[0][19_200..<24_000])), 0.5 / 2.squareRoot(), accuracy: 0.01, "still playing in its fifth loop")
        player.stop()
        wait(for: [stopped], timeout: 5)
        XCTAssertFalse(player.isPlaying)

        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("segment-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2])
        try file.write(from: Tones.sine(frequency: 300, seconds: 1, sampleRate: 48_000, channels: 2))
        file.close()
        let reading = try AVAudioFile(forReading: url)
        let segmentDone = expectation(description: "the segment's handler")
        player.scheduleSegment(reading, startingFrame: 24_000, frameCount: 12_000, at: nil) { segmentDone.fulfill() }
        player.play()
        let segment = try render(engine, seconds: 0.5)
        wait(for: [segmentDone], timeout: 5)
        let loud = segment[0].enumerated().filter { abs($0.element) > 0.01 }.map(\.offset)
        XCTAssertEqual((loud.last ?? 0) - (loud.first ?? 0) + 1, 12_000, accuracy: 20, "a quarter second of the file")
        XCTAssertEqual(Tones.frequency(Array(segment[0][0..<12_000]), rate: 48_000), 300, accuracy: 0.5)
    }

    func testATapHearsWhatTheMixerRenders() throws {
        let engine = try offlineEngine()
        let source = sineSource(frequency: 440, amplitude: 0.25, sampleRate: 48_000)
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        let lock = NSLock()
        var heard: [Float] = []
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4800, format: nil) { buffer, _ in
            lock.withLock { heard += Tones.samples(buffer) }
        }
        try engine.start()
        let rendered = try render(engine, seconds: 1)
        XCTAssertTrue(waitUntil { lock.withLock { heard.count } == 48_000 }, "ten buffers of 4800 frames")
        XCTAssertEqual(lock.withLock { heard }, rendered[0], "the same samples as the output")
        engine.mainMixerNode.removeTap(onBus: 0)
    }

    func testASlowTapMissesBuffersAndNeverHoldsTheEngineUp() throws {
        let engine = try offlineEngine()
        let source = sineSource(frequency: 440, amplitude: 0.25, sampleRate: 48_000)
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        let gate = DispatchSemaphore(value: 0)
        let calls = Atomic(0)
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 512, format: nil) { _, _ in
            calls.add(1, ordering: .relaxed)
            gate.wait()
        }
        try engine.start()
        // The tap's block is stuck in its first buffer while 400 are rendered: the renderer goes on.
        let rendered = try render(engine, seconds: Double(400 * 512) / 48_000)
        XCTAssertEqual(rendered[0].count, 400 * 512)
        XCTAssertTrue(waitUntil { calls.load(ordering: .relaxed) == 1 })
        for _ in 0..<400 { gate.signal() }
        // Let go, it hears the three buffers that were full when it stuck (four buffers go round), and no more.
        XCTAssertTrue(waitUntil { calls.load(ordering: .relaxed) == 4 }, "the tap's four buffers, the rest missed rather than queued")
        engine.mainMixerNode.removeTap(onBus: 0)
        XCTAssertEqual(calls.load(ordering: .relaxed), 4)
    }

    func testTheGraphIsTheConnectionsMade() throws {
        let engine = AVAudioEngine()
        let first = AVAudioPlayerNode(), second = AVAudioPlayerNode()
        engine.attach(first)
        engine.attach(second)
        XCTAssertTrue(engine.attachedNodes.contains(first))
        XCTAssertTrue(first.engine === engine)
        let mixer = engine.mainMixerNode
        XCTAssertEqual(mixer.nextAvailableInputBus, 0)
        engine.connect(first, to: mixer, format: nil)
        engine.connect(second, to: mixer, format: nil)
        XCTAssertEqual(mixer.nextAvailableInputBus, 2)
        XCTAssertTrue(engine.inputConnectionPoint(for: mixer, inputBus: 1)?.node === second)
        XCTAssertEqual(engine.outputConnectionPoints(for: first, outputBus: 0).first?.bus, 0)
        XCTAssertTrue(engine.inputConnectionPoint(for: engine.outputNode, inputBus: 0)?.node === mixer, "the main mixer plays into the output")
        engine.disconnectNodeOutput(first)
        XCTAssertEqual(mixer.nextAvailableInputBus, 0)
        engine.detach(second)
        XCTAssertNil(engine.inputConnectionPoint(for: mixer, inputBus: 1))
        XCTAssertNil(second.engine)
        XCTAssertThrowsError(try engine.renderOffline(512, to: AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!), "not in manual rendering mode")
    }
}
