import CoreGraphics
import Foundation
import XCTest

/// `NSData` read as `Data` by the project's own code: every byte copied at once, from `Data`,
/// `NSData` and `NSMutableData` alike, and nothing made of other values.
final class CoreFoundationBridgingTests: XCTestCase {
    private let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

    func testNSDataIsCopiedWhole() {
        XCTAssertEqual(Data(copying: NSData(data: bytes)), bytes)
        XCTAssertEqual(Data(copying: NSMutableData(data: bytes)), bytes)
        XCTAssertEqual(Data(copying: NSData()), Data())
    }

    func testDataAndNSDataValuesAreRead() {
        XCTAssertEqual(Data(bytesOf: bytes), bytes)
        XCTAssertEqual(Data(bytesOf: NSData(data: bytes)), bytes)
        XCTAssertEqual(Data(bytesOf: NSMutableData(data: bytes) as Any), bytes)
        XCTAssertEqual(Data(bytesOf: bytes[10..<20]), bytes[10..<20])
        XCTAssertNil(Data(bytesOf: nil))
        XCTAssertNil(Data(bytesOf: "text"))
        XCTAssertNil(Data(bytesOf: [UInt8](bytes)))
    }

    func testAProviderHoldsACopyOfItsData() {
        let data = NSMutableData(data: bytes)
        guard let provider = CGDataProvider(data: data) else { return XCTFail("no provider") }
        data.resetBytes(in: NSRange(location: 0, length: 100))
        XCTAssertEqual(provider.data.map { Data(copying: $0) }, bytes)
    }
}
