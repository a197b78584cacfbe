import Foundation
import OpenCombine

/// The subscription of a publisher with several upstreams (merging, combining the latest):
/// what the upstreams send is joined here and handed downstream as demand allows.
///
/// Thread ownership: upstreams may send from any thread at once. One thread delivers at a time,
/// with no lock held; what arrives meanwhile waits, in order, for it. Merging asks each upstream
/// for what the downstream asks for, so at most that many values wait per upstream; combining the
/// latest asks for everything and keeps one combination waiting, the newest.
final class UpstreamJoin<Output, Failure: Error>: Subscription, @unchecked Sendable {
    enum Mode {
        /// Every value of every upstream.
        case merge
        /// The newest value of each upstream, combined, once each has sent one.
        case latest(([Any]) -> Output)
    }

    private let mode: Mode
    private let lock = NSLock()
    private var downstream: AnySubscriber<Output, Failure>?
    private var upstreams: [(any Subscription)?]
    private var latest: [Any?]
    private var finished: [Bool]
    private var demand = Subscribers.Demand.none
    private var waiting: [Output] = []
    private var completion: Subscribers.Completion<Failure>?
    private var delivering = false

    init(_ downstream: AnySubscriber<Output, Failure>, upstreams count: Int, mode: Mode) {
        self.downstream = downstream
        self.mode = mode
        upstreams = Array(repeating: nil, count: count)
        latest = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    /// Hands the downstream this subscription, then subscribes to each upstream in turn.
    static func start<S: Subscriber>(_ subscriber: S, mode: Mode, _ subscribes: [(UpstreamJoin) -> Void])
    where S.Input == Output, S.Failure == Failure {
        let join = UpstreamJoin(AnySubscriber(subscriber), upstreams: subscribes.count, mode: mode)
        subscriber.receive(subscription: join)
        join.subscribe(subscribes)
    }

    private func subscribe(_ subscribes: [(UpstreamJoin) -> Void]) {
        if subscribes.isEmpty {
            lock.withLock { completion = .finished }
            drain()
        }
        for subscribe in subscribes { subscribe(self) }
    }

    /// A subscriber for the upstream at `index`.
    func side<Input>(_ index: Int, of type: Input.Type = Input.self) -> Side<Input> { Side(join: self, index: index) }

    // MARK: Downstream

    func request(_ more: Subscribers.Demand) {
        let subscriptions = lock.withLock { () -> [any Subscription] in
            demand += more
            guard case .merge = mode else { return [] }
            return upstreams.compactMap { $0 }
        }
        for subscription in subscriptions { subscription.request(more) }
        drain()
    }

    func cancel() {
        let subscriptions = lock.withLock { () -> [any Subscription] in
            downstream = nil
            waiting = []
            defer { upstreams = upstreams.map { _ in nil } }
            return upstreams.compactMap { $0 }
        }
        for subscription in subscriptions { subscription.cancel() }
    }

    // MARK: Upstreams

    fileprivate func received(_ subscription: any Subscription, at index: Int) {
        let first = lock.withLock { () -> Subscribers.Demand? in
            guard downstream != nil, completion == nil, upstreams[index] == nil else { return nil }
            upstreams[index] = subscription
            if case .merge = mode { return demand }
            return .unlimited
        }
        guard let first else { return subscription.cancel() }
        if first > 0 { subscription.request(first) }
    }

    fileprivate func received(_ value: some Any, at index: Int) {
        lock.withLock {
            guard downstream != nil, completion == nil else { return }
            switch mode {
            case .merge:
                waiting.append(value as! Output)  // the upstreams of a merge share its output type
            case .latest(let combine):
                latest[index] = value
                let values = latest.compactMap { $0 }
                if values.count == latest.count { waiting = [combine(values)] }
            }
        }
        drain()
    }

    fileprivate func received(_ end: Subscribers.Completion<Failure>, at index: Int) {
        let others = lock.withLock { () -> [any Subscription] in
            guard downstream != nil, completion == nil else { return [] }
            upstreams[index] = nil
            finished[index] = true
            switch end {
            case .failure:
                completion = end
                waiting = []
                defer { upstreams = upstreams.map { _ in nil } }
                return upstreams.compactMap { $0 }
            case .finished:
                let neverSent: Bool
                if case .latest = mode { neverSent = latest[index] == nil } else { neverSent = false }
                if neverSent || finished.allSatisfy({ $0 }) {
                    completion = .finished
                    defer { upstreams = upstreams.map { _ in nil } }
                    return upstreams.compactMap { $0 }
                }
                return []
            }
        }
        for other in others { other.cancel() }
        drain()
    }

    /// Delivers what waits while there is demand, then the completion once nothing waits.
    private func drain() {
        let target = lock.withLock { () -> AnySubscriber<Output, Failure>? in
            guard !delivering, let downstream else { return nil }
            delivering = true
            return downstream
        }
        guard let target else { return }
        while true {
            let step = lock.withLock { () -> Step in
                guard downstream != nil else {
                    delivering = false
                    return .stop
                }
                if demand > 0, !waiting.isEmpty {
                    demand -= 1
                    return .value(waiting.removeFirst())
                }
                if waiting.isEmpty, let completion {
                    downstream = nil
                    delivering = false
                    return .end(completion)
                }
                delivering = false
                return .stop
            }
            switch step {
            case .value(let value):
                let more = target.receive(value)
                if more > 0 { request(more) }
            case .end(let completion):
                target.receive(completion: completion)
                return
            case .stop:
                return
            }
        }
    }

    /// What a delivering thread does next.
    private enum Step {
        case value(Output)
        case end(Subscribers.Completion<Failure>)
        case stop
    }

    /// The subscriber to one upstream.
    struct Side<Input>: Subscriber {
        let join: UpstreamJoin
        let index: Int
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { join.received(subscription, at: index) }

        func receive(_ input: Input) -> Subscribers.Demand {
            join.received(input, at: index)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) { join.received(completion, at: index) }
    }
}
