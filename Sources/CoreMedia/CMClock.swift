import Foundation

/// A clock that tells the time; the host clock runs on the kernel's monotonic clock.
public final class CMClock: Sendable {
    private init() {}

    /// The clock that tells host time: CLOCK_MONOTONIC, in nanoseconds.
    public static let hostTimeClock = CMClock()

    /// The clock's current time.
    public var time: CMTime { CMTime(value: CMClock.hostTimeNanoseconds(), timescale: 1_000_000_000) }

    /// The host clock's current time in nanoseconds.
    package static func hostTimeNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The host clock's time in nanoseconds as a `CMTime`.
    package static func hostTime(nanoseconds: Int64) -> CMTime { CMTime(value: nanoseconds, timescale: 1_000_000_000) }
}

/// Returns the host time clock.
public func CMClockGetHostTimeClock() -> CMClock { .hostTimeClock }
/// Returns a clock's current time.
public func CMClockGetTime(_ clock: CMClock) -> CMTime { clock.time }
/// Converts a host time in the clock's ticks (nanoseconds) to a `CMTime`.
public func CMClockMakeHostTimeFromSystemUnits(_ hostTime: UInt64) -> CMTime { CMTime(value: Int64(hostTime), timescale: 1_000_000_000) }
/// Converts a `CMTime` to host ticks (nanoseconds).
public func CMClockConvertHostTimeToSystemUnits(_ hostTime: CMTime) -> UInt64 {
    UInt64(max(0, hostTime.convertScale(1_000_000_000, method: .default).value))
}

/// A clock or a timebase, as the synchronization functions take either.
public typealias CMClockOrTimebase = AnyObject

/// Returns the current time of a clock.
public func CMSyncGetTime(_ clockOrTimebase: CMClockOrTimebase) -> CMTime {
    (clockOrTimebase as? CMClock)?.time ?? .invalid
}

/// Converts a time from one clock to another. Every clock here runs on the host clock (a
/// session's `synchronizationClock` and every sample's timestamps are host time), so a time
/// between them is the same time; an object that is not a clock gives an invalid time.
public func CMSyncConvertTime(_ time: CMTime, from fromClockOrTimebase: CMClockOrTimebase, to toClockOrTimebase: CMClockOrTimebase) -> CMTime {
    guard fromClockOrTimebase is CMClock, toClockOrTimebase is CMClock else { return .invalid }
    return time
}
