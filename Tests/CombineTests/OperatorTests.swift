import Combine
import Foundation
import XCTest

/// The operators Apple's Combine has beyond OpenCombine's: combining the latest values, merging,
/// and collecting by time.
final class OperatorTests: XCTestCase {
    private enum Failure: Error, Equatable { case broken }

    /// A subscriber that asks for values one request at a time.
    private final class Asking<Input, Failure: Error>: Subscriber, @unchecked Sendable {
        let values = Locked<[Input]>([])
        let completions = Locked<[Subscribers.Completion<Failure>]>([])
        private var subscription: (any Subscription)?
        private let first: Subscribers.Demand
        init(first: Subscribers.Demand) { self.first = first }
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(first)
        }
        func receive(_ input: Input) -> Subscribers.Demand {
            values.withLock { $0.append(input) }
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) { completions.withLock { $0.append(completion) } }
        func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
        func cancel() { subscription?.cancel() }
    }

    func testCombineLatestSendsTheNewestOfEachOnceBothHaveSent() {
        let a = PassthroughSubject<Int, Failure>(), b = PassthroughSubject<String, Failure>()
        var pairs: [String] = []
        var finished = false
        let subscription = a.combineLatest(b).sink(receiveCompletion: { _ in finished = true }, receiveValue: { pairs.append("\($0)\($1)") })
        a.send(1)
        XCTAssertEqual(pairs, [], "nothing until both have sent")
        b.send("x")
        a.send(2)
        b.send("y")
        XCTAssertEqual(pairs, ["1x", "2x", "2y"])
        a.send(completion: .finished)
        b.send("z")
        XCTAssertEqual(pairs, ["1x", "2x", "2y", "2z"], "a finished upstream's last value goes on being combined")
        XCTAssertFalse(finished, "not finished until both have")
        b.send(completion: .finished)
        XCTAssertTrue(finished)
        subscription.cancel()
    }

    func testCombineLatestFailsWhenEitherFailsAndFinishesIfOneEndsWithoutAValue() {
        let a = PassthroughSubject<Int, Failure>(), b = PassthroughSubject<Int, Failure>()
        var completions: [Subscribers.Completion<Failure>] = []
        var sums: [Int] = []
        let failing = a.combineLatest(b) { $0 + $1 }.sink(receiveCompletion: { completions.append($0) }, receiveValue: { sums.append($0) })
        a.send(1)
        b.send(10)
        b.send(completion: .failure(.broken))
        a.send(2)
        XCTAssertEqual(sums, [11])
        XCTAssertEqual(completions, [.failure(.broken)], "failed at once, nothing after")
        failing.cancel()

        let c = PassthroughSubject<Int, Failure>(), d = PassthroughSubject<Int, Failure>()
        var ended: [Subscribers.Completion<Failure>] = []
        let empty = c.combineLatest(d).sink(receiveCompletion: { ended.append($0) }, receiveValue: { _ in })
        c.send(1)
        d.send(completion: .finished)
        XCTAssertEqual(ended, [.finished], "an upstream that ends without a value leaves nothing to combine")
        empty.cancel()
    }

    func testCombineLatestOfThreeAndFourAndTheNewestWaitsForDemand() {
        let a = CurrentValueSubject<Int, Never>(1), b = CurrentValueSubject<Int, Never>(2), c = CurrentValueSubject<Int, Never>(3)
        let d = CurrentValueSubject<Int, Never>(4)
        var three: [[Int]] = [], four: [Int] = []
        let x = a.combineLatest(b, c).sink { three.append([$0, $1, $2]) }
        let y = Publishers.CombineLatest4(a, b, c, d).map { $0 + $1 + $2 + $3 }.sink { four.append($0) }
        c.send(30)
        XCTAssertEqual(three, [[1, 2, 3], [1, 2, 30]])
        XCTAssertEqual(four, [10, 37])
        x.cancel()
        y.cancel()

        let asking = Asking<(Int, Int), Never>(first: .max(1))
        a.combineLatest(b).subscribe(asking)
        a.send(5)
        a.send(6)
        b.send(7)
        XCTAssertEqual(asking.values.withLock { $0.map { [$0.0, $0.1] } }, [[1, 2]], "one asked for, one sent")
        asking.request(.max(1))
        XCTAssertEqual(asking.values.withLock { $0.map { [$0.0, $0.1] } }, [[1, 2], [6, 7]], "then the newest, not what came between")
        asking.cancel()
    }

    func testMergeSendsEveryValueInOrderAndFinishesWhenAllHave() {
        let a = PassthroughSubject<Int, Failure>(), b = PassthroughSubject<Int, Failure>(), c = PassthroughSubject<Int, Failure>()
        var values: [Int] = []
        var completions: [Subscribers.Completion<Failure>] = []
        let subscription = a.merge(with: b, c).sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        a.send(1)
        c.send(3)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        c.send(4)
        XCTAssertEqual(values, [1, 3, 2, 4])
        XCTAssertEqual(completions, [])
        c.send(completion: .finished)
        XCTAssertEqual(completions, [.finished])
        subscription.cancel()

        XCTAssertEqual(Publishers.MergeMany([1, 2].publisher, [3].publisher).publishers.count, 2)
        var collected: [Int] = []
        _ = Publishers.MergeMany([[1, 2].publisher, [3].publisher]).merge(with: [4, 5].publisher).collect().sink { collected = $0 }
        XCTAssertEqual(collected, [1, 2, 3, 4, 5])
        var failures: [Subscribers.Completion<Failure>] = []
        _ = Publishers.Merge(Fail<Int, Failure>(error: .broken), Just(1).setFailureType(to: Failure.self))
            .sink(receiveCompletion: { failures.append($0) }, receiveValue: { _ in })
        XCTAssertEqual(failures, [.failure(.broken)])
        var nothing: [Subscribers.Completion<Never>] = []
        _ = Publishers.MergeMany([Just<Int>]()).sink(receiveCompletion: { nothing.append($0) }, receiveValue: { _ in })
        XCTAssertEqual(nothing, [.finished], "a merge of nothing finishes")
    }

    func testAMergeAsksItsUpstreamsForWhatItsSubscriberAsksFor() {
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let asking = Asking<Int, Never>(first: .max(2))
        a.merge(with: b).subscribe(asking)
        a.send(1)
        b.send(10)
        a.send(2)
        a.send(3)
        a.send(4)
        XCTAssertEqual(asking.values.withLock { $0 }, [1, 10], "two asked for")
        asking.request(.max(5))
        XCTAssertEqual(asking.values.withLock { $0 }, [1, 10, 2], "what waited, in order; a subject drops what no demand asked for")
        asking.cancel()
    }

    func testAMergeOfSubjectsSentFromManyThreadsDeliversEachValueOnceAndOneAtATime() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let values = Locked<[Int]>([])
        let inside = Locked(0), overlapped = Locked(false)
        let subscription = Publishers.MergeMany(subjects).sink { value in
            if inside.withLock({ n -> Int in
                n += 1
                return n
            }) > 1 {
                overlapped.withLock { $0 = true }
            }
            values.withLock { $0.append(value) }
            inside.withLock { $0 -= 1 }
        }
        nonisolated(unsafe) let senders = subjects
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for n in 0..<2_000 { senders[thread].send(thread * 10_000 + n) }
        }
        let all = values.withLock { $0 }
        XCTAssertEqual(all.count, 8_000)
        XCTAssertFalse(overlapped.withLock { $0 }, "the subscriber is called one value at a time")
        for thread in 0..<4 {
            let own = all.filter { $0 / 10_000 == thread }
            XCTAssertEqual(own, own.sorted(), "each upstream's values in the order it sent them")
            XCTAssertEqual(own.count, 2_000)
        }
        subscription.cancel()
    }

    func testCollectingByTimeAndByCountOnAScheduler() {
        let scheduler = ManualScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var groups: [[Int]] = []
        var finished = false
        let byTime = subject.collect(.byTime(scheduler, .seconds(1)))
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { groups.append($0) })
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(999))
        XCTAssertEqual(groups, [], "not before the interval")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(groups, [[1, 2]])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(groups, [[1, 2]], "an interval with no values sends no group")
        subject.send(3)
        subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(groups, [[1, 2], [3]], "what was collected is sent before the end")
        XCTAssertTrue(finished)
        byTime.cancel()

        let counted = PassthroughSubject<Int, Never>()
        var pairs: [[Int]] = []
        let byCount = counted.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).sink { pairs.append($0) }
        for n in 1...5 { counted.send(n) }
        scheduler.advance()
        XCTAssertEqual(pairs, [[1, 2], [3, 4]], "a group each time the count is reached")
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(pairs, [[1, 2], [3, 4], [5]], "the rest when the interval ends")
        byCount.cancel()
        counted.send(6)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(pairs.count, 3, "nothing once cancelled")
    }
}
