import CVoiceProcessing
import CoreVideo
import Foundation

/// Voice processing for an engine: WebRTC's audio processing module (echo cancellation against
/// what the engine plays, noise suppression, automatic gain) run on the microphone's sound in
/// 10 ms blocks, as Apple's voice processing I/O unit runs on an iPhone's. The microphone's
/// sound comes out one block later than it went in.
///
/// Thread ownership: the capture side runs on the microphone's thread, the render side on the
/// engine's render thread; each side keeps its own blocks, made once.
final class VoiceProcessor: @unchecked Sendable {
    /// One side's 10 ms blocks: samples gathered until a block is whole, and, on the capture side,
    /// processed samples waiting to be given back.
    private final class Blocks {
        let channels: Int
        let frames: Int
        let gathering: [UnsafeMutablePointer<Float>]
        var gathered = 0
        /// Processed samples, a ring of four blocks per channel, one block given back before any is processed.
        let ready: [UnsafeMutablePointer<Float>]
        var readIndex = 0
        var writeIndex: Int

        init(channels: Int, rate: Int) {
            self.channels = channels
            frames = rate / 100
            gathering = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: rate / 100) }
            ready = (0..<channels).map { _ in
                let ring = UnsafeMutablePointer<Float>.allocate(capacity: 4 * (rate / 100))
                ring.initialize(repeating: 0, count: 4 * (rate / 100))
                return ring
            }
            writeIndex = frames
        }

        deinit {
            for pointer in gathering + ready { pointer.deallocate() }
        }
    }

    private let processor: OpaquePointer
    private let capture: Blocks
    private let render: Blocks
    /// The time between the engine's playing a block and the microphone's hearing it, in milliseconds.
    var delayMilliseconds: Int32

    /// A processor for a microphone of `captureRate` and `captureChannels` and an engine playing at
    /// `renderRate` in `renderChannels` (mixed to stereo when more); nil, with why, when WebRTC's
    /// module cannot be loaded or refuses the formats.
    static func make(captureRate: Double, captureChannels: Int, renderRate: Double, renderChannels: Int) -> Result<VoiceProcessor, NSError> {
        let playing = min(2, max(1, renderChannels))
        if let problem = cvp_problem() {
            return .failure(AVAudioConverter.error(.unspecified, "voice processing is not available: \(String(cString: problem))"))
        }
        guard captureRate == captureRate.rounded(), renderRate == renderRate.rounded(), Int(captureRate) % 100 == 0, Int(renderRate) % 100 == 0,
            let made = cvp_open(Int32(captureRate), Int32(captureChannels), Int32(renderRate), Int32(playing))
        else {
            return .failure(AVAudioConverter.error(.formatNotSupported, "voice processing takes rates in whole hundreds of hertz and mono or stereo"))
        }
        return .success(
            VoiceProcessor(made, captureRate: Int(captureRate), captureChannels: captureChannels, renderRate: Int(renderRate), renderChannels: playing))
    }

    private init(_ processor: OpaquePointer, captureRate: Int, captureChannels: Int, renderRate: Int, renderChannels: Int) {
        self.processor = processor
        capture = Blocks(channels: captureChannels, rate: captureRate)
        render = Blocks(channels: renderChannels, rate: renderRate)
        // What is played leaves one block after it is rendered and is heard one block before it is processed.
        delayMilliseconds = 20
    }

    deinit { cvp_free(processor) }

    /// Turns echo cancellation, noise suppression and automatic gain on or off.
    func configure(echoCancellation: Bool, noiseSuppression: Bool, automaticGain: Bool) {
        cvp_configure(processor, echoCancellation ? 1 : 0, noiseSuppression ? 1 : 0, automaticGain ? 1 : 0)
    }

    /// On the microphone's thread: processes `frames` frames of the microphone's sound in place
    /// (`count` channels, one pointer each), giving back the processed sound one block later.
    func processCapture(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int) {
        let blocks = capture
        let size = blocks.frames, ring = 4 * size
        for frame in 0..<frames {
            for channel in 0..<blocks.channels {
                blocks.gathering[channel][blocks.gathered] = channels[min(channel, count - 1)][frame]
            }
            blocks.gathered += 1
            if blocks.gathered == size {
                blocks.gathered = 0
                blocks.gathering.withUnsafeBufferPointer { pointers in
                    let list = UnsafeRawPointer(pointers.baseAddress!).assumingMemoryBound(to: Optional<UnsafeMutablePointer<Float>>.self)
                    _ = cvp_capture(processor, list, delayMilliseconds)
                }
                for channel in 0..<blocks.channels {
                    for index in 0..<size { blocks.ready[channel][(blocks.writeIndex + index) % ring] = blocks.gathering[channel][index] }
                }
                blocks.writeIndex = (blocks.writeIndex + size) % ring
            }
            for channel in 0..<count { channels[channel][frame] = blocks.ready[min(channel, blocks.channels - 1)][blocks.readIndex] }
            blocks.readIndex = (blocks.readIndex + 1) % ring
        }
    }

    /// On the render thread: tells the processor `frames` frames of what the engine plays (`count`
    /// channels, one pointer each; more than two are mixed into two).
    func processRender(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int) {
        let blocks = render
        for frame in 0..<frames {
            for channel in 0..<blocks.channels {
                guard count > blocks.channels else {
                    blocks.gathering[channel][blocks.gathered] = channels[min(channel, count - 1)][frame]
                    continue
                }
                var value: Float = 0
                var mixed = 0
                for source in stride(from: channel, to: count, by: blocks.channels) {
                    value += channels[source][frame]
                    mixed += 1
                }
                blocks.gathering[channel][blocks.gathered] = value / Float(mixed)
            }
            blocks.gathered += 1
            if blocks.gathered == blocks.frames {
                blocks.gathered = 0
                blocks.gathering.withUnsafeBufferPointer { pointers in
                    let list = UnsafeRawPointer(pointers.baseAddress!).assumingMemoryBound(to: Optional<UnsafePointer<Float>>.self)
                    _ = cvp_render(processor, list)
                }
            }
        }
    }
}
