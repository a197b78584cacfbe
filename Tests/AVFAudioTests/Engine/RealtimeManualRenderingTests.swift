import AVFAudio
import TestSupport
import XCTest

/// Realtime manual rendering with the input node, as Apple's sample for it does: the caller gives
/// the input node its frames through a block and pulls the engine's output through the rendering
/// block; no microphone and no sound server are used.
final class RealtimeManualRenderingTests: XCTestCase {
    private let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!

    func testTheInputBlockFeedsTheInputNodeAndTheRenderingBlockGivesItBack() throws {
        let engine = AVAudioEngine()
        XCTAssertFalse(engine.inputNode.setManualRenderingInputPCMFormat(format) { _ in nil }, "only in manual rendering mode")
        try engine.enableManualRenderingMode(.realtime, format: format, maximumFrameCount: 512)
        XCTAssertEqual(engine.manualRenderingMode, .realtime)

        // A 1 kHz tone the caller hands in, 512 frames at a time.
        let given = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        given.frameLength = 512
        var phase = 0.0
        var asked: [AVAudioFrameCount] = []
        var hasInput = true
        XCTAssertTrue(
            engine.inputNode.setManualRenderingInputPCMFormat(format) { frames in
                asked.append(frames)
                guard hasInput else { return nil }
                let samples = given.floatChannelData![0]
                for frame in 0..<Int(frames) {
                    samples[frame] = 0.5 * Float(sin(phase))
                    phase += 2 * Double.pi * 1000 / 48_000
                }
                return UnsafePointer(given.mutableAudioBufferList)
            })
        XCTAssertEqual(engine.inputNode.outputFormat(forBus: 0), format)
        engine.connect(engine.inputNode, to: engine.mainMixerNode, format: format)
        try engine.start()

        let block = engine.manualRenderingBlock
        let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        var rendered: [Float] = []
        for _ in 0..<8 {
            var error: OSStatus = 0
            XCTAssertEqual(block(512, output.mutableAudioBufferList, &error), .success)
            XCTAssertEqual(error, 0)
            output.frameLength = 512
            rendered += Tones.samples(output, channel: 0)
        }
        XCTAssertEqual(asked, [AVAudioFrameCount](repeating: 512, count: 8), "the input block is asked for each render's frames")
        XCTAssertEqual(Tones.frequency(rendered, rate: 48_000), 1000, accuracy: 10, "the tone given comes out")
        XCTAssertEqual(Tones.rms(rendered), 0.5 / 2.squareRoot(), accuracy: 0.01, "at the level given")

        // An input block with nothing to give: the render says so and the output is silent.
        hasInput = false
        var error: OSStatus = 0
        XCTAssertEqual(block(512, output.mutableAudioBufferList, &error), .insufficientDataFromInputNode)
        output.frameLength = 512
        XCTAssertEqual(Tones.rms(Tones.samples(output, channel: 0)), 0, accuracy: 1e-6)
        engine.stop()
    }
}
