import TestSupport
import XCTest

@testable import AVFAudio

/// Voice processing on WebRTC's audio processing module: the echo of what the engine plays is
/// taken out of what the microphone hears, and the input node turns it on as Apple's does.
final class VoiceProcessingTests: XCTestCase {
    /// A deterministic noise, as speech-like as a test needs: every frequency at once.
    private func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Float(Int64(bitPattern: state >> 11) % 1_000_000) / 1_000_000 - 0.5) * 0.6
        }
    }

    /// Runs `seconds` of far-end sound through the render side and its echo (10 ms later, at 0.6)
    /// through the capture side; the RMS of the capture side's output, and of its input, over the last two seconds.
    private func echoThrough(_ processor: VoiceProcessor, seconds: Int) -> (output: Double, input: Double) {
        let rate = 48_000, block = 480
        let far = noise(seconds * rate, seed: 7)
        var output: [Float] = [], input: [Float] = []
        let renderChannel = UnsafeMutablePointer<Float>.allocate(capacity: block), captureChannel = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer {
            renderChannel.deallocate()
            captureChannel.deallocate()
        }
        var renderPointers = [renderChannel], capturePointers = [captureChannel]
        for start in stride(from: 0, to: far.count, by: block) {
            for index in 0..<block {
                renderChannel[index] = far[start + index]
                let echoed = start + index - 480
                captureChannel[index] = echoed >= 0 ? 0.6 * far[echoed] : 0
                input.append(captureChannel[index])
            }
            renderPointers.withUnsafeBufferPointer { processor.processRender($0.baseAddress!, count: 1, frames: block) }
            capturePointers.withUnsafeMutableBufferPointer { processor.processCapture($0.baseAddress!, count: 1, frames: block) }
            output += (0..<block).map { captureChannel[$0] }
        }
        func rms(_ samples: ArraySlice<Float>) -> Double { (samples.reduce(0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot() }
        return (rms(output.suffix(2 * rate)), rms(input.suffix(2 * rate)))
    }

    func testTheEchoOfWhatIsPlayedIsTakenOutOfWhatIsHeard() throws {
        let cancelling = try VoiceProcessor.make(captureRate: 48_000, captureChannels: 1, renderRate: 48_000, renderChannels: 1).get()
        cancelling.configure(echoCancellation: true, noiseSuppression: false, automaticGain: false)
        cancelling.delayMilliseconds = 10
        let cancelled = echoThrough(cancelling, seconds: 8)
        let reduction = 20 * log10(cancelled.input / max(cancelled.output, 1e-9))
        XCTAssertGreaterThan(reduction, 10, "the echo falls by more than 10 dB: \(reduction) dB")

        let passing = try VoiceProcessor.make(captureRate: 48_000, captureChannels: 1, renderRate: 48_000, renderChannels: 1).get()
        passing.configure(echoCancellation: false, noiseSuppression: false, automaticGain: false)
        let kept = echoThrough(passing, seconds: 4)
        XCTAssertLessThan(abs(20 * log10(kept.input / kept.output)), 3, "without echo cancellation the sound passes")
    }

    func testRatesThatAreNotWholeHundredsAreRefusedWithAReason() {
        switch VoiceProcessor.make(captureRate: 44_099, captureChannels: 1, renderRate: 48_000, renderChannels: 2) {
        case .success: XCTFail("44099 Hz is no rate for 10 ms blocks")
        case .failure(let error): XCTAssertFalse(error.localizedDescription.isEmpty)
        }
    }

    func testTheInputNodeTurnsVoiceProcessingOnForTheEngineAndMutesWhenAsked() throws {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
        defer {
            unsetenv("LINUXAVFOUNDATION_DEVICES")
            unsetenv("PULSE_SERVER")
        }
        let engine = AVAudioEngine()
        let input = engine.inputNode
        XCTAssertFalse(input.isVoiceProcessingEnabled)
        try input.setVoiceProcessingEnabled(true)
        XCTAssertTrue(input.isVoiceProcessingEnabled)
        XCTAssertTrue(engine.outputNode.isVoiceProcessingEnabled, "on for the input and the output alike")
        XCTAssertTrue(input.isVoiceProcessingAGCEnabled)
        XCTAssertFalse(input.isVoiceProcessingBypassed)
        let format = input.outputFormat(forBus: 0)
        let lock = NSLock()
        var samples: [Float] = []
        input.installTap(onBus: 0, bufferSize: 4096, format: format) { buffer, _ in lock.withLock { samples += Tones.samples(buffer) } }
        try engine.start()
        XCTAssertThrowsError(try input.setVoiceProcessingEnabled(false), "not while the engine runs")
        XCTAssertTrue(waitUntil(timeout: 10) { lock.withLock { samples.count } >= 44_100 }, "a second of the microphone, processed")
        XCTAssertGreaterThan(Tones.rms(Array(lock.withLock { samples }.suffix(22_050))), 0.01, "the voice comes through processing")
        input.isVoiceProcessingInputMuted = true
        lock.withLock { samples.removeAll() }
        XCTAssertTrue(waitUntil(timeout: 10) { lock.withLock { samples.count } >= 8_192 })
        XCTAssertEqual(Tones.rms(Array(lock.withLock { samples }.suffix(4_096))), 0, accuracy: 1e-6, "muted: silence")
        engine.stop()
        input.removeTap(onBus: 0)
        try input.setVoiceProcessingEnabled(false)
        XCTAssertFalse(engine.outputNode.isVoiceProcessingEnabled)
    }
}
