import CoreMedia
import XCTest

/// A manual clock, on which tests of timed code step time: it stands still until advanced, tells
/// its handlers when it moves, and converts times to and from the host clock by their offset.
final class CMClockTests: XCTestCase {
    func testAManualClockMovesOnlyWhenAdvancedAndTellsItsHandlers() {
        let clock = CMClock.manual()
        XCTAssertTrue(clock.isManuallyAdvanced)
        XCTAssertFalse(CMClock.hostTimeClock.isManuallyAdvanced)
        let start = CMClockGetTime(clock)
        XCTAssertEqual(start.timescale, 1_000_000_000)
        usleep(2_000)
        XCTAssertEqual(CMClockGetTime(clock), start, "it stands still while the host clock moves")
        final class Count: @unchecked Sendable { var value = 0 }
        let told = Count()
        let key = clock.whenAdvanced { told.value += 1 }
        XCTAssertNotNil(key)
        XCTAssertNil(CMClock.hostTimeClock.whenAdvanced {}, "the host clock has no handlers to call")
        clock.advance(by: CMTime(value: 1, timescale: 30))
        XCTAssertEqual(CMClockGetTime(clock) - start, CMTime(value: 33_333_333, timescale: 1_000_000_000), "a frame, in nanoseconds")
        XCTAssertEqual(told.value, 1)
        clock.advance(by: .invalid)
        clock.advance(by: CMTime(value: -1, timescale: 1))
        XCTAssertEqual(told.value, 1, "an invalid or negative step moves nothing and tells no one")
        clock.removeAdvanceHandler(key!)
        clock.advance(by: CMTime(value: 1, timescale: 1))
        XCTAssertEqual(told.value, 1, "a removed handler is not called")
        XCTAssertEqual(CMSyncGetTime(clock), CMClockGetTime(clock))
    }

    func testTimesConvertBetweenAManualClockAndTheHostClockByTheirOffset() {
        let clock = CMClock.manual()
        let host = CMClockGetHostTimeClock()
        let onHost = CMClockGetTime(host)
        let onManual = CMSyncConvertTime(onHost, from: host, to: clock)
        XCTAssertEqual((onManual - CMClockGetTime(clock)).seconds, 0, accuracy: 0.01, "the host time now is the manual clock's now")
        clock.advance(by: CMTime(value: 5, timescale: 1))
        let later = CMSyncConvertTime(CMClockGetTime(host), from: host, to: clock)
        XCTAssertEqual((later - CMClockGetTime(clock)).seconds, 0, accuracy: 0.01, "after a step too")
        let back = CMSyncConvertTime(CMClockGetTime(clock), from: clock, to: host)
        XCTAssertEqual((back - CMClockGetTime(host)).seconds, 0, accuracy: 0.01)
        XCTAssertEqual(CMSyncConvertTime(onHost, from: host, to: host), onHost, "one clock: the same time")
        XCTAssertFalse(CMSyncConvertTime(onHost, from: host, to: NSObject()).isValid, "not a clock")
    }
}
