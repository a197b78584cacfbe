import CoreMedia
import XCTest

/// Darwin's host time is the host clock's: `mach_absolute_time()` and `CMClockGetHostTimeClock()` give the same numbers.
final class HostClockTests: XCTestCase {
    func testMachAbsoluteTimeCountsOnTheHostClock() {
        let clock = CMClockGetHostTimeClock()
        let before = CMClockGetTime(clock)
        let host = mach_absolute_time()
        let after = CMClockGetTime(clock)
        let time = CMClockMakeHostTimeFromSystemUnits(host)
        XCTAssertTrue(before <= time && time <= after, "\(before.seconds) <= \(time.seconds) <= \(after.seconds)")
    }
}
