import CaptureDevices
import CoreMedia
import CoreVideo
import Foundation
import Synchronization

/// A graph of audio nodes, rendered by pulling: the output node asks the main mixer for each
/// block of frames, the mixer asks its inputs, and so on.
///
/// Running, the engine renders on a thread of its own in blocks of 512 frames and writes them to
/// the sound server (PulseAudio, or PipeWire through pipewire-pulse), whose clock paces it; where
/// none runs it keeps time by the host clock, silently. The input node records from the audio
/// session's preferred microphone (the virtual one on a machine without one). In manual rendering
/// mode the caller renders instead, as fast as it likes.
///
/// Thread ownership: configuration comes from any thread, under the engine's lock, and each
/// change publishes a new render plan (`RenderPlan`) without a lock. One renderer at a time (the
/// render thread, or the caller in manual rendering mode) runs a cycle: it adopts the newest plan
/// at the cycle's start and reads nothing else of the configuration, so that in steady state a
/// cycle neither locks nor allocates.
open class AVAudioEngine: NSObject, @unchecked Sendable {
    /// What feeds one input bus of a node.
    struct Feed {
        let source: AVAudioNode
        let bus: AVAudioNodeBus
        let format: AVAudioFormat
    }

    private struct Graph {
        var nodes: [AVAudioNode] = []
        var feeds: [FeedKey: Feed] = [:]
        var running = false
        var manual: (mode: AVAudioEngineManualRenderingMode, format: AVAudioFormat, maximumFrames: AVAudioFrameCount)?
        weak var mainMixer: AVAudioMixerNode?
    }

    /// An input bus of a node.
    struct FeedKey: Hashable {
        let node: ObjectIdentifier
        let bus: AVAudioNodeBus
    }

    private let graph = LockedValue(Graph())
    /// Where configuration publishes the render plan.
    private let plans = PlanSlot<RenderPlan>()
    /// Held by the one renderer running a cycle: another that comes meanwhile renders silence.
    private let rendering = Atomic(false)
    /// Renderer: the plan it renders by, and the last cycle's number.
    private var currentPlan: RenderPlan?
    private var cycle = 0
    /// The engine sample time of the next cycle's first frame.
    private let sampleTime = Atomic<AVAudioFramePosition>(0)
    private var renderThread: EngineRenderThread?
    private var microphone: EngineMicrophone?
    /// Frames rendered in each block when running on a device.
    static let blockFrames: AVAudioFrameCount = 512

    /// The observer of the audio session's route changes.
    private let routeChanges = LockedValue<NSObjectProtocol?>(nil)
    /// The voice processing on the input and output, while it is on.
    let voiceProcessing = LockedValue<VoiceProcessor?>(nil)

    /// Turns voice processing on or off, with the engine stopped.
    func setVoiceProcessing(_ enabled: Bool) throws {
        guard !isRunning else { throw AVAudioConverter.error(.paramErr, "stop the engine before turning voice processing on or off") }
        guard enabled else {
            voiceProcessing.withLock { $0 = nil }
            return publishPlan()
        }
        guard voiceProcessing.withLock({ $0 == nil }) else { return }
        let input = inputNode.inputFormat(forBus: 0), output = outputNode.outputFormat(forBus: 0)
        switch VoiceProcessor.make(
            captureRate: input.sampleRate, captureChannels: Int(input.channelCount), renderRate: output.sampleRate, renderChannels: Int(output.channelCount))
        {
        case .success(let processor):
            processor.configure(echoCancellation: true, noiseSuppression: true, automaticGain: inputNode.isVoiceProcessingAGCEnabled)
            voiceProcessing.withLock { $0 = processor }
            publishPlan()
        case .failure(let error):
            throw error
        }
    }

