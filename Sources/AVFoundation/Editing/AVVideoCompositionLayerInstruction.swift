import CoreGraphics
import CoreMedia
import Foundation

/// An object used to modify the transform, cropping, and opacity ramps applied to a given track
/// in a composition.
///
/// Each property is a timeline of values: set at a time (it holds from then on) or ramped
/// linearly over a time range (it holds its end value after). Before the first, the transform is
/// the identity, the opacity 1 and the crop the whole picture. Transforms and crop rectangles
/// are in the track's own coordinates, origin at the top left, y down, as Apple's are.
open class AVVideoCompositionLayerInstruction: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// A value from a time on, or a ramp over a time range.
    struct Ramp<Value> {
        var start: Value
        var end: Value
        /// The ramp's range; a value set at a time has a range of zero duration.
        var timeRange: CMTimeRange
    }

    struct State {
        var trackID: CMPersistentTrackID = kCMPersistentTrackID_Invalid
        var transforms: [Ramp<CGAffineTransform>] = []
        var opacities: [Ramp<Float>] = []
        var crops: [Ramp<CGRect>] = []
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

    /// The track the instruction modifies.
    open var trackID: CMPersistentTrackID { state.withLock { $0.trackID } }

    /// Obtains the transform ramp that includes a time; false when no transform is set at or before it.
    open func getTransformRamp(
        for time: CMTime, start startTransform: UnsafeMutablePointer<CGAffineTransform>?, end endTransform: UnsafeMutablePointer<CGAffineTransform>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        Self.ramp(in: state.withLock { $0.transforms }, at: time, start: startTransform, end: endTransform, timeRange: timeRange)
    }

    /// Obtains the opacity ramp that includes a time; false when no opacity is set at or before it.
    open func getOpacityRamp(
        for time: CMTime, startOpacity: UnsafeMutablePointer<Float>?, endOpacity: UnsafeMutablePointer<Float>?, timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        Self.ramp(in: state.withLock { $0.opacities }, at: time, start: startOpacity, end: endOpacity, timeRange: timeRange)
    }

    /// Obtains the crop rectangle ramp that includes a time; false when no crop is set at or before it.
    open func getCropRectangleRamp(
        for time: CMTime, startCropRectangle: UnsafeMutablePointer<CGRect>?, endCropRectangle: UnsafeMutablePointer<CGRect>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        Self.ramp(in: state.withLock { $0.crops }, at: time, start: startCropRectangle, end: endCropRectangle, timeRange: timeRange)
    }

    /// The ramp in effect at a time: the latest that starts at or before it.
    private static func ramp<Value>(
        in ramps: [Ramp<Value>], at time: CMTime, start: UnsafeMutablePointer<Value>?, end: UnsafeMutablePointer<Value>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        guard time.isNumeric, let index = ramps.lastIndex(where: { $0.timeRange.start <= time }) else { return false }
        let ramp = ramps[index]
        start?.pointee = ramp.start
        end?.pointee = ramp.end
        if ramp.timeRange.duration > .zero {
            timeRange?.pointee = ramp.timeRange
        } else {
            // A value set at a time holds until the next one starts.
            let next = index + 1 < ramps.count ? ramps[index + 1].timeRange.start : CMTime.positiveInfinity
            timeRange?.pointee = CMTimeRange(start: ramp.timeRange.start, end: next)
        }
        return true
    }

    // MARK: Values at a time, for rendering

    /// The transform at a time.
    func transform(at time: CMTime) -> CGAffineTransform {
        value(in: state.withLock { $0.transforms }, at: time, default: .identity) { start, end, f in
            CGAffineTransform(
                a: start.a + (end.a - start.a) * f, b: start.b + (end.b - start.b) * f, c: start.c + (end.c - start.c) * f,
                d: start.d + (end.d - start.d) * f, tx: start.tx + (end.tx - start.tx) * f, ty: start.ty + (end.ty - start.ty) * f)
        }
    }

    /// The opacity at a time.
    func opacity(at time: CMTime) -> Float {
        value(in: state.withLock { $0.opacities }, at: time, default: 1) { start, end, f in start + (end - start) * Float(f) }
    }

    /// The crop rectangle at a time; nil for the whole picture.
    func crop(at time: CMTime) -> CGRect? {
        let crops = state.withLock { $0.crops }
        guard !crops.isEmpty else { return nil }
        return value(in: crops, at: time, default: .infinite) { start, end, f in
            CGRect(
                x: start.minX + (end.minX - start.minX) * f, y: start.minY + (end.minY - start.minY) * f,
                width: start.width + (end.width - start.width) * f, height: start.height + (end.height - start.height) * f)
        }
    }

    private func value<Value>(in ramps: [Ramp<Value>], at time: CMTime, default: Value, mix: (Value, Value, CGFloat) -> Value) -> Value {
        guard let ramp = ramps.last(where: { $0.timeRange.start <= time }) else { return `default` }
        let duration = ramp.timeRange.duration.seconds
        guard duration > 0, time < ramp.timeRange.end else { return ramp.end }
        return mix(ramp.start, ramp.end, CGFloat((time - ramp.timeRange.start).seconds / duration))
    }

    /// A copy with the same ramps.
    open func copy(with zone: NSZone? = nil) -> Any { AVVideoCompositionLayerInstruction(state: state.withLock { $0 }) }

    /// A mutable copy with the same ramps.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableVideoCompositionLayerInstruction(state: state.withLock { $0 }) }
}

