import CoreVideo
import Foundation

/// A block that receives a node's audio as it is rendered: a buffer and the time of its first frame.
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void

/// A block called when a player node has finished with what was scheduled.
public typealias AVAudioNodeCompletionHandler = () -> Void

/// A node of an audio engine: a source, a processor or a destination of audio, with input and
/// output buses that connections join.
///
/// Thread ownership: nodes are configured from any thread (under their engine's lock) and
/// rendered by the engine's renderer, one cycle at a time; what the renderer reads of the graph
/// it takes from the engine's render plan, never under a lock. Each node renders into a buffer
/// of its own, made when the renderer adopts a plan, and keeps it for the cycle, so that a node
/// feeding several others renders once a cycle.
open class AVAudioNode: NSObject, @unchecked Sendable {
    /// The engine the node is attached to.
    open internal(set) weak var engine: AVAudioEngine?

    /// The number of input buses.
    open var numberOfInputs: Int { 1 }
    /// The number of output buses.
    open var numberOfOutputs: Int { 1 }

    /// The output formats connections have set, by bus.
    let outputFormats = LockedValue<[AVAudioNodeBus: AVAudioFormat]>([:])
    /// Renderer: the buffer this cycle's output is rendered into.
    var rendered: AVAudioPCMBuffer?
    /// Renderer: the cycle `rendered` holds, or -1.
    var renderedCycle = -1
    /// Renderer: whether this cycle's output is sound (false: silence).
    var renderedSound = false
    /// Renderer: what feeds the node's input buses, in order of bus, from the plan it adopted.
    var renderInputs: [RenderPlan.Input] = []
    /// Renderer: the tap on output bus 0, from the plan it adopted.
    var renderTap: NodeTap?
    private let taps = LockedValue<[AVAudioNodeBus: NodeTap]>([:])

    override init() { super.init() }

    /// The format of an input bus: the format of the connection into it, or the node's default.
    open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.feed(into: self, bus: bus)?.format ?? defaultFormat
    }

    /// The format of an output bus: the format of the connection from it, or the node's default.
    open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        outputFormats.withLock { $0[bus] } ?? defaultFormat
    }

    /// The format a node has before it is connected: the standard format, 44.1 kHz stereo.
    var defaultFormat: AVAudioFormat { AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)! }

    /// The name of an input bus.
    open func name(forInputBus bus: AVAudioNodeBus) -> String? { nil }
    /// The name of an output bus.
    open func name(forOutputBus bus: AVAudioNodeBus) -> String? { nil }

    /// The time of the last frame the node rendered, on the engine's timeline; nil when not rendering.
    open var lastRenderTime: AVAudioTime? { engine?.isRunning == true ? engine?.lastRenderTime : nil }

    /// How long the node delays audio, in seconds.
    open var latency: TimeInterval { 0 }
    /// How long audio takes from the node's output to the output device, in seconds.
    open var outputPresentationLatency: TimeInterval { 0 }

    /// Clears what the node holds (a player node's schedule, an effect's tail).
    open func reset() {}

    // MARK: Taps

    /// Receives the node's output on a bus in buffers of about `bufferSize` frames, in `format`
    /// (nil: the bus's), on a queue of the tap's own. A slow block misses buffers, never slows the engine.
    open func installTap(onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?, block tapBlock: @escaping AVAudioNodeTapBlock) {
        precondition(bus >= 0 && bus < max(1, numberOfOutputs), "AVAudioNode: no output bus \(bus)")
        let busFormat = outputFormat(forBus: bus)
        let chosen = format ?? busFormat
        precondition(chosen.sampleRate == busFormat.sampleRate, "AVAudioNode: a tap's format must have the bus's sample rate")
        guard let tap = NodeTap(source: busFormat, format: chosen, bufferSize: max(64, min(bufferSize, 1 << 20)), block: tapBlock) else {
            preconditionFailure("AVAudioNode: a tap's format must be linear PCM")
        }
        taps.withLock { taps in
            precondition(taps[bus] == nil, "AVAudioNode: a tap is installed on bus \(bus) already")
            taps[bus] = tap
        }
        engine?.tapsChanged()
    }

    /// Removes the tap on a bus.
    open func removeTap(onBus bus: AVAudioNodeBus) {
        taps.withLock { _ = $0.removeValue(forKey: bus) }
        engine?.tapsChanged()
    }

    /// Whether a tap is installed on any bus.
    var hasTap: Bool { taps.withLock { !$0.isEmpty } }

    /// The tap on a bus, if one is installed.
    func tap(onBus bus: AVAudioNodeBus) -> NodeTap? { taps.withLock { $0[bus] } }

    /// Renderer: hands the node's output on bus 0 to the tap of the plan it adopted.
    func feedTap(_ buffer: AVAudioPCMBuffer, frames: Int, sampleTime: AVAudioFramePosition) {
        renderTap?.take(buffer, frames: frames, sampleTime: sampleTime)
    }

    // MARK: Rendering

    /// Renderer: takes the node's part of a new plan and makes ready to render up to
    /// `maximumFrames` frames a cycle (the only time the renderer may allocate: a configuration change).
    func adopt(_ entry: RenderPlan.Entry, plan: RenderPlan) {
        renderInputs = entry.inputs
        renderTap = entry.tap
        prepareToRender(maximumFrames: plan.maximumFrames)
    }

    /// The engine stopped rendering (its render thread has ended).
    func renderingStopped() {}

    /// Renderer: prepares the node to render up to `maximumFrames` frames a cycle in its output format.
    func prepareToRender(maximumFrames: AVAudioFrameCount) {
        let format = outputFormat(forBus: 0)
        if rendered == nil || rendered!.frameCapacity < maximumFrames || !rendered!.format.isEqual(format) {
            rendered = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: maximumFrames)
        }
        renderedCycle = -1
    }

    /// Renderer: this cycle's output of the node, rendered once a cycle whoever asks; nil for silence.
    func pull(frames: Int, context: RenderContext) -> AVAudioPCMBuffer? {
        guard let buffer = rendered, frames <= Int(buffer.frameCapacity) else { return nil }
        if renderedCycle != context.cycle {
            renderedCycle = context.cycle
            buffer.frameLength = AVAudioFrameCount(frames)
            renderedSound = render(into: buffer, frames: frames, context: context)
            if !renderedSound { Self.silence(buffer, frames: frames) }
            feedTap(buffer, frames: frames, sampleTime: context.sampleTime)
        }
        return renderedSound ? buffer : nil
    }

    /// Renderer: renders `frames` frames into `buffer` (the node's output format); false for silence.
    /// Nodes override this; the base renders silence.
    func render(into buffer: AVAudioPCMBuffer, frames: Int, context: RenderContext) -> Bool { false }

    /// Zeroes the first `frames` frames of a buffer.
    static func silence(_ buffer: AVAudioPCMBuffer, frames: Int) {
        let bytes = frames * Int(buffer.format.streamDescription.pointee.mBytesPerFrame)
        for index in 0..<buffer.list.count { buffer.list[index].mData?.initializeMemory(as: UInt8.self, repeating: 0, count: bytes) }
    }
}
