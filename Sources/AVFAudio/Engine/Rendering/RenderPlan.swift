import Foundation

/// The engine's graph as the renderer reads it: for each node, what feeds each of its input
/// buses and its tap, and the nodes the cycle pulls. Made whole on a configuring thread whenever
/// the graph changes, published through a `PlanSlot`, and never changed after.
///
/// Thread ownership: immutable once made; the renderer hands each node its part when it adopts the plan.
final class RenderPlan: @unchecked Sendable {
    /// What feeds one input bus of a node.
    struct Input {
        /// The input bus fed.
        let bus: AVAudioNodeBus
        /// The node that feeds it, and its output bus.
        let source: AVAudioNode
        let sourceBus: AVAudioNodeBus
        /// The connection's format.
        let format: AVAudioFormat
        /// The source's volume and pan, when it plays into mixers.
        let mixing: AVAudioMixing?
    }

    /// A node with its fed inputs (by bus) and the tap on its output bus 0.
    struct Entry {
        let node: AVAudioNode
        let inputs: [Input]
        let tap: NodeTap?
    }

    let entries: [Entry]
    /// The sink nodes, which lead nowhere and are pulled by every cycle.
    let sinks: [AVAudioSinkNode]
    /// The most frames a cycle renders.
    let maximumFrames: AVAudioFrameCount
    /// The voice processing on the input and output, while it is on.
    let voice: VoiceProcessor?
    /// The input node's manual rendering input, when it has one.
    let manualInput: AVAudioIONodeInputBlock?
    /// Whether the renderer renders in real time (the render thread, realtime manual rendering).
    let realTime: Bool

    init(
        nodes: [AVAudioNode], feeds: [AVAudioEngine.FeedKey: AVAudioEngine.Feed], maximumFrames: AVAudioFrameCount, voice: VoiceProcessor?,
        manualInput: AVAudioIONodeInputBlock?, realTime: Bool
    ) {
        var inputs: [ObjectIdentifier: [Input]] = [:]
        for (key, feed) in feeds {
            inputs[key.node, default: []].append(
                Input(bus: key.bus, source: feed.source, sourceBus: feed.bus, format: feed.format, mixing: feed.source as? AVAudioMixing))
        }
        entries = nodes.map { node in
            Entry(node: node, inputs: (inputs[ObjectIdentifier(node)] ?? []).sorted { $0.bus < $1.bus }, tap: node.tap(onBus: 0))
        }
        sinks = nodes.compactMap { $0 as? AVAudioSinkNode }
        self.maximumFrames = maximumFrames
        self.voice = voice
        self.manualInput = manualInput
        self.realTime = realTime
    }
}
