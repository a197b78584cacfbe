import Foundation
import Synchronization

/// The mixing settings of a node that plays into a mixer: its volume and its place in the stereo field.
public protocol AVAudioMixing: AnyObject {
    /// The volume the mixer gives the node's audio, from 0 to 1.
    var volume: Float { get set }
    /// The node's place in the stereo field, from -1 (left) to 1 (right).
    var pan: Float { get set }
}

/// A node's mixing settings, kept for the mixers it plays into to read at each cycle without a
/// lock (each value an atomic word).
final class MixingSettings: Sendable {
    private let storedVolume = Atomic<UInt32>(Float(1).bitPattern)
    private let storedPan = Atomic<UInt32>(Float(0).bitPattern)

    /// The volume, from 0 to 1; values that are not numbers are ignored.
    var volume: Float {
        get { Float(bitPattern: storedVolume.load(ordering: .relaxed)) }
        set { if newValue.isFinite { storedVolume.store(max(0, min(1, newValue)).bitPattern, ordering: .relaxed) } }
    }

    /// The pan, from -1 to 1; values that are not numbers are ignored.
    var pan: Float {
        get { Float(bitPattern: storedPan.load(ordering: .relaxed)) }
        set { if newValue.isFinite { storedPan.store(max(-1, min(1, newValue)).bitPattern, ordering: .relaxed) } }
    }
}
