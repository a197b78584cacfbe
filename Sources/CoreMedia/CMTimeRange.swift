/// A range of time: a start and a duration.
public struct CMTimeRange: Sendable, Hashable {
    /// The start of the range.
    public var start: CMTime
    /// The length of the range.
    public var duration: CMTime

    /// Creates a time range with every field zero, as the imported C structure is.
    public init() { self.init(start: CMTime(), duration: CMTime()) }

    /// Creates a range from a start and a duration.
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// Creates a range from a start and an end.
    public init(start: CMTime, end: CMTime) {
        self.start = start
        self.duration = end - start
    }

    /// The end of the range: its start plus its duration, which the range does not contain.
    public var end: CMTime { start + duration }
    /// Whether the range's start and duration are valid and its duration is not negative.
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && !(duration.isNumeric && duration.value < 0) && !duration.isNegativeInfinity
    }
    /// Whether the range's duration is zero.
    public var isEmpty: Bool { isValid && duration == .zero }
    /// Whether the range is indefinite.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }

    /// Whether the range contains a time.
    public func containsTime(_ time: CMTime) -> Bool { CMTimeRangeContainsTime(self, time: time) }
    /// Whether the range contains another range.
    public func containsTimeRange(_ range: CMTimeRange) -> Bool { CMTimeRangeContainsTimeRange(self, otherRange: range) }
    /// The overlap of two ranges.
    public func intersection(_ other: CMTimeRange) -> CMTimeRange { CMTimeRangeGetIntersection(self, otherRange: other) }
    /// The smallest range that covers both ranges.
    public func union(_ other: CMTimeRange) -> CMTimeRange { CMTimeRangeGetUnion(self, otherRange: other) }

    /// An empty range at zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// An invalid range.
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)
}

/// Makes a range from a start and a duration.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange { CMTimeRange(start: start, duration: duration) }
/// Makes a range from a start and an end.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange { CMTimeRange(start: start, end: end) }
/// Returns the end of a range.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }
/// Whether a range contains a time: at or after its start and before its end.
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool {
    range.isValid && time.isValid && CMTimeCompare(time, range.start) >= 0 && CMTimeCompare(time, range.end) < 0
}
/// Whether a range contains another range.
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool {
    range.isValid && otherRange.isValid && otherRange.start >= range.start && otherRange.end <= range.end
}
/// The overlap of two ranges; empty where they do not overlap.
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    let start = CMTimeMaximum(range.start, otherRange.start)
    let end = CMTimeMinimum(range.end, otherRange.end)
    return end > start ? CMTimeRange(start: start, end: end) : CMTimeRange(start: start, duration: .zero)
}
/// The smallest range that covers both ranges.
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    return CMTimeRange(start: CMTimeMinimum(range.start, otherRange.start), end: CMTimeMaximum(range.end, otherRange.end))
}
/// Whether two ranges are equal.
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool { range1 == range2 }
/// An empty range at zero.
public let kCMTimeRangeZero = CMTimeRange.zero
/// An invalid range.
public let kCMTimeRangeInvalid = CMTimeRange.invalid
