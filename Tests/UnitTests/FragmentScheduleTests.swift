import CoreMedia
import XCTest
@testable import AVFoundation

/// When a fragmented movie asks for its next fragment: at its interval, the first sooner, and
/// once a fragment's samples reach a bound, since the muxer holds them in memory until the cut.
final class FragmentScheduleTests: XCTestCase {
    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 600) }

    func testFragmentsComeAtTheIntervalAndTheFirstSooner() {
        var schedule = FragmentSchedule(interval: seconds(10), firstInterval: seconds(1))
        XCTAssertFalse(schedule.isDue(at: seconds(0.5)))
        XCTAssertTrue(schedule.isDue(at: seconds(1)), "the first fragment waits no longer than the first interval")
        XCTAssertFalse(schedule.isDue(at: seconds(10.9)))
        XCTAssertTrue(schedule.isDue(at: seconds(11)), "then one every interval, counted from the last")
    }

    func testAFragmentIsDueOnceItsSamplesReachTheBoundWhateverTheInterval() {
        var schedule = FragmentSchedule(interval: seconds(10), firstInterval: seconds(1), maximumBytes: 1000)
        XCTAssertTrue(schedule.isDue(at: seconds(1), bytesMuxed: 400))
        XCTAssertFalse(schedule.isDue(at: seconds(2), bytesMuxed: 1399), "999 bytes since the last fragment")
        XCTAssertTrue(schedule.isDue(at: seconds(2.1), bytesMuxed: 1400), "1,000 bytes since the last fragment")
        XCTAssertFalse(schedule.isDue(at: seconds(3), bytesMuxed: 2000), "the bytes are counted from the fragment just asked for")
        XCTAssertTrue(schedule.isDue(at: seconds(12.1), bytesMuxed: 2100), "a quiet recording still gets its fragment at the interval")
        XCTAssertFalse(schedule.isDue(at: seconds(13), bytesMuxed: 2200), "and the bytes are counted from there too")
    }

    func testNoIntervalMeansNoFragmentsWhateverTheBytes() {
        var schedule = FragmentSchedule(interval: .invalid, firstInterval: seconds(1), maximumBytes: 1000)
        XCTAssertFalse(schedule.isDue(at: seconds(5), bytesMuxed: 1_000_000), "an unfragmented movie writes its samples straight to the file")
    }
}