/// A mutable object used to modify the transform, cropping, and opacity ramps applied to a given
/// track in a composition.
open class AVMutableVideoCompositionLayerInstruction: AVVideoCompositionLayerInstruction, @unchecked Sendable {
    override init(state: State) { super.init(state: state) }

    /// Creates a layer instruction with no track and no ramps.
    public override init() { super.init(state: State()) }

    /// Creates a layer instruction for a track.
    public convenience init(assetTrack track: AVAssetTrack) {
        var state = State()
        state.trackID = track.trackID
        self.init(state: state)
    }

    /// The track the instruction modifies.
    open override var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { state.withLock { $0.trackID = newValue } }
    }

    /// Sets a transform ramp over a time range.
    open func setTransformRamp(fromStart startTransform: CGAffineTransform, toEnd endTransform: CGAffineTransform, timeRange: CMTimeRange) {
        state.withLock { Self.insert(Ramp(start: startTransform, end: endTransform, timeRange: timeRange), into: &$0.transforms) }
    }

    /// Sets the transform from a time on.
    open func setTransform(_ transform: CGAffineTransform, at time: CMTime) {
        state.withLock { Self.insert(Ramp(start: transform, end: transform, timeRange: CMTimeRange(start: time, duration: .zero)), into: &$0.transforms) }
    }

    /// Sets an opacity ramp over a time range (opacities from 0 to 1).
    open func setOpacityRamp(fromStartOpacity startOpacity: Float, toEndOpacity endOpacity: Float, timeRange: CMTimeRange) {
        state.withLock { Self.insert(Ramp(start: Self.unit(startOpacity), end: Self.unit(endOpacity), timeRange: timeRange), into: &$0.opacities) }
    }

    /// Sets the opacity from a time on (0 to 1).
    open func setOpacity(_ opacity: Float, at time: CMTime) {
        state.withLock {
            Self.insert(Ramp(start: Self.unit(opacity), end: Self.unit(opacity), timeRange: CMTimeRange(start: time, duration: .zero)), into: &$0.opacities)
        }
    }

    /// Sets a crop rectangle ramp over a time range.
    open func setCropRectangleRamp(fromStartCropRectangle startCropRectangle: CGRect, toEndCropRectangle endCropRectangle: CGRect, timeRange: CMTimeRange) {
        state.withLock { Self.insert(Ramp(start: startCropRectangle, end: endCropRectangle, timeRange: timeRange), into: &$0.crops) }
    }

    /// Sets the crop rectangle from a time on.
    open func setCropRectangle(_ cropRectangle: CGRect, at time: CMTime) {
        state.withLock { Self.insert(Ramp(start: cropRectangle, end: cropRectangle, timeRange: CMTimeRange(start: time, duration: .zero)), into: &$0.crops) }
    }

    /// An opacity kept from 0 to 1; NaN is taken as 1.
    private static func unit(_ value: Float) -> Float { value.isNaN ? 1 : min(1, max(0, value)) }

    /// Adds a ramp in time order, replacing one that starts at the same time.
    private static func insert<Value>(_ ramp: Ramp<Value>, into ramps: inout [Ramp<Value>]) {
        guard ramp.timeRange.start.isNumeric else { return }
        ramps.removeAll { $0.timeRange.start == ramp.timeRange.start }
        let index = ramps.firstIndex { $0.timeRange.start > ramp.timeRange.start } ?? ramps.count
        ramps.insert(ramp, at: index)
    }
}
