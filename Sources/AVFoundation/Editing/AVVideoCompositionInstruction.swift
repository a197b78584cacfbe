import CoreGraphics
import CoreMedia
import Foundation

/// The requirements and behaviour of an instruction of a video composition: the time range it
/// covers and the tracks it needs.
public protocol AVVideoCompositionInstructionProtocol: NSObjectProtocol {
    /// The time range during which the instruction is effective.
    var timeRange: CMTimeRange { get }
    /// Whether post-processing is needed for the instruction (a Core Animation layer tree).
    var enablePostProcessing: Bool { get }
    /// Whether the rendered frame changes with time within the instruction's range.
    var containsTweening: Bool { get }
    /// The tracks whose frames the instruction composes, as `NSValue`s of track IDs; nil for all.
    var requiredSourceTrackIDs: [NSValue]? { get }
    /// The track whose frames pass through unchanged, or `kCMPersistentTrackID_Invalid`.
    var passthroughTrackID: CMPersistentTrackID { get }
}

/// An operation that a compositor performs: the layers it composes over a time range, top first,
/// over a background colour.
open class AVVideoCompositionInstruction: NSObject, NSCopying, NSMutableCopying, AVVideoCompositionInstructionProtocol, @unchecked Sendable {
    struct State {
        var timeRange = CMTimeRange.zero
        var backgroundColor: CGColor?
        var layerInstructions: [AVVideoCompositionLayerInstruction] = []
        var enablePostProcessing = true
    }
    let state: LockedValue<State>

    init(state: State) {
        self.state = LockedValue(state)
        super.init()
    }

    override init() {
        state = LockedValue(State())
        super.init()
    }

    /// The time range during which the instruction is effective.
    open var timeRange: CMTimeRange { state.withLock { $0.timeRange } }
    /// The background colour of the composition; nil for opaque black.
    open var backgroundColor: CGColor? { state.withLock { $0.backgroundColor } }
    /// The layers, top first: how each track's frames are transformed, cropped and faded.
    open var layerInstructions: [AVVideoCompositionLayerInstruction] { state.withLock { $0.layerInstructions } }
    /// Whether post-processing is needed for the instruction.
    open var enablePostProcessing: Bool { state.withLock { $0.enablePostProcessing } }
    /// Whether the frame changes within the range: whether any layer ramps its transform, opacity or crop.
    open var containsTweening: Bool {
        layerInstructions.contains { layer in
            layer.state.withLock { state in
                state.transforms.contains { $0.timeRange.duration > .zero } || state.opacities.contains { $0.timeRange.duration > .zero }
                    || state.crops.contains { $0.timeRange.duration > .zero }
            }
        }
    }
    /// The tracks the layers compose.
    open var requiredSourceTrackIDs: [NSValue]? { layerInstructions.map { NSNumber(value: $0.trackID) } }
    /// No track passes through unchanged: every frame is composed.
    open var passthroughTrackID: CMPersistentTrackID { kCMPersistentTrackID_Invalid }

    /// A copy with the same range, colour and layers.
    open func copy(with zone: NSZone? = nil) -> Any { AVVideoCompositionInstruction(state: state.withLock { $0 }) }

    /// A mutable copy with the same range, colour and layers.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableVideoCompositionInstruction(state: state.withLock { $0 }) }
}

/// A mutable video composition instruction.
open class AVMutableVideoCompositionInstruction: AVVideoCompositionInstruction, @unchecked Sendable {
    override init(state: State) { super.init(state: state) }

    /// Creates an instruction with an empty time range, no layers and a black background.
    public override init() { super.init(state: State()) }

    /// The time range during which the instruction is effective.
    open override var timeRange: CMTimeRange {
        get { super.timeRange }
        set { state.withLock { $0.timeRange = newValue } }
    }
    /// The background colour of the composition; nil for opaque black.
    open override var backgroundColor: CGColor? {
        get { super.backgroundColor }
        set { state.withLock { $0.backgroundColor = newValue } }
    }
    /// The layers, top first.
    open override var layerInstructions: [AVVideoCompositionLayerInstruction] {
        get { super.layerInstructions }
        set { state.withLock { $0.layerInstructions = newValue } }
    }
    /// Whether post-processing is needed for the instruction.
    open override var enablePostProcessing: Bool {
        get { super.enablePostProcessing }
        set { state.withLock { $0.enablePostProcessing = newValue } }
    }
}
