import AVFAudio
import XCTest

final class AudioTimeTests: XCTestCase {
    func testATimeSaysWhichOfItsTimesAreValid() {
        let host = AVAudioTime(hostTime: 5_000_000_000)
        XCTAssertTrue(host.isHostTimeValid)
        XCTAssertFalse(host.isSampleTimeValid)
        let sample = AVAudioTime(sampleTime: 48_000, atRate: 48_000)
        XCTAssertTrue(sample.isSampleTimeValid)
        XCTAssertFalse(sample.isHostTimeValid)
        XCTAssertEqual(sample.sampleTime, 48_000)
        XCTAssertEqual(sample.audioTimeStamp.mFlags, .sampleTimeValid)
    }

    func testHostTimeIsNanosecondsOfTheHostClock() {
        XCTAssertEqual(AVAudioTime.hostTime(forSeconds: 1.5), 1_500_000_000)
        XCTAssertEqual(AVAudioTime.seconds(forHostTime: 250_000_000), 0.25)
        XCTAssertEqual(AVAudioTime.hostTime(forSeconds: .nan), 0)
        XCTAssertEqual(AVAudioTime.hostTime(forSeconds: -3), 0)
        XCTAssertEqual(AVAudioTime.hostTime(forSeconds: 1e300), UInt64.max)
    }

    func testExtrapolationFillsTheMissingTimeFromAnAnchor() throws {
        let anchor = AVAudioTime(hostTime: 10_000_000_000, sampleTime: 480_000, atRate: 48_000)
        let later = try XCTUnwrap(AVAudioTime(hostTime: 10_500_000_000).extrapolateTime(fromAnchor: anchor))
        XCTAssertEqual(later.sampleTime, 504_000, "half a second later at 48 kHz")
        XCTAssertTrue(later.isHostTimeValid && later.isSampleTimeValid)
        let earlier = try XCTUnwrap(AVAudioTime(sampleTime: 456_000, atRate: 48_000).extrapolateTime(fromAnchor: anchor))
        XCTAssertEqual(earlier.hostTime, 9_500_000_000)
        let otherRate = try XCTUnwrap(
            AVAudioTime(hostTime: 11_000_000_000).extrapolateTime(fromAnchor: AVAudioTime(hostTime: 10_000_000_000, sampleTime: 0, atRate: 44_100)))
        XCTAssertEqual(otherRate.sampleTime, 44_100)
        XCTAssertNil(AVAudioTime(hostTime: 1).extrapolateTime(fromAnchor: AVAudioTime(hostTime: 2)), "an anchor needs both times")
    }
}
