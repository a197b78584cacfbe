import Foundation

// Times and time ranges as dictionaries, the form they take in property lists, user defaults and
// the attachments of sample buffers (Apple's keys and values: numbers under "value", "timescale",
// "epoch" and "flags"; a range's start and duration as such dictionaries).

/// The key of a time dictionary's value.
nonisolated(unsafe) public let kCMTimeValueKey: CFString = "value"
/// The key of a time dictionary's timescale.
nonisolated(unsafe) public let kCMTimeScaleKey: CFString = "timescale"
/// The key of a time dictionary's epoch.
nonisolated(unsafe) public let kCMTimeEpochKey: CFString = "epoch"
/// The key of a time dictionary's flags.
nonisolated(unsafe) public let kCMTimeFlagsKey: CFString = "flags"
/// The key of a time range dictionary's start.
nonisolated(unsafe) public let kCMTimeRangeStartKey: CFString = "start"
/// The key of a time range dictionary's duration.
nonisolated(unsafe) public let kCMTimeRangeDurationKey: CFString = "duration"

/// A time as a dictionary of its value, timescale, epoch and flags.
public func CMTimeCopyAsDictionary(_ time: CMTime, allocator: CFAllocator?) -> CFDictionary? {
    let dictionary: [String: Any] = [
        kCMTimeValueKey as String: NSNumber(value: time.value), kCMTimeScaleKey as String: NSNumber(value: time.timescale),
        kCMTimeEpochKey as String: NSNumber(value: time.epoch), kCMTimeFlagsKey as String: NSNumber(value: time.flags.rawValue),
    ]
    return dictionary as NSDictionary
}

/// The time a dictionary of `CMTimeCopyAsDictionary(_:allocator:)` holds; `.invalid` when it holds none.
public func CMTimeMakeFromDictionary(_ dictionaryRepresentation: CFDictionary?) -> CMTime {
    guard let dictionary = dictionaryRepresentation as? [String: Any],
        let value = (dictionary[kCMTimeValueKey as String] as? NSNumber)?.int64Value,
        let timescale = (dictionary[kCMTimeScaleKey as String] as? NSNumber)?.int32Value,
        let flags = (dictionary[kCMTimeFlagsKey as String] as? NSNumber)?.uint32Value
    else { return .invalid }
    let epoch = (dictionary[kCMTimeEpochKey as String] as? NSNumber)?.int64Value ?? 0
    return CMTime(value: value, timescale: timescale, flags: CMTimeFlags(rawValue: flags), epoch: epoch)
}

/// A time range as a dictionary of its start and duration, each a time dictionary.
public func CMTimeRangeCopyAsDictionary(_ range: CMTimeRange, allocator: CFAllocator?) -> CFDictionary? {
    guard let start = CMTimeCopyAsDictionary(range.start, allocator: allocator),
        let duration = CMTimeCopyAsDictionary(range.duration, allocator: allocator)
    else { return nil }
    return [kCMTimeRangeStartKey as String: start, kCMTimeRangeDurationKey as String: duration] as NSDictionary
}

/// The time range a dictionary of `CMTimeRangeCopyAsDictionary(_:allocator:)` holds; `.invalid` when it holds none.
public func CMTimeRangeMakeFromDictionary(_ dictionaryRepresentation: CFDictionary) -> CMTimeRange {
    guard let dictionary = dictionaryRepresentation as? [String: Any],
        let start = dictionary[kCMTimeRangeStartKey as String].map({ $0 as AnyObject }) as? NSDictionary,
        let duration = dictionary[kCMTimeRangeDurationKey as String].map({ $0 as AnyObject }) as? NSDictionary
    else { return .invalid }
    return CMTimeRange(start: CMTimeMakeFromDictionary(start), duration: CMTimeMakeFromDictionary(duration))
}
