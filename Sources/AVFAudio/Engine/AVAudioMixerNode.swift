import Foundation

/// A node that mixes any number of inputs into one output, converting each input's sample rate
/// and channels to its own; each input node's volume and pan apply.
open class AVAudioMixerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    private let mixing = MixingSettings()
    private let outputGain = MixingSettings()
    /// Renderer: a resampler for each input (in `renderInputs`' order) at another sample rate.
    private var adapters: [RateAdapter?] = []

    /// Creates a mixer.
    public override init() { super.init() }

    /// Mixers take any number of inputs.
    open override var numberOfInputs: Int { Int(Int32.max) }

    /// The volume of the mix, from 0 to 1.
    open var outputVolume: Float {
        get { outputGain.volume }
        set { outputGain.volume = newValue }
    }

    /// The mixer's own volume, in a mixer it plays into.
    open var volume: Float {
        get { mixing.volume }
        set { mixing.volume = newValue }
    }

    /// The mixer's own pan, in a mixer it plays into.
    open var pan: Float {
        get { mixing.pan }
        set { mixing.pan = newValue }
    }

    /// The lowest input bus nothing is connected to.
    open var nextAvailableInputBus: AVAudioNodeBus {
        let used = Set(engine?.feeds(into: self).map(\.bus) ?? [])
        var bus = 0
        while used.contains(bus) { bus += 1 }
        return bus
    }

    override func adopt(_ entry: RenderPlan.Entry, plan: RenderPlan) {
        super.adopt(entry, plan: plan)
        let rate = outputFormat(forBus: 0).sampleRate
        adapters = renderInputs.map { input in
            input.format.sampleRate == rate ? nil : RateAdapter(input: input, to: rate, maximumFrames: plan.maximumFrames)
        }
    }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        guard let engine else { return false }
        let format = buffer.format
        AVAudioNode.silence(buffer, frames: frames)
        var sound = false
        for index in renderInputs.indices {
            let feed = renderInputs[index]
            let input: AVAudioPCMBuffer?
            if index < adapters.count, let adapter = adapters[index] {
                input = adapter.pull(frames: frames, engine: engine, context: context)
            } else {
                input = feed.source.pull(frames: frames, context: context)
            }
            guard let input else { continue }
            Self.add(input, into: buffer, frames: frames, volume: feed.mixing?.volume ?? 1, pan: feed.mixing?.pan ?? 0)
            sound = true
        }
        let gain = outputGain.volume
        if sound, gain != 1 {
            for channel in 0..<Int(format.channelCount) {
                let samples = buffer.floatChannelData![channel]
                for frame in 0..<frames { samples[frame] *= gain }
            }
        }
        return sound
    }

    /// Adds an input's frames into the mix: mono to every channel, otherwise channel by channel;
    /// with two output channels the pan balances left against right.
    static func add(_ input: AVAudioPCMBuffer, into mix: AVAudioPCMBuffer, frames: Int, volume: Float, pan: Float) {
        let inputs = Int(input.format.channelCount), outputs = Int(mix.format.channelCount)
        let source = input.floatChannelData!, destination = mix.floatChannelData!
        for channel in 0..<outputs {
            guard inputs == 1 || channel < inputs else { continue }
            var gain = volume
            if outputs == 2 { gain *= channel == 0 ? min(1, 1 - pan) : min(1, 1 + pan) }
            guard gain != 0 else { continue }
            let from = source[inputs == 1 ? 0 : channel], to = destination[channel]
            for frame in 0..<frames { to[frame] += from[frame] * gain }
        }
    }
}

/// A mixer input at another sample rate: its source pulled as the resampler needs, converted
/// to the mixer's rate with the source's channels.
///
/// Thread ownership: the renderer.
final class RateAdapter {
    private let feed: RenderPlan.Input
    private let converter: AVAudioConverter?
    private let output: AVAudioPCMBuffer?
    private let silence: AVAudioPCMBuffer?

    init(input feed: RenderPlan.Input, to sampleRate: Double, maximumFrames: AVAudioFrameCount) {
        self.feed = feed
        let target = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: feed.format.channelCount, interleaved: false)
        converter = target.flatMap { AVAudioConverter(from: feed.format, to: $0) }
        output = target.flatMap { AVAudioPCMBuffer(pcmFormat: $0, frameCapacity: maximumFrames) }
        silence = AVAudioPCMBuffer(pcmFormat: feed.format, frameCapacity: maximumFrames)
    }

    /// `frames` frames of the source at the mixer's rate; nil when the source is silent.
    func pull(frames: Int, engine: AVAudioEngine, context: RenderContext) -> AVAudioPCMBuffer? {
        guard let converter, let output, let silence, frames <= Int(output.frameCapacity) else { return nil }
        var heard = false
        let capacity = Int(silence.frameCapacity)
        _ = converter.convert(to: output, frames: frames, error: nil) { asked, status in
            let count = min(Int(asked), capacity)
            // A cycle number of its own: the source renders afresh for each request.
            if let rendered = self.feed.source.pull(frames: count, context: context.renumbered(engine.nextCycle())) {
                heard = true
                status.pointee = .haveData
                return rendered
            }
            silence.frameLength = AVAudioFrameCount(count)
            AVAudioNode.silence(silence, frames: count)
            status.pointee = .haveData
            return silence
        }
        return heard && Int(output.frameLength) >= frames ? output : nil
    }
}
