import Foundation
import OpenCombine

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval, once
    /// connected, from a timer on the run loop given.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on an interval, from the time it is
    /// connected until that connection is cancelled. Subscribers with no demand miss the dates
    /// emitted meanwhile.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The dates the timer fired at.
        public typealias Output = Date
        /// A timer does not fail.
        public typealias Failure = Never

        /// The interval between dates, in seconds.
        public let interval: TimeInterval
        /// How late the timer may fire.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public let mode: RunLoop.Mode
        /// The scheduler options of the timer.
        public let options: RunLoop.SchedulerOptions?

        private let lock = NSLock()
        private var subscriptions: [TimerSubscription] = []
        private var timer: Timer?

        /// Creates a timer publisher; nothing is emitted until it is connected.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches a subscriber, which receives the dates emitted while it has demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            let subscription = TimerSubscription(AnySubscriber(subscriber), parent: self)
            lock.withLock { subscriptions.append(subscription) }
            subscriber.receive(subscription: subscription)
        }

        /// Starts the timer; cancelling what this returns stops it.
        public func connect() -> any Cancellable {
            let timer = Timer(fire: Date().addingTimeInterval(interval), interval: interval, repeats: true) { [weak self] _ in self?.fire() }
            if let tolerance { timer.tolerance = Swift.max(tolerance, 0) }
            let previous = lock.withLock { () -> Timer? in
                defer { self.timer = timer }
                return self.timer
            }
            previous?.invalidate()
            runLoop.add(timer, forMode: mode)
            return AnyCancellable { [weak self] in self?.disconnect(timer) }
        }

        private func disconnect(_ timer: Timer) {
            lock.withLock { if self.timer === timer { self.timer = nil } }
            timer.invalidate()
        }

        private func fire() {
            let now = Date()
            for subscription in lock.withLock({ subscriptions }) { subscription.send(now) }
        }

        fileprivate func remove(_ subscription: TimerSubscription) {
            lock.withLock { subscriptions.removeAll { $0 === subscription } }
        }
    }
}

/// One subscriber's demand for a timer's dates.
private final class TimerSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<Date, Never>?
    private var demand = Subscribers.Demand.none
    private weak var parent: Timer.TimerPublisher?

    init(_ downstream: AnySubscriber<Date, Never>, parent: Timer.TimerPublisher) {
        self.downstream = downstream
        self.parent = parent
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { self.demand += demand }
    }

    func cancel() {
        let parent = lock.withLock { () -> Timer.TimerPublisher? in
            downstream = nil
            return self.parent
        }
        parent?.remove(self)
    }

    /// Sends a date if the subscriber wants one; the call to the subscriber is made with no lock held.
    func send(_ date: Date) {
        let target = lock.withLock { () -> AnySubscriber<Date, Never>? in
            guard let downstream, demand > 0 else { return nil }
            demand -= 1
            return downstream
        }
        guard let target else { return }
        let more = target.receive(date)
        if more > 0 { lock.withLock { demand += more } }
    }
}
