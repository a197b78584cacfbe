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

extension CMTimeMapping {
    /// A mapping whose source and target are both invalid.
    public static let invalid = CMTimeMapping(source: .invalid, target: .invalid)
}

/// A mapping whose source and target are both invalid.
public let kCMTimeMappingInvalid = CMTimeMapping.invalid

/// The key of a time mapping dictionary's source range.
nonisolated(unsafe) public let kCMTimeMappingSourceKey: CFString = "source"
/// The key of a time mapping dictionary's target range.
nonisolated(unsafe) public let kCMTimeMappingTargetKey: CFString = "target"

/// Makes a mapping of a source time range onto a target time range.
public func CMTimeMappingMake(source: CMTimeRange, target: CMTimeRange) -> CMTimeMapping { CMTimeMapping(source: source, target: target) }

/// Makes an empty edit's mapping: nothing shown for the target range (the source is invalid).
public func CMTimeMappingMakeEmpty(target: CMTimeRange) -> CMTimeMapping { CMTimeMapping(source: .invalid, target: target) }

/// A mapping as a dictionary of its source and target, each a time range dictionary.
public func CMTimeMappingCopyAsDictionary(_ mapping: CMTimeMapping, allocator: CFAllocator?) -> CFDictionary? {
    guard let source = CMTimeRangeCopyAsDictionary(mapping.source, allocator: allocator),
        let target = CMTimeRangeCopyAsDictionary(mapping.target, allocator: allocator)
    else { return nil }
    return [kCMTimeMappingSourceKey as String: source, kCMTimeMappingTargetKey as String: target] as NSDictionary
}

/// The mapping a dictionary of `CMTimeMappingCopyAsDictionary(_:allocator:)` holds; `kCMTimeMappingInvalid` when it holds none.
public func CMTimeMappingMakeFromDictionary(_ dictionaryRepresentation: CFDictionary) -> CMTimeMapping {
    guard let dictionary = dictionaryRepresentation as? [String: Any],
        let source = dictionary[kCMTimeMappingSourceKey as String].map({ $0 as AnyObject }) as? NSDictionary,
        let target = dictionary[kCMTimeMappingTargetKey as String].map({ $0 as AnyObject }) as? NSDictionary
    else { return .invalid }
    return CMTimeMapping(source: CMTimeRangeMakeFromDictionary(source), target: CMTimeRangeMakeFromDictionary(target))
}

/// Creates a description of a mapping: its source and target ranges.
public func CMTimeMappingCopyDescription(allocator: CFAllocator?, mapping: CMTimeMapping) -> CFString? {
    guard let source = CMTimeRangeCopyDescription(allocator: allocator, range: mapping.source),
        let target = CMTimeRangeCopyDescription(allocator: allocator, range: mapping.target)
    else { return nil }
    return "{source = \(source), target = \(target)}" as NSString
}

/// Prints a description of a mapping to standard error.
public func CMTimeMappingShow(_ mapping: CMTimeMapping) {
    guard let description = CMTimeMappingCopyDescription(allocator: nil, mapping: mapping) else { return }
    FileHandle.standardError.write(Data(((description as String) + "\n").utf8))
}

/// Returns the nearest time inside a time range: times before it give its start, times after it
/// its end; an invalid time, or an empty or invalid range, gives an invalid time.
public func CMTimeClampToRange(_ time: CMTime, range: CMTimeRange) -> CMTime {
    guard time.isValid, range.isValid, !range.isEmpty else { return .invalid }
    if time < range.start { return range.start }
    let end = range.end
    return time > end ? end : time
}

/// Folds a time into a time range, as a loop does: the range's start plus the time's distance
/// from it, modulo the range's duration.
public func CMTimeFoldIntoRange(_ time: CMTime, foldRange: CMTimeRange) -> CMTime {
    guard time.isNumeric, foldRange.start.isNumeric, foldRange.duration.isNumeric, foldRange.duration > .zero else { return .invalid }
    let offset = time - foldRange.start, length = foldRange.duration
    let timescale = max(offset.timescale, length.timescale)
    let distance = offset.convertScale(timescale, method: .roundHalfAwayFromZero).value
    let period = length.convertScale(timescale, method: .roundHalfAwayFromZero).value
    guard period > 0 else { return .invalid }
    return foldRange.start + CMTime(value: (distance % period + period) % period, timescale: timescale)
}
