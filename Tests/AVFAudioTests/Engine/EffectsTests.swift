import AVFAudio
import TestSupport
import XCTest

/// Effects rendered offline, their sound measured: what each filter keeps and removes, tails,
/// echoes, harmonics, speed and pitch.
final class EffectsTests: XCTestCase {
    private let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!

    /// Plays a buffer through an effect (or a chain) into the main mixer, rendered offline for
    /// `seconds`; the left channel of what came out, and whether the player finished.
    private func render(_ source: AVAudioPCMBuffer, through effects: [AVAudioNode], seconds: Double) throws -> [Float] {
        let engine = AVAudioEngine()
        let output = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!
        try engine.enableManualRenderingMode(.offline, format: output, maximumFrameCount: 512)
        let player = AVAudioPlayerNode()
        engine.attach(player)
        var previous: AVAudioNode = player
        for effect in effects {
            engine.attach(effect)
            engine.connect(previous, to: effect, format: source.format)
            previous = effect
        }
        engine.connect(previous, to: engine.mainMixerNode, format: source.format)
        player.scheduleBuffer(source)
        try engine.start()
        player.play()
        var left: [Float] = []
        let buffer = AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 512)!
        for _ in 0..<Int(seconds * 48_000 / 512) {
            XCTAssertEqual(try engine.renderOffline(512, to: buffer), .success)
            left += Tones.samples(buffer)
        }
        engine.stop()
        return left
    }

    private func tone(_ frequency: Double, seconds: Double = 1, amplitude: Float = 0.5) -> AVAudioPCMBuffer {
        Tones.sine(frequency: frequency, seconds: seconds, sampleRate: 48_000, channels: 1, amplitude: amplitude)
    }

    func testAnEqualiserKeepsLowsCutsHighsAndRaisesItsBand() throws {
        let lowPass = AVAudioUnitEQ(numberOfBands: 1)
        XCTAssertTrue(lowPass.bands[0].bypass, "bands start bypassed, as Apple's do")
        XCTAssertEqual(
            Tones.rms(try render(tone(5000), through: [lowPass], seconds: 0.5)), 0.5 / 2.squareRoot(), accuracy: 0.01, "a bypassed band changes nothing")
        lowPass.bands[0].filterType = .lowPass
        lowPass.bands[0].frequency = 1000
        lowPass.bands[0].bypass = false
        let high = Tones.rms(Array(try render(tone(5000), through: [lowPass], seconds: 0.5)[4800...]))
        let low = Tones.rms(Array(try render(tone(200), through: [lowPass], seconds: 0.5)[4800...]))
        XCTAssertLessThan(high, 0.5 / 2.squareRoot() * 0.1, "5 kHz is cut by more than 20 dB")
        XCTAssertEqual(low, 0.5 / 2.squareRoot(), accuracy: 0.02, "200 Hz passes")

        let peak = AVAudioUnitEQ(numberOfBands: 2)
        peak.bands[0].filterType = .parametric
        peak.bands[0].frequency = 1000
        peak.bands[0].bandwidth = 1
        peak.bands[0].gain = 12
        peak.bands[0].bypass = false
        peak.globalGain = -6
        let raised = Tones.rms(Array(try render(tone(1000, amplitude: 0.1), through: [peak], seconds: 0.5)[4800...]))
        XCTAssertEqual(raised / (0.1 / 2.squareRoot()), pow(10, 6.0 / 20), accuracy: 0.1, "+12 dB in the band, -6 dB overall")
        peak.bands[0].gain = .nan
        XCTAssertEqual(peak.bands[0].gain, 12, "a gain that is not a number is ignored")
    }

    func testAReverbLeavesATailAndOfflineRenderingMatchesTheRealTimeOne() throws {
        let burst = tone(440, seconds: 0.1)
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.largeHall)
        reverb.wetDryMix = 50
        let wet = try render(burst, through: [reverb], seconds: 1)
        XCTAssertGreaterThan(Tones.rms(Array(wet[19_200..<28_800])), 0.005, "the hall rings on after the burst")
        reverb.wetDryMix = 0
        let dry = try render(burst, through: [reverb], seconds: 1)
        XCTAssertEqual(Tones.rms(Array(dry[19_200..<28_800])), 0, accuracy: 1e-6, "all dry: nothing after the burst")

        // The same graph running in real time (no sound server: the host clock paces it), heard through a tap.
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
        defer { unsetenv("PULSE_SERVER") }
        // A busy machine can make the effect's worker late for a cycle, which real time shows as a
        // short cycle and offline rendering never does: such a run is heard again, up to 8 times.
        for attempt in 1...8 {
            let late = EffectPipeline.lateCycles.load(ordering: .relaxed)
            let (online, latency) = try listenToAReverbLive(burst, frames: 24_576)
            if EffectPipeline.lateCycles.load(ordering: .relaxed) != late, attempt < 8 { continue }
            XCTAssertEqual(latency, 512, "a cycle's latency in real time")
            XCTAssertEqual(online.prefix(latency).map(abs).max(), 0, "the first cycle is silence")
            let largest = zip(online.dropFirst(latency), wet.prefix(24_576 - latency)).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(largest, 1e-5, "rendered offline, the same sound as in real time a cycle later (attempt \(attempt))")
            break
        }
    }

    /// A burst played through a large hall reverb by an engine in real time: the first `frames` the
    /// main mixer's tap heard, and the reverb's latency in frames while it ran.
    private func listenToAReverbLive(_ burst: AVAudioPCMBuffer, frames: Int) throws -> ([Float], Int) {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let live = AVAudioUnitReverb()
        live.loadFactoryPreset(.largeHall)
        live.wetDryMix = 50
        engine.attach(player)
        engine.attach(live)
        engine.connect(player, to: live, format: burst.format)
        engine.connect(live, to: engine.mainMixerNode, format: burst.format)
        let lock = NSLock()
        var heard: [Float] = []
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in lock.withLock { heard += Tones.samples(buffer) } }
        player.scheduleBuffer(burst)
        player.play()
        try engine.start()
        XCTAssertTrue(waitUntil(timeout: 10) { lock.withLock { heard.count } >= frames })
        // In real time FFmpeg's filters run on a worker a cycle behind the render thread: the unit says so.
        let latency = Int((live.latency * 48_000).rounded())
        engine.stop()
        XCTAssertEqual(live.latency, 0, "none once stopped")
        return (lock.withLock { Array(heard.prefix(frames)) }, latency)
    }

    func testADelayEchoesAtItsTimeSofterByItsFeedback() throws {
        let delay = AVAudioUnitDelay()
        delay.delayTime = 0.25
        delay.feedback = 50
        delay.wetDryMix = 100
        let echoes = try render(tone(1000, seconds: 0.1), through: [delay], seconds: 1)
        let window = { (start: Double) in Tones.rms(Array(echoes[Int(start * 48_000)..<Int((start + 0.08) * 48_000)])) }
        XCTAssertLessThan(window(0.01), 0.01, "all wet: the sound itself is not heard")
        let first = window(0.26), second = window(0.51), third = window(0.76)
        XCTAssertEqual(first, 0.5 / 2.squareRoot(), accuracy: 0.03, "the first echo at full level")
        XCTAssertEqual(second / first, 0.5, accuracy: 0.05, "each echo half the last")
        XCTAssertEqual(third / second, 0.5, accuracy: 0.05)
    }

    func testADistortionAddsHarmonics() throws {
        let distortion = AVAudioUnitDistortion()
        distortion.loadFactoryPreset(.multiDistortedCubed)
        distortion.preGain = 0
        distortion.wetDryMix = 100
        let clean = Tones.samples(tone(440, amplitude: 0.9))
        let distorted = Array(try render(tone(440, amplitude: 0.9), through: [distortion], seconds: 1)[4800..<43_200])
        XCTAssertLessThan(Tones.amplitude(of: 1320, in: clean, rate: 48_000), 0.001)
        XCTAssertGreaterThan(Tones.amplitude(of: 1320, in: distorted, rate: 48_000), 0.02, "a third harmonic, as clipping makes")
        XCTAssertGreaterThan(Tones.amplitude(of: 440, in: distorted, rate: 48_000), 0.3, "the tone is still there")
    }

    func testTimeEffectsChangeSpeedAndPitch() throws {
        let fast = AVAudioUnitTimePitch()
        fast.rate = 2
        let faster = try render(tone(440), through: [fast], seconds: 1)
        let heard = faster.enumerated().filter { abs($0.element) > 0.05 }.map(\.offset)
        XCTAssertEqual(Double((heard.last ?? 0) - (heard.first ?? 0)) / 48_000, 0.5, accuracy: 0.08, "a second played in half of one")
        XCTAssertEqual(Tones.frequency(Array(faster[4800..<19_200]), rate: 48_000), 440, accuracy: 5, "at its pitch")

        let higher = AVAudioUnitTimePitch()
        higher.pitch = 1200
        let octave = try render(tone(440), through: [higher], seconds: 1)
        XCTAssertEqual(Tones.frequency(Array(octave[9600..<38_400]), rate: 48_000), 880, accuracy: 10, "an octave up, at its speed")

        let varispeed = AVAudioUnitVarispeed()
        varispeed.rate = 2
        let tape = try render(tone(440), through: [varispeed], seconds: 1)
        let loud = tape.enumerated().filter { abs($0.element) > 0.05 }.map(\.offset)
        XCTAssertEqual(Double((loud.last ?? 0) - (loud.first ?? 0)) / 48_000, 0.5, accuracy: 0.02)
        XCTAssertEqual(Tones.frequency(Array(tape[2400..<19_200]), rate: 48_000), 880, accuracy: 3, "the pitch follows the speed")
    }
}

