import CoreVideo
import Foundation
import MovieEngine
import Synchronization

/// A node that processes audio: the effects and time effects, each run by FFmpeg's audio filters.
///
/// Offline, the renderer runs the filter graph itself. In real time (the render thread, realtime
/// manual rendering) the graph runs on a worker thread of the unit's own, a cycle behind
/// (`EffectPipeline`), because FFmpeg's filters allocate and lock as they work: the unit's
/// `latency` is then that cycle.
///
/// Thread ownership: parameters are set from any thread (a version number, atomic, says they
/// changed); whoever runs the graph rebuilds it when they have changed since it last ran.
open class AVAudioUnit: AVAudioNode, @unchecked Sendable {
    /// The unit's name.
    open var name: String { String(describing: type(of: self)) }
    /// The unit's maker.
    open var manufacturerName: String { "FFmpeg" }
    /// The unit's version.
    open var version: Int { 1 }

    /// Bumped whenever a parameter changes, so the render thread rebuilds its graph.
    let parameterVersion = Atomic(0)
    private let bypassed = Atomic(false)
    /// Render thread: the graph, the parameters and format it was built for, and scratch buffers.
    private var graph: AudioFilterGraph?
    private var builtFor: (version: Int, sampleRate: Double, channels: AVAudioChannelCount)?
    private var input: AVAudioPCMBuffer?
    /// Renderer: the worker running the graph in real time, the input owed to it (blocks, for
    /// time effects), and the frames of the cycle it started with.
    private var pipeline: EffectPipeline?
    private var credit = 0.0
    private var pipelineLatency = 0
    /// The speed the unit plays at (time effects), for the renderer to read without a lock.
    private let speedBits = Atomic<UInt32>(Float(1).bitPattern)
    private let inputPointers = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: 64)
    private let outputPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 64)

    override init() { super.init() }

    deinit {
        pipeline?.stop()
        inputPointers.deallocate()
        outputPointers.deallocate()
    }

    /// Whether the unit passes its input through untouched.
    var isBypassed: Bool {
        get { bypassed.load(ordering: .relaxed) }
        set {
            bypassed.store(newValue, ordering: .relaxed)
            parametersChanged()
        }
    }

    /// A parameter changed: the graph is rebuilt before the next block.
    func parametersChanged() { parameterVersion.add(1, ordering: .releasing) }

    /// The speed the unit plays its input at (1 for effects; the rate for time effects).
    var speed: Float {
        get { Float(bitPattern: speedBits.load(ordering: .relaxed)) }
        set { speedBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// How long the unit delays audio: in real time, the cycle its filters run behind the renderer.
    open override var latency: TimeInterval {
        guard engine?.rendersInRealTime == true else { return 0 }
        return Double(pipelineLatency == 0 ? Int(AVAudioEngine.blockFrames) : pipelineLatency) / outputFormat(forBus: 0).sampleRate
    }

    override func adopt(_ entry: RenderPlan.Entry, plan: RenderPlan) {
        super.adopt(entry, plan: plan)
        // A new worker for another format or cycle size (made where the plan is adopted: by
        // `prepare()` before the engine starts, or by the renderer when the graph changes as it runs).
        let format = outputFormat(forBus: 0)
        if let pipeline, plan.realTime, !entry.inputs.isEmpty, pipeline.fits(format: format, maximumFrames: plan.maximumFrames) { return }
        endPipeline()
        guard plan.realTime, !entry.inputs.isEmpty,
            let made = EffectPipeline(unit: self, format: format, maximumFrames: plan.maximumFrames, warms: !(self is AVAudioUnitTimeEffect))
        else { return }
        made.start(priming: Int(plan.maximumFrames))
        pipeline = made
        pipelineLatency = Int(plan.maximumFrames)
    }

    override func renderingStopped() { endPipeline() }

    /// Stops the worker, if one runs.
    private func endPipeline() {
        pipeline?.stop()
        pipeline = nil
        credit = 0
    }

    /// FFmpeg's filter description for the current parameters, its input [in] and output [out], at a rate and channel count.
    package func filterDescription(sampleRate: Double, channels: Int) -> String { "[in]anull[out]" }

    /// FFmpeg's graph for the parameters as they are, at a rate and channel count; nil when FFmpeg refuses it.
    func makeFilterGraph(sampleRate: Double, channels: Int) -> AudioFilterGraph? {
        try? AudioFilterGraph(filterDescription(sampleRate: sampleRate, channels: channels), sampleRate: Int(sampleRate.rounded()), channels: channels)
    }

    /// A graph in which `wet` (filters reading [wetin] and writing [wet]) is mixed with the dry input, `mix` (0 to 1) of it wet.
    static func wetDry(_ wet: String, mix: Double) -> String {
        "[in]asplit=2[dry][wetin];\(wet);[dry][wet]amix=inputs=2:weights='\(1 - mix) \(mix)':normalize=0[out]"
    }

    override func prepareToRender(maximumFrames: AVAudioFrameCount) {
        super.prepareToRender(maximumFrames: maximumFrames)
        let format = outputFormat(forBus: 0)
        if input == nil || input!.frameCapacity < maximumFrames || !input!.format.isEqual(format) {
            input = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: maximumFrames)
        }
    }

    override func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool {
        guard let engine, let feed = renderInputs.first, feed.bus == 0, let input, feed.format.sampleRate == buffer.format.sampleRate else {
            return false
        }
        let channels = Int(buffer.format.channelCount)
        if isBypassed {
            guard let source = feed.source.pull(frames: frames, context: context) else { return false }
            Self.map(source, into: buffer, frames: frames)
            return true
        }
        if context.realTime, pipeline != nil {
            return renderPipelined(into: buffer, frames: frames, from: feed, input: input, engine: engine, context: context)
        }
        let version = parameterVersion.load(ordering: .acquiring)
        if graph == nil || builtFor?.version != version || builtFor?.sampleRate != buffer.format.sampleRate || builtFor?.channels != buffer.format.channelCount
        {
            graph = makeFilterGraph(sampleRate: buffer.format.sampleRate, channels: channels)
            builtFor = (version, buffer.format.sampleRate, buffer.format.channelCount)
        }
        guard let graph else { return false }
        // Input until the graph has a block to give: one pull for effects, more for time effects and at a filter's start.
        var pulls = 0
        while graph.available < frames, pulls < 64 {
            let source = feed.source.pull(frames: frames, context: pulls == 0 ? context : context.renumbered(engine.nextCycle()))
            input.frameLength = AVAudioFrameCount(frames)
            if let source { Self.map(source, into: input, frames: frames) } else { AVAudioNode.silence(input, frames: frames) }
            for channel in 0..<channels { inputPointers[channel] = UnsafePointer(input.floatChannelData![channel]) }
            guard graph.push(inputPointers, frames: frames) else { return false }
            pulls += 1
        }
        for channel in 0..<channels { outputPointers[channel] = buffer.floatChannelData![channel] }
        let made = graph.take(into: outputPointers, capacity: frames)
        if made < frames {
            for channel in 0..<channels { (buffer.floatChannelData![channel] + made).initialize(repeating: 0, count: frames - made) }
        }
        return made > 0
    }

    /// Renderer, in real time: hands this cycle's input to the worker and gives the output it made
    /// a cycle ago. A time effect takes as many blocks of input as its speed asks (more when its
    /// output runs short, fewer when it piles up).
    private func renderPipelined(
        into buffer: AVAudioPCMBuffer, frames: Int, from feed: RenderPlan.Input, input: AVAudioPCMBuffer, engine: AVAudioEngine, context: RenderContext
    ) -> Bool {
        guard let pipeline else { return false }
        credit += Double(speed)
        if self is AVAudioUnitTimeEffect {
            if pipeline.backlog < frames { credit += 1 } else if pipeline.backlog > 4 * frames { credit -= 1 }
        } else if pipeline.backlog >= 2 * frames {
            // The worker fell behind and caught up: back to a cycle's latency.
            pipeline.discard(pipeline.backlog - frames)
            EffectPipeline.lateCycles.add(1, ordering: .relaxed)
        }
        var pulls = 0
        while credit >= 1, pulls < 64 {
            let source = feed.source.pull(frames: frames, context: pulls == 0 ? context : context.renumbered(engine.nextCycle()))
            input.frameLength = AVAudioFrameCount(frames)
            if let source { Self.map(source, into: input, frames: frames) } else { AVAudioNode.silence(input, frames: frames) }
            pipeline.feed(input)
            credit -= 1
            pulls += 1
        }
        credit = max(-4, min(credit, 4))
        if pulls > 0 { pipeline.wake() }
        let made = pipeline.take(into: buffer, frames: frames)
        if made < frames {
            for channel in 0..<Int(buffer.format.channelCount) { (buffer.floatChannelData![channel] + made).initialize(repeating: 0, count: frames - made) }
            if !(self is AVAudioUnitTimeEffect) { EffectPipeline.lateCycles.add(1, ordering: .relaxed) }
        }
        return made > 0
    }

    /// Copies a block into a buffer of the same rate: a single channel to every channel, others in order.
    static func map(_ source: AVAudioPCMBuffer, into destination: AVAudioPCMBuffer, frames: Int) {
        let inputs = Int(source.format.channelCount)
        for channel in 0..<Int(destination.format.channelCount) {
            let from = source.floatChannelData![min(channel, inputs - 1)]
            if channel < inputs || inputs == 1 {
                destination.floatChannelData![channel].update(from: from, count: frames)
            } else {
                destination.floatChannelData![channel].initialize(repeating: 0, count: frames)
            }
        }
    }
}

/// A unit that processes audio in real time, frame for frame.
open class AVAudioUnitEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect passes its input through untouched.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }
}

/// A unit that changes audio's timing: its rate, and so the number of frames.
open class AVAudioUnitTimeEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect passes its input through untouched.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }
}

/// A parameter value clamped to a range; values that are not numbers keep the old one.
func clamped(_ value: Float, _ range: ClosedRange<Float>, else old: Float) -> Float {
    value.isFinite ? min(range.upperBound, max(range.lowerBound, value)) : old
}
