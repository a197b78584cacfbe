import Foundation
import Synchronization

/// A clock that tells the time; the host clock runs on the kernel's monotonic clock.
public final class CMClock: Sendable {
    /// The time of a clock that moves only when told to, and who to tell when it does; nil for the host clock.
    private let manual: ManualTime?

    private init(manual: ManualTime?) { self.manual = manual }

    /// The clock that tells host time: CLOCK_MONOTONIC, in nanoseconds.
    public static let hostTimeClock = CMClock(manual: nil)

    /// The clock's current time.
    public var time: CMTime { CMTime(value: nanoseconds, timescale: 1_000_000_000) }

    /// The clock's current time in nanoseconds.
    package var nanoseconds: Int64 { manual?.now ?? CMClock.hostTimeNanoseconds() }

    /// The clock's current time in seconds.
    package var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

    /// A clock that starts at the host time now and stands still until `advance(by:)` moves it,
    /// so that tests of timed code step time instead of sleeping.
    package static func manual() -> CMClock { CMClock(manual: ManualTime(start: hostTimeNanoseconds())) }

    /// Whether the clock moves only when advanced.
    package var isManuallyAdvanced: Bool { manual != nil }

    /// Moves a manual clock on by `duration`, then calls every handler added with
    /// `whenAdvanced(_:)` (on the caller's thread, outside any lock).
    package func advance(by duration: CMTime) {
        guard let manual else { preconditionFailure("CMClock.advance(by:) moves a manual clock; the host clock moves by itself") }
        manual.advance(by: duration)
    }

    /// Adds a handler a manual clock calls each time it is advanced; returns its key for
    /// `removeAdvanceHandler(_:)`. The host clock never calls it.
    package func whenAdvanced(_ handler: @escaping @Sendable () -> Void) -> Int? { manual?.add(handler) }

    /// Removes a handler added with `whenAdvanced(_:)`.
    package func removeAdvanceHandler(_ key: Int) { manual?.remove(key) }

    /// The host clock's current time in nanoseconds.
    package static func hostTimeNanoseconds() -> Int64 { Int64(mach_absolute_time()) }

    /// The host clock's time in nanoseconds as a `CMTime`.
    package static func hostTime(nanoseconds: Int64) -> CMTime { CMTime(value: nanoseconds, timescale: 1_000_000_000) }
}

/// A manual clock's time and the handlers told when it moves. Thread-safe.
private final class ManualTime: Sendable {
    private struct State {
        var now: Int64
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextKey = 0
    }
    private let state: Mutex<State>

    init(start: Int64) { state = Mutex(State(now: start)) }

    var now: Int64 { state.withLock { $0.now } }

    func advance(by duration: CMTime) {
        let step = duration.convertScale(1_000_000_000, method: .default).value
        guard duration.isNumeric, step > 0 else { return }
        let handlers = state.withLock { state in
            state.now += step
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    func add(_ handler: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.nextKey += 1
            state.handlers[state.nextKey] = handler
            return state.nextKey
        }
    }

    func remove(_ key: Int) { _ = state.withLock { $0.handlers.removeValue(forKey: key) } }
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

/// Converts a time from one clock to another, by the clocks' offset now. Every clock but a
/// manual one runs on the host clock (a session's `synchronizationClock` and every sample's
/// timestamps are host time), so a time between them is the same time; an object that is not a
/// clock gives an invalid time.
public func CMSyncConvertTime(_ time: CMTime, from fromClockOrTimebase: CMClockOrTimebase, to toClockOrTimebase: CMClockOrTimebase) -> CMTime {
    guard let from = fromClockOrTimebase as? CMClock, let to = toClockOrTimebase as? CMClock else { return .invalid }
    guard from !== to, from.isManuallyAdvanced || to.isManuallyAdvanced, time.isNumeric else { return time }
    return time + CMTime(value: to.nanoseconds - from.nanoseconds, timescale: 1_000_000_000)
}