    /// Creates an engine with an output node; the input node and main mixer are made when first asked for.
    public override init() {
        outputNode = AVAudioOutputNode()
        super.init()
        attach(outputNode)
        let observer = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) {
            [weak self] notification in
            self?.routeChanged(notification)
        }
        routeChanges.withLock { $0 = observer }
    }

    deinit {
        if let observer = routeChanges.withLock({ $0 }) { NotificationCenter.default.removeObserver(observer) }
        renderThread?.stop()
        microphone?.stop()
        for node in graph.withLock({ $0.nodes }) { node.renderingStopped() }
    }

    /// A microphone came or went while the engine records: its input hardware changed, so the
    /// engine stops itself and posts `AVAudioEngineConfigurationChange`, as Apple's does.
    private func routeChanged(_ notification: Notification) {
        let value = notification.userInfo?[AVAudioSessionRouteChangeReasonKey]
        let reason = ((value as? UInt) ?? (value as? NSNumber)?.uintValue).flatMap(AVAudioSession.RouteChangeReason.init(rawValue:))
        guard reason == .newDeviceAvailable || reason == .oldDeviceUnavailable, isRunning, microphone?.isRunning == true else { return }
        stop()
        NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self)
    }

    // MARK: Nodes

    /// The node audio leaves the engine by: the sound server, or the caller in manual rendering mode.
    public let outputNode: AVAudioOutputNode

    /// The node audio from the microphone enters by; made, with the microphone chosen, when first asked for.
    open private(set) lazy var inputNode: AVAudioInputNode = {
        let node = AVAudioInputNode()
        attach(node)
        return node
    }()

    /// The mixer the engine's nodes play into, connected to the output node; made when first asked for.
    open private(set) lazy var mainMixerNode: AVAudioMixerNode = {
        let mixer = AVAudioMixerNode()
        attach(mixer)
        connect(mixer, to: outputNode, format: outputNode.outputFormat(forBus: 0))
        graph.withLock { $0.mainMixer = mixer }
        return mixer
    }()

    /// The nodes attached to the engine.
    open var attachedNodes: Set<AVAudioNode> { Set(graph.withLock { $0.nodes }) }

    /// Adds a node to the engine.
    open func attach(_ node: AVAudioNode) {
        graph.withLock { graph in
            guard !graph.nodes.contains(where: { $0 === node }) else { return }
            precondition(node.engine == nil || node.engine === self, "AVAudioEngine: the node is attached to another engine")
            graph.nodes.append(node)
        }
        node.engine = self
        publishPlan()
    }

    /// Removes a node from the engine, with its connections.
    open func detach(_ node: AVAudioNode) {
        graph.withLock { graph in
            graph.nodes.removeAll { $0 === node }
            graph.feeds = graph.feeds.filter { $0.key.node != ObjectIdentifier(node) && $0.value.source !== node }
        }
        node.engine = nil
        publishPlan()
    }

    // MARK: Connections

    /// Connects a node's output to another's input, in a format (nil: the source's output format).
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        let bus = node2 is AVAudioMixerNode ? (node2 as! AVAudioMixerNode).nextAvailableInputBus : 0
        connect(node1, to: node2, fromBus: 0, toBus: bus, format: format)
    }

    /// Connects an output bus of a node to an input bus of another, in a format (nil: the source's output format).
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, fromBus bus1: AVAudioNodeBus, toBus bus2: AVAudioNodeBus, format: AVAudioFormat?) {
        precondition(node1.engine === self && node2.engine === self, "AVAudioEngine: both nodes must be attached to the engine")
        precondition(node1 !== node2, "AVAudioEngine: a node cannot feed itself")
        let chosen = format ?? node1.outputFormat(forBus: bus1)
        precondition(chosen.commonFormat == .pcmFormatFloat32 && !chosen.isInterleaved, "AVAudioEngine: connections carry deinterleaved 32-bit floats")
        node1.outputFormats.withLock { $0[bus1] = chosen }
        graph.withLock { $0.feeds[FeedKey(node: ObjectIdentifier(node2), bus: bus2)] = Feed(source: node1, bus: bus1, format: chosen) }
        configurationChanged()
    }

    /// Connects a node's output to several inputs at once: the node renders once a cycle for them all.
    open func connect(_ sourceNode: AVAudioNode, to destNodes: [AVAudioConnectionPoint], fromBus sourceBus: AVAudioNodeBus, format: AVAudioFormat?) {
        for point in destNodes {
            guard let node = point.node else { continue }
            connect(sourceNode, to: node, fromBus: sourceBus, toBus: point.bus, format: format)
        }
    }

    /// Removes the connections into a node's inputs.
    open func disconnectNodeInput(_ node: AVAudioNode) {
        graph.withLock { $0.feeds = $0.feeds.filter { $0.key.node != ObjectIdentifier(node) } }
        configurationChanged()
    }

    /// Removes the connection into one input bus of a node.
    open func disconnectNodeInput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        graph.withLock { _ = $0.feeds.removeValue(forKey: FeedKey(node: ObjectIdentifier(node), bus: bus)) }
        configurationChanged()
    }

    /// Removes the connections from a node's outputs.
    open func disconnectNodeOutput(_ node: AVAudioNode) {
        graph.withLock { $0.feeds = $0.feeds.filter { $0.value.source !== node } }
        configurationChanged()
    }

    /// Removes the connections from one output bus of a node.
    open func disconnectNodeOutput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        graph.withLock { $0.feeds = $0.feeds.filter { !($0.value.source === node && $0.value.bus == bus) } }
        configurationChanged()
    }

    /// Where an input bus of a node is fed from; nil when nothing is connected to it.
    open func inputConnectionPoint(for node: AVAudioNode, inputBus bus: AVAudioNodeBus) -> AVAudioConnectionPoint? {
        feed(into: node, bus: bus).map { AVAudioConnectionPoint(node: $0.source, bus: $0.bus) }
    }

    /// Where an output bus of a node goes.
    open func outputConnectionPoints(for node: AVAudioNode, outputBus bus: AVAudioNodeBus) -> [AVAudioConnectionPoint] {
        let nodes = graph.withLock { $0.nodes }
        return graph.withLock { graph in
            graph.feeds.filter { $0.value.source === node && $0.value.bus == bus }.compactMap { key, _ in
                nodes.first { ObjectIdentifier($0) == key.node }.map { AVAudioConnectionPoint(node: $0, bus: key.bus) }
            }
        }
    }

    /// What feeds an input bus of a node.
    func feed(into node: AVAudioNode, bus: AVAudioNodeBus) -> Feed? {
        graph.withLock { $0.feeds[FeedKey(node: ObjectIdentifier(node), bus: bus)] }
    }

    /// The input buses of a node that are fed, in order.
    func feeds(into node: AVAudioNode) -> [(bus: AVAudioNodeBus, feed: Feed)] {
        graph.withLock { graph in
            graph.feeds.filter { $0.key.node == ObjectIdentifier(node) }.map { ($0.key.bus, $0.value) }.sorted { $0.bus < $1.bus }
        }
    }

    // MARK: Running

    /// Makes every node ready to render; `start()` does it when it has not been done.
    open func prepare() {
        publishPlan()
        // Not rendering: the plan is taken, and the nodes' buffers made, here rather than in the first cycle.
        if !isRunning, rendering.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            adoptPendingPlan()
            rendering.store(false, ordering: .releasing)
        }
    }

    /// Publishes the graph as it stands for the renderer to take at its next cycle.
    func publishPlan() {
        let manualInput: AVAudioIONodeInputBlock? = graph.withLock { graph in
            (graph.nodes.first { $0 is AVAudioInputNode } as? AVAudioInputNode)?.manualInput.withLock { $0?.block }
        }
        let voice = voiceProcessing.withLock { $0 }
        graph.withLock { graph in
            for node in graph.nodes {
                // A sink's output is what feeds it.
                if let sink = node as? AVAudioSinkNode, let feed = graph.feeds[FeedKey(node: ObjectIdentifier(sink), bus: 0)] {
                    sink.outputFormats.withLock { $0[0] = feed.format }
                }
            }
            let plan = RenderPlan(
                nodes: graph.nodes, feeds: graph.feeds, maximumFrames: graph.manual?.maximumFrames ?? Self.blockFrames, voice: voice,
                manualInput: manualInput, realTime: graph.manual.map { $0.mode == .realtime } ?? true)
            plans.publish(plan)
        }
    }

    /// Renderer: takes the plan published since the last cycle, if any, and hands each node its part.
    private func adoptPendingPlan() {
        guard let plan = plans.adopt(replacing: currentPlan) else { return }
        currentPlan = plan
        for entry in plan.entries { entry.node.adopt(entry, plan: plan) }
    }

    /// Starts rendering: the render thread to the sound server, and the microphone if the input
    /// node is used. Throws when the microphone cannot be opened.
    open func start() throws {
        if isRunning { return }
        prepare()
        let manual = graph.withLock { $0.manual != nil }
        // In manual rendering, an input node with an input block takes its frames from the caller.
        if usesInput, !(manual && inputNode.manualInput.withLock({ $0 != nil })) {
            let microphone = microphone ?? EngineMicrophone(node: inputNode)
            try microphone.start()
            self.microphone = microphone
        }
        graph.withLock { $0.running = true }
        if !manual {
            let thread = EngineRenderThread(engine: self, format: outputNode.outputFormat(forBus: 0))
            renderThread = thread
            thread.start()
        }
    }

    /// Pauses rendering, keeping what the nodes hold.
    open func pause() { halt() }

    /// Stops rendering and lets go of the resources `prepare()` took.
    open func stop() { halt() }

    /// Clears what every node holds.
    open func reset() {
        for node in graph.withLock({ $0.nodes }) { node.reset() }
    }

    /// Whether the engine is rendering.
    open var isRunning: Bool { graph.withLock { $0.running } }

    /// The time of the last block rendered, on the engine's timeline.
    var lastRenderTime: AVAudioTime {
        let (time, rate) = (sampleTime.load(ordering: .relaxed), outputNode.outputFormat(forBus: 0).sampleRate)
        return AVAudioTime(sampleTime: time, atRate: rate)
    }

    private func halt() {
        renderThread?.stop()
        renderThread = nil
        microphone?.stop()
        graph.withLock { $0.running = false }
        for node in graph.withLock({ $0.nodes }) { node.renderingStopped() }
    }

    /// Whether a renderer that may not wait runs: the render thread, or the caller in realtime manual rendering.
    var rendersInRealTime: Bool { graph.withLock { $0.running && ($0.manual == nil || $0.manual?.mode == .realtime) } }

    /// Whether the input node feeds anything or has a tap.
    private var usesInput: Bool {
        guard graph.withLock({ $0.nodes.contains { $0 is AVAudioInputNode } }) else { return false }
        let input = inputNode
        return input.hasTap || graph.withLock { $0.feeds.values.contains { $0.source === input } }
    }

    /// A tap was installed or removed: a running engine starts or keeps the microphone for the input node's.
    func tapsChanged() {
        publishPlan()
        guard isRunning, usesInput, microphone?.isRunning != true else { return }
        let microphone = microphone ?? EngineMicrophone(node: inputNode)
        try? microphone.start()
        self.microphone = microphone
    }

    /// The graph changed: a prepared engine prepares the nodes again, and the input node learns whether it feeds any.
    private func configurationChanged() {
        publishPlan()
        let (input, feeds) = graph.withLock { graph in
            (graph.nodes.first { $0 is AVAudioInputNode } as? AVAudioInputNode, Array(graph.feeds.values))
        }
        if let input { input.feedsOtherNodes.withLock { $0 = feeds.contains { $0.source === input } } }
    }

    // MARK: Rendering

    /// Renders one cycle of `frames` frames from the output node's input; the mixed buffer, or nil
    /// for silence (also when another renderer holds the cycle, or `frames` is more than a cycle takes).
    func renderCycle(frames: Int, realTime: Bool) -> AVAudioPCMBuffer? {
        guard rendering.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return nil }
        defer { rendering.store(false, ordering: .releasing) }
        adoptPendingPlan()
        guard let plan = currentPlan, frames <= Int(plan.maximumFrames) else { return nil }
        cycle &+= 1
        let start = sampleTime.add(AVAudioFramePosition(frames), ordering: .relaxed).oldValue
        let context = RenderContext(cycle: cycle, sampleTime: start, sampleRate: outputNode.renderRate, realTime: realTime)
        let mixed = outputNode.pull(frames: frames, context: context)
        // Sink nodes lead nowhere: each cycle pulls them too, so that they receive what feeds them.
        for sink in plan.sinks { _ = sink.pull(frames: frames, context: context) }
        return mixed
    }

    // MARK: Manual rendering

    /// Switches the engine (stopped) to rendering by the caller, in a format, at most `maximumFrameCount` frames a call.
    open func enableManualRenderingMode(_ mode: AVAudioEngineManualRenderingMode, format pcmFormat: AVAudioFormat, maximumFrameCount: AVAudioFrameCount)
        throws
    {
        guard !isRunning else { throw AVAudioConverter.error(.paramErr, "stop the engine before switching it to manual rendering") }
        guard pcmFormat.commonFormat == .pcmFormatFloat32, !pcmFormat.isInterleaved, maximumFrameCount > 0 else {
            throw AVAudioConverter.error(.formatNotSupported, "manual rendering takes deinterleaved 32-bit floats and at least one frame")
        }
        graph.withLock { $0.manual = (mode, pcmFormat, maximumFrameCount) }
        sampleTime.store(0, ordering: .relaxed)
        outputNode.outputFormats.withLock { $0[0] = pcmFormat }
        if let mixer = graph.withLock({ $0.mainMixer }) { connect(mixer, to: outputNode, format: pcmFormat) }
        publishPlan()
    }

    /// Returns the engine (stopped) to rendering to the sound server.
    open func disableManualRenderingMode() {
        graph.withLock { $0.manual = nil }
        outputNode.outputFormats.withLock { _ = $0.removeValue(forKey: 0) }
        publishPlan()
    }

    /// Whether the engine is rendered by the caller.
    open var isInManualRenderingMode: Bool { graph.withLock { $0.manual != nil } }
    /// How the caller renders the engine.
    open var manualRenderingMode: AVAudioEngineManualRenderingMode { graph.withLock { $0.manual?.mode } ?? .offline }
    /// The format the caller renders in.
    open var manualRenderingFormat: AVAudioFormat { graph.withLock { $0.manual?.format } ?? outputNode.outputFormat(forBus: 0) }
    /// The most frames one render gives.
    open var manualRenderingMaximumFrameCount: AVAudioFrameCount { graph.withLock { $0.manual?.maximumFrames } ?? Self.blockFrames }
    /// The frames rendered since manual rendering started.
    open var manualRenderingSampleTime: AVAudioFramePosition { sampleTime.load(ordering: .relaxed) }

    /// Renders `numberOfFrames` frames (at most `manualRenderingMaximumFrameCount`) into a buffer of the manual rendering format.
    open func renderOffline(_ numberOfFrames: AVAudioFrameCount, to buffer: AVAudioPCMBuffer) throws -> AVAudioEngineManualRenderingStatus {
        guard isInManualRenderingMode, isRunning else { throw AVAudioConverter.error(.paramErr, "the engine is not running in manual rendering mode") }
        guard buffer.format.isEqual(manualRenderingFormat), numberOfFrames <= buffer.frameCapacity, numberOfFrames <= manualRenderingMaximumFrameCount else {
            throw AVAudioConverter.error(.paramErr, "the buffer is not in the manual rendering format, or too many frames were asked for")
        }
        let frames = Int(numberOfFrames)
        let mixed = renderCycle(frames: frames, realTime: manualRenderingMode == .realtime)
        buffer.frameLength = numberOfFrames
        if let mixed { buffer.copyFrames(from: mixed, at: 0, to: 0, count: frames) } else { AVAudioNode.silence(buffer, frames: frames) }
        return takeInputStarvation() ? .insufficientDataFromInputNode : .success
    }

    /// The block that renders the engine in manual rendering mode, for a real-time context.
    open var manualRenderingBlock: AVAudioEngineManualRenderingBlock {
        { [weak self] frames, list, status in
            guard let self, let mixed = self.renderCycle(frames: Int(frames), realTime: true) else {
                status?.pointee = 0
                let buffers = UnsafeMutableAudioBufferListPointer(list)
                for index in 0..<buffers.count { buffers[index].mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * 4) }
                return self?.takeInputStarvation() == true ? .insufficientDataFromInputNode : .success
            }
            let buffers = UnsafeMutableAudioBufferListPointer(list)
            for index in 0..<min(buffers.count, mixed.list.count) {
                buffers[index].mData?.copyMemory(from: mixed.list[index].mData!, byteCount: Int(frames) * 4)
                buffers[index].mDataByteSize = frames * 4
            }
            status?.pointee = 0
            return self.takeInputStarvation() ? .insufficientDataFromInputNode : .success
        }
    }

    /// Whether the input node's manual input block had no frames in the last render; cleared.
    private func takeInputStarvation() -> Bool {
        guard let input = currentPlan?.entries.first(where: { $0.node is AVAudioInputNode })?.node as? AVAudioInputNode else { return false }
        return input.inputStarved.exchange(false, ordering: .relaxed)
    }

    /// Renderer: a cycle number of its own, for a pull outside the cycle's (a mixer input's resampler asking for more).
    func nextCycle() -> Int {
        cycle &+= 1
        return cycle
    }
}
