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
    /// Wakes the devices sleeping on a manual clock when it moves.
    private let condition = NSCondition()

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
        while clock.nanoseconds < deadline {
            guard running() else { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.02))
        }
        return true
    }
}
