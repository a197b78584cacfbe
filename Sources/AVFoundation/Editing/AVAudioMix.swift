import CoreMedia
import MediaToolbox
import Foundation

/// An object that manages the input parameters for mixing audio tracks: each track's volume over time.
open class AVAudioMix: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let parameters: LockedValue<[AVAudioMixInputParameters]>

    /// Creates a mix with no parameters: every track at full volume.
    public override init() {
        parameters = LockedValue([])
        super.init()
    }

    init(inputParameters: [AVAudioMixInputParameters]) {
        parameters = LockedValue(inputParameters.map { $0.copy() as! AVAudioMixInputParameters })
        super.init()
    }

    /// The parameters of the tracks the mix changes.
    open var inputParameters: [AVAudioMixInputParameters] { parameters.withLock { $0 } }

    /// Returns an immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any { AVAudioMix(inputParameters: inputParameters) }

    /// Returns a mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableAudioMix(inputParameters: inputParameters) }

    /// The volume of a track at a time: 1 where the mix says nothing of it.
    func volume(ofTrack trackID: CMPersistentTrackID, at time: CMTime) -> Float {
        inputParameters.first { $0.trackID == trackID }?.volume(at: time) ?? 1
    }
}

/// A mutable audio mix.
open class AVMutableAudioMix: AVAudioMix, @unchecked Sendable {
    /// Creates a mix with no parameters.
    public override init() { super.init() }

    override init(inputParameters: [AVAudioMixInputParameters]) { super.init(inputParameters: inputParameters) }

    /// The parameters of the tracks the mix changes.
    open override var inputParameters: [AVAudioMixInputParameters] {
        get { parameters.withLock { $0 } }
        set { parameters.withLock { $0 = newValue } }
    }
}

/// The parameters for one track of an audio mix: its volume over time.
open class AVAudioMixInputParameters: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// A change of volume: a ramp from one volume to another over a time range (zero long for a step).
    struct Ramp {
        var start: Float
        var end: Float
        var timeRange: CMTimeRange
    }
    struct State {
        var trackID: CMPersistentTrackID = kCMPersistentTrackID_Invalid
        var ramps: [Ramp] = []
        var algorithm: AVAudioTimePitchAlgorithm?
        var tap: MTAudioProcessingTap?
    }
    let state: LockedValue<State>

    /// Creates parameters for no track.
    public override init() {
        state = LockedValue(State())
        super.init()
    }

    init(state: State) {
        self.state = LockedValue(state)
        super.init()
    }

    /// The track the parameters apply to.
    open var trackID: CMPersistentTrackID { state.withLock { $0.trackID } }

    /// How the track's sound is stretched at other rates; nil leaves it to the player item or export.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? { state.withLock { $0.algorithm } }

    /// The audio processing tap the track's sound goes through, where the mix applies.
    open var audioTapProcessor: MTAudioProcessingTap? { state.withLock { $0.tap } }

    /// Finds the ramp that holds a time: its start and end volumes and its time range; false when none does.
    open func getVolumeRamp(
        for time: CMTime, startVolume: UnsafeMutablePointer<Float>?, endVolume: UnsafeMutablePointer<Float>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        guard
            let ramp = state.withLock({ $0.ramps.first { $0.timeRange.containsTime(time) || ($0.timeRange.duration == .zero && $0.timeRange.start == time) } })
        else {
            return false
        }
        startVolume?.pointee = ramp.start
        endVolume?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// Returns an immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any { AVAudioMixInputParameters(state: state.withLock { $0 }) }

    /// Returns a mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableAudioMixInputParameters(state: state.withLock { $0 }) }

    /// The volume at a time: inside a ramp, along it; after one, its end volume; before any, 1.
    func volume(at time: CMTime) -> Float {
        let ramps = state.withLock { $0.ramps }
        return Self.volume(at: time.seconds, ramps: ramps.map { ($0.timeRange.start.seconds, $0.timeRange.end.seconds, $0.start, $0.end) })
    }

    /// The volume at a time in seconds along ramps given as (start, end, start volume, end volume), sorted by start.
    static func volume(at time: Double, ramps: [(Double, Double, Float, Float)]) -> Float {
        guard let ramp = ramps.last(where: { $0.0 <= time }) else { return 1 }
        if time >= ramp.1 || ramp.1 <= ramp.0 { return ramp.3 }
        return ramp.2 + (ramp.3 - ramp.2) * Float((time - ramp.0) / (ramp.1 - ramp.0))
    }
}

/// Mutable parameters for one track of an audio mix.
open class AVMutableAudioMixInputParameters: AVAudioMixInputParameters, @unchecked Sendable {
    /// Creates parameters for a track (nil: for no track yet).
    public convenience init(track: AVAssetTrack?) {
        self.init(state: State(trackID: track?.trackID ?? kCMPersistentTrackID_Invalid))
    }

    /// Creates parameters for no track.
    public override init() { super.init() }

    override init(state: State) { super.init(state: state) }

    /// The track the parameters apply to.
    open override var trackID: CMPersistentTrackID {
        get { state.withLock { $0.trackID } }
        set { state.withLock { $0.trackID = newValue } }
    }

    /// How the track's sound is stretched at other rates.
    open override var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? {
        get { state.withLock { $0.algorithm } }
        set { state.withLock { $0.algorithm = newValue } }
    }

    /// The audio processing tap the track's sound goes through, where the mix applies.
    open override var audioTapProcessor: MTAudioProcessingTap? {
        get { state.withLock { $0.tap } }
        set { state.withLock { $0.tap = newValue } }
    }

    /// Sets the volume from a time on.
    open func setVolume(_ volume: Float, at time: CMTime) {
        add(Ramp(start: volume, end: volume, timeRange: CMTimeRange(start: time, duration: .zero)))
    }

    /// Sets a linear ramp of volume over a time range; after it, the end volume holds.
    open func setVolumeRamp(fromStartVolume startVolume: Float, toEndVolume endVolume: Float, timeRange: CMTimeRange) {
        guard timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration >= .zero else {
            ProgrammingError.invalidArgument(
                "-[AVMutableAudioMixInputParameters setVolumeRampFromStartVolume:toEndVolume:timeRange:] the time range must be numeric and not negative")
        }
        add(Ramp(start: startVolume, end: endVolume, timeRange: timeRange))
    }

    private func add(_ ramp: Ramp) {
        state.withLock { state in
            // A ramp replaces the changes it overlaps.
            state.ramps.removeAll { existing in
                existing.timeRange.start >= ramp.timeRange.start
                    && existing.timeRange.start < max(ramp.timeRange.end, ramp.timeRange.start + CMTime(value: 1, timescale: 1_000_000_000))
            }
            state.ramps.append(ramp)
            state.ramps.sort { $0.timeRange.start < $1.timeRange.start }
        }
    }
}
