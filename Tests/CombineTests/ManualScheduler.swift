import Combine
import Foundation

/// A scheduler whose time moves only when a test moves it, running what falls due in order.
final class ManualScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Never

    private struct Work {
        var due: SchedulerTimeType
        var order: Int
        var interval: SchedulerTimeType.Stride?
        var action: () -> Void
        var id: Int
    }

    private var work: [Work] = []
    private var nextOrder = 0
    private var cancelled: Set<Int> = []
    private(set) var now = SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) { add(now, nil, action) }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        add(date, nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let id = add(date, interval, action)
        return AnyCancellable { [weak self] in self?.cancelled.insert(id) }
    }

    @discardableResult
    private func add(_ due: SchedulerTimeType, _ interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void) -> Int {
        nextOrder += 1
        work.append(Work(due: due, order: nextOrder, interval: interval, action: action, id: nextOrder))
        return nextOrder
    }

    /// Moves the clock on, running each action as its time comes.
    func advance(by stride: SchedulerTimeType.Stride = .zero) {
        let end = now.advanced(by: stride)
        while let index = work.indices.filter({ work[$0].due <= end && !cancelled.contains(work[$0].id) })
            .min(by: { (work[$0].due, work[$0].order) < (work[$1].due, work[$1].order) })
        {
            var item = work.remove(at: index)
            if item.due > now { now = item.due }
            item.action()
            if let interval = item.interval {
                nextOrder += 1
                item.due = item.due.advanced(by: interval)
                item.order = nextOrder
                work.append(item)
            }
        }
        now = end
    }
}
