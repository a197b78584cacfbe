import Foundation
import OpenCombine

extension RunLoop: @retroactive Scheduler {
    /// A moment on the wall clock, as a run loop schedules work.
    public typealias SchedulerTimeType = _DateSchedulerTimeType<RunLoop>

    /// How a run loop runs scheduled work; it has no options.
    public struct SchedulerOptions: Sendable {}

    /// The least tolerance the run loop allows: none.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// The wall clock now.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Runs an action on the run loop's thread, in its default mode, the next time it runs.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        add(Timer(fire: Date(), interval: 0, repeats: false) { _ in work.run() }, forMode: .default)
    }

    /// Runs an action on the run loop's thread once, at a moment or after it.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.run() }
        timer.tolerance = max(tolerance.magnitude, 0)
        add(timer, forMode: .default)
    }

    /// Runs an action on the run loop's thread from a moment on, at an interval, until cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = ScheduledAction(action)
        let timer = Timer(fire: date.date, interval: interval.magnitude, repeats: true) { _ in work.run() }
        timer.tolerance = max(tolerance.magnitude, 0)
        add(timer, forMode: .default)
        let scheduled = ScheduledTimer(timer)
        return AnyCancellable { scheduled.timer.invalidate() }
    }
}

/// A run loop timer that a cancellation, on any thread, invalidates.
final class ScheduledTimer: @unchecked Sendable {
    let timer: Timer

    init(_ timer: Timer) { self.timer = timer }
}
