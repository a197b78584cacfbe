import CoreVideo
import Foundation
import XCTest

/// Whole numbers read out of settings and attribute dictionaries, in every spelling real code
/// writes them (`size.width` is a CGFloat), and nothing for what is no number.
final class AttributeValueTests: XCTestCase {
    func testEveryNumericSpellingIsRead() {
        let values: [Any] = [
            1920, Int32(1920), UInt32(1920), UInt8(200), Int64(1920), CGFloat(1920), 1920.0, Float(1920), NSNumber(value: 1920), NSNumber(value: 1920.7),
        ]
        XCTAssertEqual(values.map(attributeInt), [1920, 1920, 1920, 200, 1920, 1920, 1920, 1920, 1920, 1920])
        XCTAssertEqual(attributeInt(CGFloat(719.9)), 719, "toward zero, as NSNumber's intValue")
        XCTAssertEqual(attributeOSType(NSNumber(value: kCVPixelFormatType_32BGRA)), kCVPixelFormatType_32BGRA)
    }

    func testWhatIsNoNumberGivesNothingRatherThanATrap() {
        for value: Any? in [nil, "1920", Double.nan, CGFloat.infinity, -Double.infinity, Double.greatestFiniteMagnitude, UInt64.max, [1920]] {
            XCTAssertNil(attributeInt(value), "\(String(describing: value))")
        }
    }
}
