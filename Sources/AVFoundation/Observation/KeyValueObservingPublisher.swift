import Combine
import Foundation

extension NSObject {
    /// A publisher of an object's property: its value as it changes, observed as key-value
    /// observing observes it.
    ///
    /// A subscriber with no demand misses the changes made meanwhile. Values arrive on the thread
    /// that made the change, one at a time and in order; `.prior` is not honoured (no value is
    /// sent before a change).
    public struct KeyValueObservingPublisher<Subject: NSObject, Value>: Equatable, @unchecked Sendable {
        /// The object observed.
        public let object: Subject
        /// The property observed.
        public let keyPath: KeyPath<Subject, Value>
        /// Whether the current value is sent first (`.initial`) and the changed values after (`.new`).
        public let options: NSKeyValueObservingOptions

        /// Creates a publisher of an object's property.
        public init(object: Subject, keyPath: KeyPath<Subject, Value>, options: NSKeyValueObservingOptions) {
            self.object = object
            self.keyPath = keyPath
            self.options = options
        }

        /// Whether two publishers observe the same property of the same object the same way.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.object === rhs.object && lhs.keyPath == rhs.keyPath && lhs.options == rhs.options
        }
    }
}

extension NSObject.KeyValueObservingPublisher: Publisher where Subject: _KeyValueObservable {
    /// The property's values.
    public typealias Output = Value
    /// Observation does not fail.
    public typealias Failure = Never

    /// Attaches a subscriber, which receives the property's values while it has demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        let subscription = KeyValueSubscription<Value>(AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        nonisolated(unsafe) let path = keyPath
        let observation = object._observations.observe(
            keyPath, options: [.new],
            read: { [weak object] () -> Value?? in
                guard let object else { return .none }  // gone: nothing to deliver
                return .some(object[keyPath: path])
            },
            deliver: { [weak subscription] change in
                if let subscription, let value = change.newValue { subscription.offer(value) }
            })
        subscription.keep(observation)
        if options.contains(.initial) { subscription.offer(object[keyPath: keyPath]) }
    }

    /// A publisher that emits nothing but the fact of each change.
    public func didChange() -> Publishers.Map<Self, Void> { map { _ in () } }
}

extension _KeyValueObservable where Self: NSObject {
    /// Returns a publisher of a property's values: by default the current value, then each new one.
    public func publisher<Value>(
        for keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [.initial, .new]
    ) -> NSObject.KeyValueObservingPublisher<Self, Value> {
        NSObject.KeyValueObservingPublisher(object: self, keyPath: keyPath, options: options)
    }
}

/// One subscriber's observation of a property.
///
/// Thread ownership: values are offered on whichever thread changed the property. One thread
/// delivers at a time, with no lock held; values offered meanwhile wait, in order, for it.
private final class KeyValueSubscription<Value>: Subscription, @unchecked Sendable {
    private struct State {
        var downstream: AnySubscriber<Value, Never>?
        var demand = Subscribers.Demand.none
        var waiting: [Value] = []
        var delivering = false
        var observation: NSKeyValueObservation?
    }
    private let state: LockedValue<State>

    init(_ downstream: AnySubscriber<Value, Never>) {
        state = LockedValue(State(downstream: downstream))
    }

    func keep(_ observation: NSKeyValueObservation) {
        let cancelled = state.withLock { state -> Bool in
            guard state.downstream != nil else { return true }
            state.observation = observation
            return false
        }
        if cancelled { observation.invalidate() }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.demand += demand }
    }

    func cancel() {
        let observation = state.withLock { state -> NSKeyValueObservation? in
            state.downstream = nil
            state.waiting = []
            defer { state.observation = nil }
            return state.observation
        }
        observation?.invalidate()
    }

    /// Sends a value if the subscriber wants one, after the values offered before it.
    func offer(_ value: Value) {
        let deliverer = state.withLock { state -> AnySubscriber<Value, Never>? in
            guard state.downstream != nil, state.demand > 0 else { return nil }
            state.demand -= 1
            state.waiting.append(value)
            guard !state.delivering else { return nil }
            state.delivering = true
            return state.downstream
        }
        guard let deliverer else { return }
        while let next = state.withLock({ state -> Value? in
            guard state.downstream != nil, !state.waiting.isEmpty else {
                state.delivering = false
                return nil
            }
            return state.waiting.removeFirst()
        }) {
            let more = deliverer.receive(next)
            if more > 0 { state.withLock { $0.demand += more } }
        }
    }
}
