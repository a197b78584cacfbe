import Foundation
import OpenCombine

extension Publishers {
    /// How values are grouped over time: by a scheduler's interval, or by it or a count, whichever comes first.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// The values of each interval on the scheduler.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// The values of each interval on the scheduler, or each count of them if that comes first.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that sends its upstream's values in groups, an interval's or a count's at a
    /// time, on the scheduler of its strategy.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// A group of the upstream's values.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are grouped.
        public let upstream: Upstream
        /// How the values are grouped.
        public let strategy: TimeGroupingStrategy<Context>
        /// The options the groups are scheduled with.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher of groups of an upstream's values.
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches a subscriber, which receives the groups on the strategy's scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (context, interval, count): (Context, Context.SchedulerTimeType.Stride, Int?) =
                switch strategy {
                case .byTime(let context, let interval): (context, interval, nil)
                case .byTimeOrCount(let context, let interval, let count): (context, interval, Swift.max(count, 1))
                }
            upstream.subscribe(
                TimeGrouping(AnySubscriber(subscriber), context: context, interval: interval, count: count, options: options))
        }
    }
}

extension Publisher {
    /// Collects values into groups by time, or by time or count, and sends each group on the strategy's scheduler.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

/// The grouping of one subscriber's values.
///
/// Thread ownership: values arrive on the upstream's thread and are added under the lock; groups
/// and the completion are sent from the scheduler, with no lock held. A group waits while the
/// subscriber has no demand, and goes on growing until it has.
private final class TimeGrouping<Input, Failure: Error, Context: Scheduler>: Subscriber, Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<[Input], Failure>?
    private var upstream: (any Subscription)?
    private var group: [Input] = []
    private var demand = Subscribers.Demand.none
    private var timer: (any Cancellable)?
    private let context: Context
    private let interval: Context.SchedulerTimeType.Stride
    private let count: Int?
    private let options: Context.SchedulerOptions?

    init(
        _ downstream: AnySubscriber<[Input], Failure>, context: Context, interval: Context.SchedulerTimeType.Stride, count: Int?,
        options: Context.SchedulerOptions?
    ) {
        self.downstream = downstream
        self.context = context
        self.interval = interval
        self.count = count
        self.options = options
    }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        let target = lock.withLock { () -> AnySubscriber<[Input], Failure>? in
            guard upstream == nil, let downstream else { return nil }
            upstream = subscription
            return downstream
        }
        guard let target else { return subscription.cancel() }
        target.receive(subscription: self)
        let timer = context.schedule(
            after: context.now.advanced(by: interval), interval: interval, tolerance: context.minimumTolerance, options: options
        ) { [weak self] in self?.flush() }
        let cancelled = lock.withLock { () -> Bool in
            guard self.downstream != nil else { return true }
            self.timer = timer
            return false
        }
        if cancelled { timer.cancel() }
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let full = lock.withLock { () -> Bool in
            guard downstream != nil else { return false }
            group.append(input)
            return count.map { group.count % $0 == 0 } ?? false  // a flush for each count reached
        }
        if full { context.schedule(options: options) { [weak self] in self?.flush() } }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        context.schedule(options: options) { [weak self] in self?.finish(completion) }
    }

    // MARK: Downstream

    func request(_ more: Subscribers.Demand) {
        lock.withLock { demand += more }
    }

    func cancel() {
        let (upstream, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
            downstream = nil
            group = []
            defer {
                self.upstream = nil
                self.timer = nil
            }
            return (self.upstream, self.timer)
        }
        timer?.cancel()
        upstream?.cancel()
    }

    // MARK: On the scheduler

    /// Sends the group collected so far (a count's worth at most, by count) if the subscriber wants one.
    private func flush() {
        let sending = lock.withLock { () -> (AnySubscriber<[Input], Failure>, [Input])? in
            guard let downstream, demand > 0, !group.isEmpty else { return nil }
            demand -= 1
            let size = Swift.min(count ?? group.count, group.count)
            defer { group.removeFirst(size) }
            return (downstream, Array(group.prefix(size)))
        }
        guard let (target, values) = sending else { return }
        let more = target.receive(values)
        if more > 0 { request(more) }
    }

    private func finish(_ completion: Subscribers.Completion<Failure>) {
        if case .finished = completion {
            while lock.withLock({ !group.isEmpty && demand > 0 && downstream != nil }) { flush() }
        }
        let (target, timer) = lock.withLock { () -> (AnySubscriber<[Input], Failure>?, (any Cancellable)?) in
            defer {
                downstream = nil
                upstream = nil
                group = []
                self.timer = nil
            }
            return (downstream, self.timer)
        }
        timer?.cancel()
        target?.receive(completion: completion)
    }
}
