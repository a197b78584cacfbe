import AVFoundation
import XCTest

/// `ProcessInfo`'s activities, which capture apps begin around a recording or an export: Apple's
/// spelling compiles, activities are kept while they last, and `performActivity` ends its own.
final class ProcessInfoActivityTests: XCTestCase {
    func testActivitiesLastFromBeginToEnd() {
        let info = ProcessInfo.processInfo
        let recording = info.beginActivity(options: [.userInitiated, .idleSystemSleepDisabled], reason: "recording a movie")
        XCTAssertTrue(info.linuxActiveActivityReasons.contains("recording a movie"))
        XCTAssertTrue(ProcessInfo.ActivityOptions.userInitiated.contains(.idleSystemSleepDisabled), "as Apple defines it")
        XCTAssertFalse(ProcessInfo.ActivityOptions.userInitiatedAllowingIdleSystemSleep.contains(.idleSystemSleepDisabled))
        var ran = false
        info.performActivity(options: .background, reason: "exporting") {
            ran = info.linuxActiveActivityReasons.contains("exporting")
        }
        XCTAssertTrue(ran, "under way while the block runs")
        XCTAssertFalse(info.linuxActiveActivityReasons.contains("exporting"), "ended after it")
        info.endActivity(recording)
        XCTAssertFalse(info.linuxActiveActivityReasons.contains("recording a movie"))
        info.endActivity(NSObject())
    }
}
