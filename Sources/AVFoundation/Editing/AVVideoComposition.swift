import CoreGraphics
import CoreMedia
import Foundation

/// How an asset's pictures are put together for export: the size they are rendered at and the
/// constant rate they are given at (the AV Foundation Programming Guide, "Export": "Set the frameDuration property of the
/// video composition to 30 fps").
open class AVVideoComposition: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let settings: LockedValue<(frameDuration: CMTime, renderSize: CGSize, renderScale: Float)>
    let instructionList: LockedValue<[any AVVideoCompositionInstructionProtocol]>

    init(frameDuration: CMTime, renderSize: CGSize, instructions: [any AVVideoCompositionInstructionProtocol] = []) {
        settings = LockedValue((frameDuration, renderSize, 1))
        instructionList = LockedValue(instructions)
        super.init()
    }

    /// Creates a video composition for an asset: its shortest frame duration (30 fps when it has
    /// none), and the size its first video track is shown at.
    public convenience init(propertiesOf asset: AVAsset) {
        let video = asset.tracks(withMediaType: .video).first
        var duration = video?.minFrameDuration ?? .invalid
        if !duration.isNumeric || duration <= .zero { duration = CMTime(value: 1, timescale: 30) }
        var size = video.map { CGRect(origin: .zero, size: $0.naturalSize).applying($0.preferredTransform).size } ?? .zero
        size = CGSize(width: abs(size.width), height: abs(size.height))
        // One instruction over the asset's duration: each video track a layer, turned as it is meant to be shown.
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: asset.duration.isNumeric ? asset.duration : .zero)
        instruction.layerInstructions = asset.tracks(withMediaType: .video).map { track in
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            layer.setTransform(track.preferredTransform, at: .zero)
            return layer
        }
        self.init(frameDuration: duration, renderSize: size, instructions: [instruction])
    }

    /// Creates a video composition for an asset, once its duration and tracks are loaded.
    open class func videoComposition(withPropertiesOf asset: AVAsset) async throws -> AVVideoComposition {
        _ = try await asset.load(.duration)
        return AVVideoComposition(propertiesOf: asset)
    }

    /// The instructions that say how the tracks are composed over time.
    open var instructions: [any AVVideoCompositionInstructionProtocol] { instructionList.withLock { $0 } }

    /// The handler that filters each frame with Core Image, when the composition was made with one.
    let filtering = LockedValue<(@Sendable (AVAsynchronousCIImageFilteringRequest) -> Void)?>(nil)
    /// The custom compositor class, when one is named.
    let compositorClass = LockedValue<(any AVVideoCompositing.Type)?>(nil)

    /// The custom compositor class to use; nil for Apple's instructions, composed by the built-in compositor.
    open var customVideoCompositorClass: (any AVVideoCompositing.Type)? { compositorClass.withLock { $0 } }
    /// The layer tree drawn with each frame, when there is one.
    let layers = LockedValue<AVVideoCompositionCoreAnimationTool?>(nil)

    /// A video composition tool to use with Core Animation in offline rendering.
    open var animationTool: AVVideoCompositionCoreAnimationTool? { layers.withLock { $0 } }

    /// Creates a video composition that filters each frame of an asset's video with Core Image:
    /// the asset's properties, and the handler given a request for each frame.
    public convenience init(asset: AVAsset, applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void) {
        let properties = AVVideoComposition(propertiesOf: asset)
        self.init(frameDuration: properties.frameDuration, renderSize: properties.renderSize, instructions: properties.instructions)
        filtering.withLock { $0 = applier }
    }

    /// Creates a video composition that filters each frame of an asset's video with Core Image,
    /// once the asset's properties are loaded.
    public static func videoComposition(
        with asset: AVAsset, applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void
    ) async throws -> AVVideoComposition {
        _ = try await asset.load(.duration)
        return AVVideoComposition(asset: asset, applyingCIFiltersWithHandler: applier)
    }

    /// The time each picture of the composition lasts: the constant rate it is exported at.
    open var frameDuration: CMTime { settings.withLock { $0.frameDuration } }
    /// The size the pictures are rendered at.
    open var renderSize: CGSize { settings.withLock { $0.renderSize } }
    /// The scale pictures are rendered at: 1.
    open var renderScale: Float { settings.withLock { $0.renderScale } }

    /// Whether the instructions do no more than show `track` turned as it is meant to be shown,
    /// at its own size: nothing to compose, so its pictures can be scaled as stored and the turn
    /// kept in the movie's matrix. True with no instructions.
    func onlyTurns(_ track: AVAssetTrack) -> Bool {
        guard filtering.withLock({ $0 }) == nil, customVideoCompositorClass == nil, animationTool == nil else { return false }
        let turned = CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform).size
        let instructions = self.instructions
        guard !instructions.isEmpty else { return true }
        guard abs(abs(turned.width) - renderSize.width) < 1, abs(abs(turned.height) - renderSize.height) < 1 else { return false }
        return instructions.allSatisfy { instruction in
            guard let instruction = instruction as? AVVideoCompositionInstruction, instruction.layerInstructions.count == 1,
                let layer = instruction.layerInstructions.first, layer.trackID == track.trackID
            else { return false }
            return layer.state.withLock { state in
                state.crops.isEmpty && state.opacities.allSatisfy { $0.start == 1 && $0.end == 1 }
                    && state.transforms.allSatisfy { $0.start == track.preferredTransform && $0.end == track.preferredTransform }
                    && (!state.transforms.isEmpty || track.preferredTransform.isIdentity)
            }
        }
    }

    /// A copy with the same settings.
    open func copy(with zone: NSZone? = nil) -> Any {
        copySettings(into: AVVideoComposition(frameDuration: frameDuration, renderSize: renderSize, instructions: instructions))
    }

    /// A mutable copy with the same settings.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        copySettings(into: AVMutableVideoComposition(frameDuration: frameDuration, renderSize: renderSize, instructions: instructions))
    }

    /// Gives `copy` this composition's render scale, filtering handler and compositor class.
    private func copySettings(into copy: AVVideoComposition) -> AVVideoComposition {
        copy.settings.withLock { $0.renderScale = settings.withLock { $0.renderScale } }
        copy.filtering.withLock { $0 = filtering.withLock { $0 } }
        copy.compositorClass.withLock { $0 = compositorClass.withLock { $0 } }
        copy.layers.withLock { $0 = layers.withLock { $0 } }
        return copy
    }
}

