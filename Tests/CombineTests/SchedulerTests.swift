import Combine
import Foundation
import XCTest

/// Dispatch queues, run loops and operation queues as Combine's schedulers, as Apple's Foundation makes them.
final class SchedulerTests: XCTestCase {
    private static let queueKey = DispatchSpecificKey<String>()

    func testADispatchQueueStridesLiteralsAreSeconds() throws {
        let second: DispatchQueue.SchedulerTimeType.Stride = 1
        XCTAssertEqual(second.magnitude, 1_000_000_000)
        let half: DispatchQueue.SchedulerTimeType.Stride = 0.5
        XCTAssertEqual(half.magnitude, 500_000_000)
        XCTAssertEqual(DispatchQueue.SchedulerTimeType.Stride.milliseconds(5).magnitude, 5_000_000)
        XCTAssertEqual(DispatchQueue.SchedulerTimeType.Stride.microseconds(7).magnitude, 7_000)
        XCTAssertEqual(DispatchQueue.SchedulerTimeType.Stride.seconds(2).timeInterval, .nanoseconds(2_000_000_000))
        XCTAssertEqual(DispatchQueue.SchedulerTimeType.Stride(.never).magnitude, .max, "never is the longest interval")
        XCTAssertEqual(DispatchQueue.SchedulerTimeType.Stride.seconds(Int.max).magnitude, .max, "clamped, not overflowed")
        XCTAssertEqual((second + half).magnitude, 1_500_000_000)
        XCTAssertEqual((half - second).magnitude, -500_000_000)
        XCTAssertTrue(half < second)
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let later = start.advanced(by: .microseconds(3))
        XCTAssertEqual(later.dispatchTime.uptimeNanoseconds, 13_000)
        XCTAssertEqual(start.distance(to: later).magnitude, 3_000)
        XCTAssertEqual(later.distance(to: start).magnitude, -3_000)
        XCTAssertEqual(start.advanced(by: .nanoseconds(-20_000)).dispatchTime.uptimeNanoseconds, 0, "not before the clock's start")
        let coded = try JSONDecoder().decode(DispatchQueue.SchedulerTimeType.self, from: JSONEncoder().encode(later))
        XCTAssertEqual(coded, later)
        XCTAssertEqual(DispatchQueue.main.minimumTolerance, .nanoseconds(0))
    }

    func testValuesAreReceivedOnTheDispatchQueueGiven() {
        let queue = DispatchQueue(label: "receiver")
        queue.setSpecific(key: Self.queueKey, value: "receiver")
        let received = expectation(description: "received")
        let seen = Locked<[String?]>([])
        let subscription = [1, 2, 3].publisher
            .receive(on: queue)
            .sink { _ in
                seen.withLock { $0.append(DispatchQueue.getSpecific(key: Self.queueKey)) }
                if seen.withLock({ $0.count }) == 3 { received.fulfill() }
            }
        wait(for: [received], timeout: 10)
        XCTAssertEqual(seen.withLock { $0 }, ["receiver", "receiver", "receiver"])
        subscription.cancel()
    }

    func testADelayOnADispatchQueueWaitsAtLeastItsInterval() {
        let queue = DispatchQueue(label: "delay")
        let arrived = expectation(description: "arrived")
        let start = DispatchTime.now().uptimeNanoseconds
        let elapsed = Locked<UInt64>(0)
        let subscription = Just(1).delay(for: .milliseconds(50), scheduler: queue).sink { _ in
            elapsed.withLock { $0 = DispatchTime.now().uptimeNanoseconds - start }
            arrived.fulfill()
        }
        wait(for: [arrived], timeout: 10)
        XCTAssertGreaterThanOrEqual(elapsed.withLock { $0 }, 50_000_000)
        subscription.cancel()
    }

    func testARepeatingDispatchScheduleStopsWhenCancelled() {
        let queue = DispatchQueue(label: "repeating")
        let count = Locked(0)
        let third = expectation(description: "three")
        let cancellable = Locked<(any Cancellable)?>(nil)
        queue.sync {
            cancellable.withLock {
                $0 = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
                    let n = count.withLock { n -> Int in
                        n += 1
                        return n
                    }
                    if n == 3 {
                        cancellable.withLock { $0?.cancel() }
                        third.fulfill()
                    }
                }
            }
        }
        wait(for: [third], timeout: 10)
        // Ten intervals later nothing more has run: cancelled on the queue, it stays cancelled.
        let later = expectation(description: "later")
        queue.asyncAfter(deadline: .now() + .milliseconds(50)) { later.fulfill() }
        wait(for: [later], timeout: 10)
        XCTAssertEqual(count.withLock { $0 }, 3)
    }

    func testARunLoopDeliversOnItsThread() {
        let received = expectation(description: "received")
        let onMain = Locked<Bool?>(nil)
        let subscription = Just(1)
            .subscribe(on: DispatchQueue.global())
            .receive(on: RunLoop.main)
            .sink { _ in
                onMain.withLock { $0 = Thread.isMainThread }
                received.fulfill()
            }
        wait(for: [received], timeout: 10)  // runs the main run loop
        XCTAssertEqual(onMain.withLock { $0 }, true)
        subscription.cancel()
        let stride: RunLoop.SchedulerTimeType.Stride = .milliseconds(250)
        XCTAssertEqual(stride.timeInterval, 0.25)
        let now = RunLoop.main.now
        XCTAssertEqual(now.distance(to: now.advanced(by: 2)).magnitude, 2, accuracy: 1e-9)
    }

    func testARunLoopRunsADelayedActionNoSooner() {
        let ran = expectation(description: "ran")
        let start = Date()
        let waited = Locked<TimeInterval>(0)
        RunLoop.main.schedule(after: RunLoop.main.now.advanced(by: .milliseconds(40))) {
            waited.withLock { $0 = Date().timeIntervalSince(start) }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
        XCTAssertGreaterThanOrEqual(waited.withLock { $0 }, 0.039)
    }

    func testAnOperationQueueRunsScheduledWorkAsOperations() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let received = expectation(description: "received")
        let current = Locked<Bool>(false)
        let subscription = Just(1).receive(on: queue).sink { _ in
            current.withLock { $0 = OperationQueue.current === queue }
            received.fulfill()
        }
        wait(for: [received], timeout: 10)
        XCTAssertTrue(current.withLock { $0 }, "run by the queue")
        subscription.cancel()
        let repeated = expectation(description: "repeated")
        repeated.expectedFulfillmentCount = 2
        repeated.assertForOverFulfill = false
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(5)) { repeated.fulfill() }
        wait(for: [repeated], timeout: 10)
        timer.cancel()
    }
}

/// A value shared with callbacks on other threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
