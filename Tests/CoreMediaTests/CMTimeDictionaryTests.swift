import CoreMedia
import XCTest

/// Times and ranges as dictionaries in Apple's keys and back, as property lists keep them.
final class CMTimeDictionaryTests: XCTestCase {
    func testATimeRoundTripsThroughItsDictionaryWithApplesKeys() throws {
        let time = CMTime(value: 1001, timescale: 30000)
        let dictionary = try XCTUnwrap(CMTimeCopyAsDictionary(time, allocator: kCFAllocatorDefault) as? [String: Any])
        XCTAssertEqual(dictionary["value"] as? Int64, 1001)
        XCTAssertEqual(dictionary["timescale"] as? Int32, 30000)
        XCTAssertEqual(dictionary["epoch"] as? Int64, 0)
        XCTAssertEqual(dictionary["flags"] as? UInt32, CMTimeFlags.valid.rawValue)
        XCTAssertEqual(CMTimeMakeFromDictionary(dictionary as NSDictionary), time)
        for special in [CMTime.positiveInfinity, .negativeInfinity, .indefinite, .zero] {
            let back = CMTimeMakeFromDictionary(CMTimeCopyAsDictionary(special, allocator: nil))
            XCTAssertEqual(back.flags, special.flags, "\(special)")
        }
        XCTAssertFalse(CMTimeMakeFromDictionary(nil).isValid)
        XCTAssertFalse(CMTimeMakeFromDictionary(["value": 1] as NSDictionary).isValid, "a dictionary without a timescale holds no time")
    }

    func testARangeRoundTripsThroughItsDictionary() throws {
        let range = CMTimeRange(start: CMTime(value: 3, timescale: 2), duration: CMTime(value: 10, timescale: 600))
        let dictionary = try XCTUnwrap(CMTimeRangeCopyAsDictionary(range, allocator: nil))
        XCTAssertNotNil((dictionary as? [String: Any])?["start"] as? NSDictionary)
        XCTAssertEqual(CMTimeRangeMakeFromDictionary(dictionary), range)
        // Through a property list, as saved settings keep it.
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        let read = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary)
        XCTAssertEqual(CMTimeRangeMakeFromDictionary(read), range)
        XCTAssertFalse(CMTimeRangeMakeFromDictionary([:] as NSDictionary).isValid)
    }
}