/// A video composition whose frame duration and render size can be set.
open class AVMutableVideoComposition: AVVideoComposition, @unchecked Sendable {
    /// Creates a video composition at 30 fps with no render size; set both before use.
    public init() { super.init(frameDuration: CMTime(value: 1, timescale: 30), renderSize: .zero) }

    override init(frameDuration: CMTime, renderSize: CGSize, instructions: [any AVVideoCompositionInstructionProtocol] = []) {
        super.init(frameDuration: frameDuration, renderSize: renderSize, instructions: instructions)
    }

    /// Creates a mutable video composition for an asset, once its duration and tracks are loaded.
    open override class func videoComposition(withPropertiesOf asset: AVAsset) async throws -> AVMutableVideoComposition {
        _ = try await asset.load(.duration)
        return AVMutableVideoComposition(propertiesOf: asset)
    }

    /// The instructions that say how the tracks are composed over time.
    open override var instructions: [any AVVideoCompositionInstructionProtocol] {
        get { super.instructions }
        set { instructionList.withLock { $0 = newValue } }
    }

    /// The time each picture of the composition lasts: the constant rate it is exported at.
    open override var frameDuration: CMTime {
        get { super.frameDuration }
        set { settings.withLock { $0.frameDuration = newValue } }
    }
    /// The size the pictures are rendered at.
    open override var renderSize: CGSize {
        get { super.renderSize }
        set { settings.withLock { $0.renderSize = newValue } }
    }
    /// The scale pictures are rendered at.
    open override var renderScale: Float {
        get { super.renderScale }
        set { settings.withLock { $0.renderScale = newValue } }
    }
    /// A video composition tool to use with Core Animation in offline rendering.
    open override var animationTool: AVVideoCompositionCoreAnimationTool? {
        get { super.animationTool }
        set { layers.withLock { $0 = newValue } }
    }
    /// The custom compositor class to use; nil for Apple's instructions, composed by the built-in compositor.
    open override var customVideoCompositorClass: (any AVVideoCompositing.Type)? {
        get { super.customVideoCompositorClass }
        set { compositorClass.withLock { $0 = newValue } }
    }
}

/// Gives a reader output's pictures at a constant rate: at each tick from `start` to `end`, the
/// newest picture presented at or before it, so pictures repeat where the source is slower and
/// are dropped where it is faster.
final class ConstantRate {
    private let output: AVAssetReaderOutput
    private let frameDuration: CMTime
    private let end: CMTime
    private var tick: CMTime
    private var current: CMSampleBuffer?
    private var upcoming: CMSampleBuffer?
    private var started = false

    init(output: AVAssetReaderOutput, frameDuration: CMTime, start: CMTime, end: CMTime) {
        self.output = output
        self.frameDuration = frameDuration
        self.tick = start
        self.end = end
    }

    func next() -> CMSampleBuffer? {
        guard tick < end else { return nil }
        if !started { upcoming = output.copyNextSampleBuffer(); started = true }
        // Half a microsecond of slack: times rescaled on the way may fall a hair after the tick.
        let slack = CMTime(value: 1, timescale: 2_000_000)
        while let candidate = upcoming, candidate.presentationTimeStamp <= tick + slack {
            current = candidate
            upcoming = output.copyNextSampleBuffer()
        }
        if current == nil {
            // Nothing before the first tick: the first picture stands in.
            guard let first = upcoming else { return nil }
            current = first
            upcoming = output.copyNextSampleBuffer()
        }
        guard let current else { return nil }
        var timing = CMSampleTimingInfo(duration: frameDuration, presentationTimeStamp: tick, decodeTimeStamp: .invalid)
        var placed: CMSampleBuffer?
        CMSampleBufferCreateCopyWithNewTiming(
            allocator: nil, sampleBuffer: current, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleBufferOut: &placed)
        tick = tick + frameDuration
        return placed
    }
}
