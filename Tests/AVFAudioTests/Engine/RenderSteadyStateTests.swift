import AVFAudio
import TestSupport
import XCTest

/// The renderer in steady state neither allocates nor locks: once a graph has rendered a few
/// cycles, rendering more of it (players looping a buffer and reading a file, a source node, an
/// effect, a mixer resampling an input, volume and pan, a tap) makes no Swift heap allocation on
/// the rendering thread, offline or in real time. (Locks, and the C libraries' allocations, are
/// measured by the audio engine benchmark on the render thread itself.)
final class RenderSteadyStateTests: XCTestCase {
    private let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!

    func testOfflineCyclesAllocateNothingOnceRunning() throws {
        try withGraph(mode: .offline) { engine, output in
            try render(engine, cycles: 100, into: output)
            let allocations = try SwiftAllocations.made { try render(engine, cycles: 300, into: output) }
            XCTAssertEqual(allocations, 0, "Swift allocations on the rendering thread in 300 offline cycles")
        }
    }

    func testRealtimeCyclesAllocateNothingOnceRunning() throws {
        try withGraph(mode: .realtime) { engine, output in
            let block = engine.manualRenderingBlock
            var status: OSStatus = 0
            for _ in 0..<100 { _ = block(512, output.mutableAudioBufferList, &status) }
            let allocations = SwiftAllocations.made {
                for _ in 0..<300 { _ = block(512, output.mutableAudioBufferList, &status) }
            }
            XCTAssertEqual(allocations, 0, "Swift allocations on the rendering thread in 300 realtime cycles")
        }
    }

    func testTheCountingSeesAnAllocation() {
        // The counter itself: an object made on the thread is counted.
        final class Made {}
        var kept: [Made] = []
        let allocations = SwiftAllocations.made { kept.append(Made()) }
        XCTAssertGreaterThanOrEqual(allocations, 1)
        XCTAssertEqual(kept.count, 1)
    }

    /// Renders `cycles` blocks of 512 frames offline, checking that sound comes out.
    private func render(_ engine: AVAudioEngine, cycles: Int, into output: AVAudioPCMBuffer) throws {
        var loud = false
        for _ in 0..<cycles {
            XCTAssertEqual(try engine.renderOffline(512, to: output), .success)
            if output.floatChannelData![0][100] != 0 { loud = true }
        }
        XCTAssertTrue(loud, "the graph renders sound")
    }

    /// A running graph in manual rendering: a player looping a buffer through an equaliser, a
    /// player reading a 44.1 kHz mono file (resampled by the mixer), a source node's tone, volume
    /// and pan set, and a tap on the main mixer.
    private func withGraph(mode: AVAudioEngineManualRenderingMode, _ body: (AVAudioEngine, AVAudioPCMBuffer) throws -> Void) throws {
        let folder = makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try AVAudioFile(forReading: Tones.wavFile(in: folder, seconds: 8, sampleRate: 44_100))
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(mode, format: format, maximumFrameCount: 512)
        let looping = AVAudioPlayerNode(), reading = AVAudioPlayerNode(), eq = AVAudioUnitEQ(numberOfBands: 1)
        var phase: Float = 0
        let tone = AVAudioSourceNode(format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!) { _, _, frames, list in
            let samples = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for frame in 0..<Int(frames) {
                samples[frame] = 0.1 * sin(phase)
                phase += 0.05
            }
            return 0
        }
        for node in [looping, reading, eq, tone] as [AVAudioNode] { engine.attach(node) }
        engine.connect(looping, to: eq, format: format)
        engine.connect(eq, to: engine.mainMixerNode, format: format)
        engine.connect(reading, to: engine.mainMixerNode, format: file.processingFormat)
        engine.connect(tone, to: engine.mainMixerNode, format: nil)
        looping.volume = 0.5
        tone.pan = -0.5
        let tapped = expectation(description: "the tap hears the mix")
        tapped.assertForOverFulfill = false
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { _, _ in tapped.fulfill() }
        looping.scheduleBuffer(Tones.sine(frequency: 440, seconds: 0.25, channels: 2), at: nil, options: .loops)
        reading.scheduleFile(file, at: nil)
        try engine.start()
        looping.play()
        reading.play()
        let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        try body(engine, output)
        wait(for: [tapped], timeout: 10)
        engine.stop()
    }
}
