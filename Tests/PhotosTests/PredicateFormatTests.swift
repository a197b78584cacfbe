import Foundation
import Photos
import XCTest

/// `NSPredicate(format:)` as PhotoKit's fetch options take it, read by the Photos module
/// (swift-corelibs-foundation has no predicate strings).
final class PredicateFormatTests: XCTestCase {
    private let trip: [String: Any] = ["title": "Trip to Köln", "count": 12, "rating": 4.5]

    private func holds(_ format: String, _ arguments: CVarArg..., for object: [String: Any]? = nil) -> Bool {
        NSPredicate(format: format, argumentArray: arguments).evaluate(with: object ?? trip)
    }

    func testComparisonsOfStringsAndNumbers() {
        XCTAssertTrue(holds("title = %@", "Trip to Köln"))
        XCTAssertTrue(holds("title == 'Trip to Köln'"))
        XCTAssertFalse(holds("title = %@", "trip to köln"), "case counts unless [c]")
        XCTAssertTrue(holds("title ==[c] %@", "TRIP TO KÖLN"))
        XCTAssertTrue(holds("title CONTAINS[cd] %@", "koln"), "[d] ignores the umlaut")
        XCTAssertTrue(holds("title BEGINSWITH %@", "Trip"))
        XCTAssertTrue(holds("title ENDSWITH %@", "Köln"))
        XCTAssertTrue(holds("title LIKE %@", "Trip*K?ln"))
        XCTAssertFalse(holds("title LIKE %@", "Trip"))
        XCTAssertTrue(holds("title != %@", "Home"))
        XCTAssertTrue(holds("count > %d", 10))
        XCTAssertTrue(holds("count <= 12"))
        XCTAssertFalse(holds("count < %d", 12))
        XCTAssertTrue(holds("rating >= %f", 4.5))
        XCTAssertTrue(holds("missing = nil"), "a key with no value equals nil")
    }

    func testCompoundsKeysAndBadFormats() {
        XCTAssertTrue(holds("title BEGINSWITH 'Trip' AND count > 3"))
        XCTAssertTrue(holds("title = 'Home' OR count == 12"))
        XCTAssertFalse(holds("NOT (count == 12)"))
        XCTAssertTrue(holds("(title = 'Home' || title = 'Work') OR count = 12"))
        XCTAssertFalse(holds("(title = 'Home' || title = 'Work') AND count = 12"))
        XCTAssertTrue(holds("%K = %@", "title", "Trip to Köln"))
        XCTAssertTrue(holds("TRUEPREDICATE"))
        // A format it cannot read is a predicate nothing satisfies, not a crash.
        XCTAssertFalse(holds("title MATCHES %@", ".*"))
        XCTAssertFalse(holds("title = 'unclosed"))
        XCTAssertFalse(holds("title = %@"), "an argument missing")
    }
}
