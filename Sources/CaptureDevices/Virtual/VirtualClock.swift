import CoreMedia
import Foundation

/// The time a virtual device paces itself by: the host clock, or a clock that stands still until
/// its owner advances it, so that tests of capture code step time instead of sleeping.
///
/// Frames and sound buffers come due on the clock: with a manual clock a virtual camera delivers
/// exactly the frames whose times the clock has passed, stamped with those times, and its
/// controls (focus, exposure, white balance, zoom ramps) move by that time. Thread-safe.
public final class VirtualClock: @unchecked Sendable {
    /// The clock itself: the host clock, or a manual one.
    public let clock: CMClock
    /// Wakes the devices sleeping on a manual clock when it moves, and whoever waits for them to park.
    private let condition = NSCondition()
    /// Producer threads streaming on the clock, and the deadlines of those parked on it (guarded by `condition`).
    private var producers = 0
    private var parkedDeadlines: [Int64] = []

    private init(clock: CMClock) {
        self.clock = clock
        _ = clock.whenAdvanced { [condition] in condition.withLock { condition.broadcast() } }
    }

    /// The host clock, which virtual devices follow unless told otherwise.
    public static let host = VirtualClock(clock: .hostTimeClock)

    /// A clock that starts at the host time now and stands still until `advance(by:)` moves it.
    public static func manual() -> VirtualClock { VirtualClock(clock: .manual()) }

    /// Whether the clock moves only when advanced.
    public var isManuallyAdvanced: Bool { clock.isManuallyAdvanced }

    /// The clock's time now, on the host clock's timescale.
    public var now: CMTime { clock.time }

    /// Moves a manual clock on by `duration`, waking the devices whose frames and sound fall due;
    /// the host clock cannot be moved.
    public func advance(by duration: CMTime) {
        precondition(isManuallyAdvanced, "VirtualClock.advance(by:) moves a manual clock; the host clock moves by itself")
        clock.advance(by: duration)
    }

    /// The clock's time now, in nanoseconds.
    package var nanoseconds: Int64 { clock.nanoseconds }

    /// Whether every device streaming on the clock is parked on it: each has done the work of the
    /// time the clock passed and waits for a later time. Always true of the host clock.
    public var isSettled: Bool {
        guard isManuallyAdvanced else { return true }
        return condition.withLock { settled }
    }

    /// Waits until every device streaming on a manual clock is parked on it, as a test clock's
    /// owner waits before it moves time on or looks at what the time produced; false after
    /// `timeout` seconds without that.
    @discardableResult
    public func waitUntilSettled(timeout: TimeInterval = 30) -> Bool {
        guard isManuallyAdvanced else { return true }
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !settled {
            // Parking and leaving broadcast; the clock's own advance only ever unsettles it.
            guard Date() < deadline else { return false }
            _ = condition.wait(until: deadline)
        }
        return true
    }

    /// Whether every producer is parked on a time still to come (call with `condition` held).
    private var settled: Bool {
        let now = clock.nanoseconds
        return parkedDeadlines.lazy.filter { $0 > now }.count == producers
    }

    /// Counts a producer thread as streaming on the clock until `leave()`.
    package func join() {
        guard isManuallyAdvanced else { return }
        condition.withLock { producers += 1 }
    }

    /// Counts a producer thread out, once it stops streaming.
    package func leave() {
        guard isManuallyAdvanced else { return }
        condition.withLock {
            producers -= 1
            condition.broadcast()
        }
    }

    /// Sleeps until the clock reaches `deadline` (nanoseconds); returns false, early, once
    /// `running` says the caller should stop (checked at least every 20 ms while a manual clock
    /// waits to be advanced).
    package func sleep(untilNanoseconds deadline: Int64, while running: () -> Bool) -> Bool {
        guard isManuallyAdvanced else {
            StreamClock.sleep(untilNanoseconds: deadline)
            return true
        }
        condition.lock()
        defer { condition.unlock() }
        guard clock.nanoseconds < deadline else { return true }
        parkedDeadlines.append(deadline)
        condition.broadcast()
        defer { parkedDeadlines.remove(at: parkedDeadlines.firstIndex(of: deadline)!) }
        while clock.nanoseconds < deadline {
            guard running() else { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.02))
        }
        return true
    }
}
