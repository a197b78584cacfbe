import Foundation

/// The text Core Media gives a time: `{value/timescale = seconds}`, seconds to three places, or
/// `{INVALID}`, `{+INFINITY}`, `{-INFINITY}`, `{INDEFINITE}`.
private func describe(_ time: CMTime) -> String {
    if !time.isValid { return "{INVALID}" }
    if time.isPositiveInfinity { return "{+INFINITY}" }
    if time.isNegativeInfinity { return "{-INFINITY}" }
    if time.isIndefinite { return "{INDEFINITE}" }
    return "{\(time.value)/\(time.timescale) = \(String(format: "%.3f", time.seconds))}"
}

/// Creates a description of a time, as `CMTimeShow` prints it.
public func CMTimeCopyDescription(allocator: CFAllocator?, time: CMTime) -> CFString? { describe(time) as NSString }

/// Prints a description of a time to standard error.
public func CMTimeShow(_ time: CMTime) { FileHandle.standardError.write(Data((describe(time) + "\n").utf8)) }

/// Creates a description of a time range: its start and duration.
public func CMTimeRangeCopyDescription(allocator: CFAllocator?, range: CMTimeRange) -> CFString? {
    "{\(describe(range.start)), \(describe(range.duration))}" as NSString
}

/// Prints a description of a time range to standard error.
public func CMTimeRangeShow(_ range: CMTimeRange) {
    FileHandle.standardError.write(Data(("{\(describe(range.start)), \(describe(range.duration))}\n").utf8))
}