/// In real time an effect's FFmpeg filters run on a worker of its own, a cycle behind the
/// renderer; a time effect takes as much input as its speed asks, and a parameter changed while
/// running takes effect once its graph is rebuilt off the worker.
final class RealtimeEffectsTests: XCTestCase {
    func testATimeEffectInRealTimeFollowsItsRateAsItChanges() throws {
        // Realtime manual rendering, paced by the test at the cycle's length (it needs real time:
        // the worker is given a whole cycle, as a sound device would give it).
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.realtime, format: format, maximumFrameCount: 512)
        let player = AVAudioPlayerNode(), varispeed = AVAudioUnitVarispeed()
        engine.attach(player)
        engine.attach(varispeed)
        engine.connect(player, to: varispeed, format: format)
        engine.connect(varispeed, to: engine.mainMixerNode, format: format)
        player.scheduleBuffer(Tones.sine(frequency: 440, seconds: 0.5), at: nil, options: .loops)
        try engine.start()
        player.play()
        XCTAssertEqual(varispeed.latency, 512.0 / 48_000, accuracy: 1e-9, "a cycle behind")
        let block = engine.manualRenderingBlock
        let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        /// Renders `cycles` cycles at the pace of real time; the last `kept` cycles' samples.
        func render(cycles: Int, keeping kept: Int) -> [Float] {
            var samples: [Float] = []
            var status: OSStatus = 0
            for cycle in 0..<cycles {
                output.frameLength = 512
                _ = block(512, output.mutableAudioBufferList, &status)
                if cycle >= cycles - kept { samples += Tones.samples(output) }
                Thread.sleep(forTimeInterval: 512.0 / 48_000)
            }
            return samples
        }
        let normal = render(cycles: 40, keeping: 20)
        XCTAssertEqual(Tones.frequency(normal, rate: 48_000), 440, accuracy: 5, "at rate 1 the tone as it is")
        varispeed.rate = 2
        let fast = render(cycles: 60, keeping: 20)
        XCTAssertGreaterThan(Tones.amplitude(of: 880, in: fast, rate: 48_000), 0.3, "at rate 2 an octave up, as a tape played fast")
        XCTAssertLessThan(Tones.amplitude(of: 440, in: fast, rate: 48_000), 0.05, "and the old pitch gone")
        engine.stop()
        XCTAssertEqual(varispeed.latency, 0, "no latency once stopped")
    }
}
