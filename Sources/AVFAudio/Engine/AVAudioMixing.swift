import Foundation

/// The mixing settings of a node that plays into a mixer: its volume and its place in the stereo field.
public protocol AVAudioMixing: AnyObject {
    /// The volume the mixer gives the node's audio, from 0 to 1.
    var volume: Float { get set }
    /// The node's place in the stereo field, from -1 (left) to 1 (right).
    var pan: Float { get set }
}

/// A node's mixing settings, kept for the mixers it plays into to read at each cycle.
final class MixingSettings: @unchecked Sendable {
    private let lock = NSLock()
    private var storedVolume: Float = 1
    private var storedPan: Float = 0

    /// The volume, from 0 to 1; values that are not numbers are ignored.
    var volume: Float {
        get { lock.withLock { storedVolume } }
        set { if newValue.isFinite { lock.withLock { storedVolume = max(0, min(1, newValue)) } } }
    }

    /// The pan, from -1 to 1; values that are not numbers are ignored.
    var pan: Float {
        get { lock.withLock { storedPan } }
        set { if newValue.isFinite { lock.withLock { storedPan = max(-1, min(1, newValue)) } } }
    }
}
