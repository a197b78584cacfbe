import CoreMedia
import Foundation

/// The time a virtual device paces itself by: the host clock, or a clock that stands still until
/// its owner advances it, so that tests of capture code step time instead of sleeping.
///
/// Frames and sound buffers come due on the clock: with a manual clock a virtual camera delivers
/// exactly the frames whose times the clock has passed, stamped with those times, and its
/// controls (focus, exposure, white balance, zoom ramps) move by that time. Thread-safe.
public final class VirtualClock: @unchecked Sendable {
    private let isManual: Bool
    private let condition = NSCondition()
    private var manualNow: Int64

    private init(manualStart: Int64?) {
        isManual = manualStart != nil
        manualNow = manualStart ?? 0
    }

    /// The host clock, which virtual devices follow unless told otherwise.
    public static let host = VirtualClock(manualStart: nil)

    /// A clock that starts at the host time now and stands still until `advance(by:)` moves it.
    public static func manual() -> VirtualClock { VirtualClock(manualStart: CMClock.hostTimeNanoseconds()) }

    /// Whether the clock moves only when advanced.
    public var isManuallyAdvanced: Bool { isManual }

    /// The clock's time now, on the host clock's timescale.
    public var now: CMTime { CMClock.hostTime(nanoseconds: nanoseconds) }

    /// Moves a manual clock on by `duration`, waking the devices whose frames and sound fall due;
    /// the host clock cannot be moved.
    public func advance(by duration: CMTime) {
        precondition(isManual, "VirtualClock.advance(by:) moves a manual clock; the host clock moves by itself")
        let step = duration.convertScale(1_000_000_000, method: .default).value
        guard duration.isNumeric, step > 0 else { return }
        condition.lock()
        manualNow += step
        condition.broadcast()
        condition.unlock()
    }

    /// The clock's time now, in nanoseconds.
    package var nanoseconds: Int64 {
        guard isManual else { return CMClock.hostTimeNanoseconds() }
        condition.lock()
        defer { condition.unlock() }
        return manualNow
    }

    /// Sleeps until the clock reaches `deadline` (nanoseconds); returns false, early, once
    /// `running` says the caller should stop (checked at least every 20 ms while a manual clock
    /// waits to be advanced).
    package func sleep(untilNanoseconds deadline: Int64, while running: () -> Bool) -> Bool {
        guard isManual else {
            StreamClock.sleep(untilNanoseconds: deadline)
            return true
        }
        condition.lock()
        defer { condition.unlock() }
        while manualNow < deadline {
            guard running() else { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.02))
        }
        return true
    }
}
