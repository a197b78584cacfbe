import Dispatch
import Foundation
import OpenCombine

extension OperationQueue: @retroactive Scheduler {
    /// A moment on the wall clock, as an operation queue schedules work.
    public typealias SchedulerTimeType = _DateSchedulerTimeType<OperationQueue>

    /// How an operation queue runs scheduled work; it has no options.
    public struct SchedulerOptions: Sendable {}

    /// The least tolerance the queue allows: none.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// The wall clock now.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Adds an operation that runs the action.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        addOperation { work.run() }
    }

    /// Adds an operation that runs the action at a moment or after it.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        let queue = UncheckedOperationQueue(self)
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + max(date.date.timeIntervalSinceNow, 0)) {
            queue.queue.addOperation { work.run() }
        }
    }

    /// Adds an operation that runs the action from a moment on, at an interval, until cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = ScheduledAction(action)
        let queue = UncheckedOperationQueue(self)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(
            wallDeadline: .now() + max(date.date.timeIntervalSinceNow, 0), repeating: max(interval.magnitude, 0),
            leeway: .nanoseconds(Int(max(tolerance.magnitude, 0) * 1_000_000_000)))
        timer.setEventHandler { queue.queue.addOperation { work.run() } }
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// An operation queue handed to the dispatch thread that adds the scheduled operation to it.
private final class UncheckedOperationQueue: @unchecked Sendable {
    let queue: OperationQueue

    init(_ queue: OperationQueue) { self.queue = queue }
}
