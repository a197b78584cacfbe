/// A mapping of a source time range onto a target time range: how an edit places media.
public struct CMTimeMapping: Sendable, Hashable {
    /// The range in the source; invalid for an empty edit, which shows nothing for `target`.
    public var source: CMTimeRange
    /// The range in the target.
    public var target: CMTimeRange

    /// Creates a mapping of every field zero, as the imported C structure is.
    public init() { self.init(source: CMTimeRange(), target: CMTimeRange()) }

    /// Creates a mapping of a source range onto a target range.
    public init(source: CMTimeRange, target: CMTimeRange) {
        self.source = source
        self.target = target
    }
}

/// The time in `toRange` that a time in `fromRange` maps to: the same fraction of the way through.
public func CMTimeMapTimeFromRangeToRange(_ t: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard t.isNumeric, fromRange.isValid, toRange.isValid, fromRange.duration.isNumeric, toRange.duration.isNumeric,
        fromRange.duration > .zero
    else { return .invalid }
    let offset = t - fromRange.start
    if fromRange.duration == toRange.duration { return toRange.start + offset }
    return toRange.start + CMTimeMapDurationFromRangeToRange(offset, fromRange: fromRange, toRange: toRange)
}

/// The duration in `toRange` that a duration in `fromRange` maps to: scaled as the ranges' durations are.
public func CMTimeMapDurationFromRangeToRange(_ dur: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard dur.isNumeric, fromRange.duration.isNumeric, toRange.duration.isNumeric, fromRange.duration > .zero else { return .invalid }
    if fromRange.duration == toRange.duration { return dur }
    // In nanoseconds, or the target's own timescale when that is finer.
    let ratio = toRange.duration.seconds / fromRange.duration.seconds
    let timescale = max(Int32(1_000_000_000), toRange.duration.timescale)
    return CMTime(seconds: dur.seconds * ratio, preferredTimescale: timescale)
}
