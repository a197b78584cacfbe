import XCTest
import CoreGraphics

/// The Darwin and Core Foundation names Apple's Foundation brings and media code uses: the host
/// time and its units, autorelease pools, and running and stopping a run loop.
final class DarwinNamesTests: XCTestCase {
    private func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    func testHostTimeIsTheMonotonicClockInNanosecondsWithATimebaseOfOne() {
        var info = mach_timebase_info_data_t()
        XCTAssertEqual(mach_timebase_info(&info), KERN_SUCCESS)
        XCTAssertEqual(info, mach_timebase_info_data_t(numer: 1, denom: 1))
        let before = monotonicNanoseconds()
        let host = mach_absolute_time()
        let after = monotonicNanoseconds()
        XCTAssertTrue((before...after).contains(host), "\(before) <= \(host) <= \(after)")
        // The conversion media code writes gives seconds.
        let seconds = Double(host * UInt64(info.numer) / UInt64(info.denom)) / Double(NSEC_PER_SEC)
        XCTAssertEqual(seconds, Double(before) / 1e9, accuracy: 1)
        XCTAssertEqual([NSEC_PER_SEC, NSEC_PER_MSEC, NSEC_PER_USEC, USEC_PER_SEC], [1_000_000_000, 1_000_000, 1_000, 1_000_000])
    }

    func testAnAutoreleasePoolRunsItsBlockAndPassesOnWhatItReturnsOrThrows() {
        var ran = 0
        let value = autoreleasepool { () -> Int in
            ran += 1
            return 42
        }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(ran, 1)
        struct Failure: Error {}
        XCTAssertThrowsError(try autoreleasepool { () throws -> Int in throw Failure() }) { XCTAssertTrue($0 is Failure) }
    }

    /// A tool's thread kept alive by `CFRunLoopRun()` until another calls `CFRunLoopStop(_:)`.
    func testARunLoopRunsUntilStoppedFromAnotherThread() {
        let loop = LoopHandle()
        let ended = expectation(description: "CFRunLoopRun returned")
        let thread = Thread {
            // A timer far in the future is a source to wait for.
            let timer = Timer(timeInterval: 3600, repeats: false) { _ in }
            RunLoop.current.add(timer, forMode: .default)
            loop.set(CFRunLoopGetCurrent())
            CFRunLoopRun()
            timer.invalidate()
            loop.end()
            ended.fulfill()
        }
        thread.start()
        let started = expectation(description: "the thread's run loop is known")
        loop.whenSet { started.fulfill() }
        wait(for: [started], timeout: 30)
        // It runs until it is stopped, not before.
        let early = expectation(description: "CFRunLoopRun returned before CFRunLoopStop")
        early.isInverted = true
        loop.whenEnded { early.fulfill() }
        wait(for: [early], timeout: 0.3)
        CFRunLoopStop(loop.value)
        wait(for: [ended], timeout: 30)
        XCTAssertTrue(CFRunLoopGetMain() === RunLoop.main)
        XCTAssertEqual(kCFRunLoopDefaultMode, CFRunLoopMode.defaultMode)
        XCTAssertEqual(CFRunLoopMode.defaultMode.rawValue as String, "kCFRunLoopDefaultMode")
    }

    func testRunningInAModeSaysWhyItReturned() {
        let result = RunResult()
        let done = expectation(description: "the runs returned")
        let thread = Thread {
            // Asked to run for no time with nothing to wait for: finished at once.
            let empty = CFRunLoopRunInMode(.defaultMode, 0, false)
            let timer = Timer(timeInterval: 3600, repeats: false) { _ in }
            RunLoop.current.add(timer, forMode: .default)
            let timed = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.1, false)
            CFRunLoopStop(CFRunLoopGetCurrent())
            let stopped = CFRunLoopRunInMode(.defaultMode, 10, false)
            timer.invalidate()
            result.set([empty, timed, stopped])
            done.fulfill()
        }
        thread.start()
        wait(for: [done], timeout: 60)
        XCTAssertEqual(result.value, [.finished, .timedOut, .stopped])
    }
}

/// A run loop one thread publishes and another waits for.
private final class LoopHandle: @unchecked Sendable {
    private let condition = NSCondition()
    private var loop: CFRunLoop?
    private var waiter: (@Sendable () -> Void)?

    var value: CFRunLoop? { condition.withLock { loop } }

    func set(_ loop: CFRunLoop) {
        let waiter = condition.withLock { () -> (@Sendable () -> Void)? in
            self.loop = loop
            return self.waiter
        }
        waiter?()
    }

    private var ended = false
    private var endWaiter: (@Sendable () -> Void)?

    func end() {
        let waiter = condition.withLock { () -> (@Sendable () -> Void)? in
            ended = true
            return endWaiter
        }
        waiter?()
    }

    func whenEnded(_ body: @escaping @Sendable () -> Void) {
        let now = condition.withLock { () -> Bool in
            if ended { return true }
            endWaiter = body
            return false
        }
        if now { body() }
    }

    func whenSet(_ body: @escaping @Sendable () -> Void) {
        let now = condition.withLock { () -> Bool in
            if loop != nil { return true }
            waiter = body
            return false
        }
        if now { body() }
    }
}

/// What a thread's runs returned.
private final class RunResult: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CFRunLoopRunResult] = []
    var value: [CFRunLoopRunResult] { lock.withLock { results } }
    func set(_ results: [CFRunLoopRunResult]) { lock.withLock { self.results = results } }
}
