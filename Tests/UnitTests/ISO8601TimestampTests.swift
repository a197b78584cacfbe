import AVFoundation
import Foundation
import XCTest

/// A metadata date's ISO 8601 timestamp, written and read without ICU, is Foundation's.
final class ISO8601TimestampTests: XCTestCase {
    private let dates: [Date] = [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_764_571_920), Date(timeIntervalSince1970: 1_764_571_920.999),
        Date(timeIntervalSince1970: 951_782_400),  // 29 February 2000
        Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: -2_208_988_800.5),  // 1900, and half a second before
        Date(timeIntervalSince1970: 253_402_300_799),  // 9999-12-31T23:59:59Z
    ]

    func testTheTimestampIsFoundationsDefaultISO8601Form() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<200).map { _ in Date(timeIntervalSince1970: Double.random(in: -5_000_000_000...10_000_000_000, using: &generator)) }
        for date in dates + random {
            XCTAssertEqual(ISO8601Timestamp.string(from: date), date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }

    func testATimestampReadsBackAsFoundationReadsIt() throws {
        for date in dates {
            let text = date.formatted(.iso8601)
            XCTAssertEqual(ISO8601Timestamp.date(from: text), try Date(text, strategy: .iso8601), text)
        }
        let base = Date(timeIntervalSince1970: 1_764_571_920)
        XCTAssertEqual(ISO8601Timestamp.date(from: "2025-12-01T07:52:00+01:00"), base, "an offset east of UTC")
        XCTAssertEqual(ISO8601Timestamp.date(from: "2025-11-30T22:52:00-08:00"), base, "and west")
        XCTAssertEqual(ISO8601Timestamp.date(from: "2025-12-01T06:52:00.250Z")?.timeIntervalSince1970 ?? 0, base.timeIntervalSince1970 + 0.25, accuracy: 1e-6)
        for broken in [
            "", "2025-12-01", "2025-12-01T06:52:00", "2025-13-01T06:52:00Z", "2025-02-30T06:52:00Z", "2025-12-01T24:00:00Z", "2025-12-01T06:52:00Zjunk",
            "2025-12-01T06:52:00.Z",
        ] {
            XCTAssertEqual(
                ISO8601Timestamp.date(from: broken), try? Date(broken, strategy: .iso8601), "\(broken): what the parser does not take is Foundation's to read")
        }
    }

    func testAMetadataItemsDateIsWrittenAndReadAsATimestamp() {
        let item = AVMutableMetadataItem()
        item.value = Date(timeIntervalSince1970: 1_764_571_920) as NSDate
        XCTAssertEqual(item.stringValue, "2025-12-01T06:52:00Z")
        item.value = "2025-12-01T07:52:00+01:00" as NSString
        XCTAssertEqual(item.dateValue, Date(timeIntervalSince1970: 1_764_571_920))
    }
}
