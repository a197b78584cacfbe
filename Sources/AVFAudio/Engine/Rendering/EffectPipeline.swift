import Dispatch
import Foundation
import MovieEngine
import Synchronization

/// An effect's FFmpeg filter graph run on a thread of its own, one cycle behind the renderer,
/// for rendering in real time: FFmpeg's filters allocate frames and take their pools' locks as
/// they work, which the render thread may not. The renderer writes each cycle's input into a
/// lock-free ring and wakes the worker, and takes the output the worker made from the cycles
/// before; the output starts with one cycle of silence, so the worker has a whole cycle to
/// answer in, and the effect's latency is that cycle. A worker late for a cycle leaves that
/// cycle short; when it catches up, the renderer drops what would make the latency grow. New
/// parameters' graph is built off the worker, which goes on with the old one until it is ready.
///
/// Thread ownership: `feed`, `wake`, `take` and `backlog` on the renderer; the graph on the
/// worker thread, which rebuilds it when the unit's parameters change. `stop` from the renderer
/// or a configuring thread; the worker ends by itself (the renderer never waits for it).
package final class EffectPipeline: @unchecked Sendable {
    /// The cycles an effect's output came short or was cut back because its worker was late, in
    /// this process so far: real-time output that differs from an offline render for that reason.
    package static let lateCycles = Atomic<Int>(0)

    private let input: SampleRing
    private let output: SampleRing
    private let work = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)
    private weak var unit: AVAudioUnit?
    private let sampleRate: Double
    private let channels: Int
    private let block: Int
    /// Whether a graph is warmed with a block of silence when built (effects; not time effects,
    /// whose output the silence would delay).
    private let warms: Bool
    /// Worker: the graph, the parameter version it was built for, and its scratch memory.
    private var graph: AudioFilterGraph?
    private var builtFor = -1
    /// A graph for newer parameters, built and warmed off the worker so that it keeps up meanwhile.
    private let rebuilt = Mutex<(graph: GraphBox, version: Int)?>(nil)
    private let rebuilding = Atomic(false)
    private let fromRing: AVAudioPCMBuffer
    private let toRing: AVAudioPCMBuffer
    private let inputPointers: UnsafeMutablePointer<UnsafePointer<Float>?>
    private let outputPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    /// A pipeline for a unit rendering `format` (deinterleaved floats) in cycles of at most
    /// `maximumFrames`, its graph built (and warmed, if `warms`) on the calling thread.
    init?(unit: AVAudioUnit, format: AVAudioFormat, maximumFrames: AVAudioFrameCount, warms: Bool) {
        let block = Int(max(maximumFrames, 512))
        guard let fromRing = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(block)),
            let toRing = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(block))
        else { return nil }
        self.unit = unit
        self.warms = warms
        sampleRate = format.sampleRate
        channels = Int(format.channelCount)
        self.block = block
        self.fromRing = fromRing
        self.toRing = toRing
        input = SampleRing(channels: channels, capacity: block * 64)
        output = SampleRing(channels: channels, capacity: block * 64)
        inputPointers = .allocate(capacity: channels)
        outputPointers = .allocate(capacity: channels)
        for channel in 0..<channels {
            inputPointers[channel] = UnsafePointer(fromRing.floatChannelData![channel])
            outputPointers[channel] = toRing.floatChannelData![channel]
        }
        // Built here, so that the worker's first cycle is as quick as the rest.
        let version = unit.parameterVersion.load(ordering: .acquiring)
        graph = makeGraph(for: unit)?.graph
        builtFor = version
    }

    deinit {
        inputPointers.deallocate()
        outputPointers.deallocate()
    }

    /// Whether the pipeline runs `format` in cycles of at most `maximumFrames`, as it was made for.
    func fits(format: AVAudioFormat, maximumFrames: AVAudioFrameCount) -> Bool {
        fromRing.format.isEqual(format) && block == Int(max(maximumFrames, 512))
    }

    /// Starts the worker, with `frames` frames of silence waiting as the output's first.
    func start(priming frames: Int) {
        toRing.frameLength = AVAudioFrameCount(min(frames, block))
        for channel in 0..<channels { toRing.floatChannelData![channel].update(repeating: 0, count: Int(toRing.frameLength)) }
        output.write(toRing)
        let thread = Thread { [self] in
            while true {
                work.wait()
                if stopped.load(ordering: .acquiring) { break }
                process()
            }
        }
        thread.name = "AVAudioUnit effect"
        thread.start()
    }

    /// Ends the worker; it lets go of the pipeline when it has.
    func stop() {
        stopped.store(true, ordering: .releasing)
        work.signal()
    }

    /// Renderer: a cycle's input (a buffer of the pipeline's format; `frameLength` frames).
    func feed(_ buffer: AVAudioPCMBuffer) { input.write(buffer) }

    /// Renderer: tells the worker input is waiting.
    func wake() { work.signal() }

    /// Renderer: up to `frames` frames of output into a buffer from its first frame; the frames given.
    func take(into buffer: AVAudioPCMBuffer, frames: Int) -> Int { output.read(into: buffer, at: 0, frames: frames) }

    /// Renderer: the output frames made and not yet taken.
    var backlog: Int { output.available }

    /// Renderer: drops the oldest `frames` frames of output (a worker that fell behind and caught up).
    func discard(_ frames: Int) { output.discard(frames) }

    /// A graph for the unit's parameters as they are; warmed (a block of silence run through
    /// it, which leaves a filter at rest as it was): FFmpeg's filters take several milliseconds
    /// over their first frame.
    private func makeGraph(for unit: AVAudioUnit) -> GraphBox? {
        guard let made = unit.makeFilterGraph(sampleRate: sampleRate, channels: channels) else { return nil }
        if warms {
            let silence = AVAudioPCMBuffer(pcmFormat: fromRing.format, frameCapacity: AVAudioFrameCount(block))!
            silence.frameLength = silence.frameCapacity
            let pointers = (0..<channels).map { UnsafePointer<Float>?(silence.floatChannelData![$0]) }
            let outputs = (0..<channels).map { UnsafeMutablePointer<Float>?(silence.floatChannelData![$0]) }
            if made.push(pointers, frames: block) { while made.available > 0, made.take(into: outputs, capacity: block) > 0 {} }
            for channel in 0..<channels { silence.floatChannelData![channel].update(repeating: 0, count: block) }
        }
        return GraphBox(graph: made)
    }

    /// Worker: takes a graph rebuilt for newer parameters, or has one built when they changed.
    private func updateGraph() {
        if let ready = rebuilt.withLock({ ready in
            defer { ready = nil }; return ready
        }) {
            graph = ready.graph.graph
            builtFor = ready.version
            rebuilding.store(false, ordering: .releasing)
        }
        guard let unit, builtFor != unit.parameterVersion.load(ordering: .acquiring),
            !rebuilding.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let version = unit.parameterVersion.load(ordering: .acquiring)
            let made = makeGraph(for: unit) ?? GraphBox(graph: nil)
            rebuilt.withLock { $0 = (made, version) }
            work.signal()
        }
    }

    /// Worker: runs the waiting input through the graph, rebuilt first if the parameters changed.
    private func process() {
        updateGraph()
        while input.available > 0 {
            let count = input.read(into: fromRing, at: 0, frames: block)
            guard let graph, graph.push(inputPointers, frames: count) else { continue }
            while graph.available > 0 {
                let made = graph.take(into: outputPointers, capacity: block)
                guard made > 0 else { break }
                toRing.frameLength = AVAudioFrameCount(made)
                output.write(toRing)
            }
        }
    }
}

/// A filter graph handed from the thread that built it to the worker.
private final class GraphBox: @unchecked Sendable {
    let graph: AudioFilterGraph?
    init(graph: AudioFilterGraph?) { self.graph = graph }
}
