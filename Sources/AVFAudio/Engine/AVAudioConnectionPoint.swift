import Foundation

/// One end of a connection in an audio engine: a node and one of its buses.
open class AVAudioConnectionPoint: NSObject, @unchecked Sendable {
    /// The node; nil once it has gone.
    open private(set) weak var node: AVAudioNode?
    /// The bus.
    public let bus: AVAudioNodeBus

    /// Creates a connection point.
    public init(node: AVAudioNode, bus: AVAudioNodeBus) {
        self.node = node
        self.bus = bus
        super.init()
    }
}
