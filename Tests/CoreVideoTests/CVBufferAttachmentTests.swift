import CoreVideo
import XCTest

/// A buffer's attachments through Core Video's functions: the current ones and the older
/// spellings real code still calls.
final class CVBufferAttachmentTests: XCTestCase {
    private func buffer() throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &made), kCVReturnSuccess)
        return try XCTUnwrap(made)
    }

    func testAttachmentsAreFoundByModeAndByKey() throws {
        let pixels = try buffer()
        let empty = try XCTUnwrap(CVBufferGetAttachments(pixels, .shouldPropagate), "the older API gives an empty dictionary")
        XCTAssertEqual((empty as NSDictionary).count, 0)
        XCTAssertNil(CVBufferCopyAttachments(pixels, .shouldPropagate), "the current one gives none")
        XCTAssertFalse(CVBufferHasAttachment(pixels, kCVImageBufferYCbCrMatrixKey))

        CVBufferSetAttachment(pixels, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, .shouldPropagate)
        CVBufferSetAttachment(pixels, "Note" as CFString, "kept here" as CFString, .shouldNotPropagate)
        XCTAssertTrue(CVBufferHasAttachment(pixels, kCVImageBufferYCbCrMatrixKey))
        XCTAssertTrue(CVBufferHasAttachment(pixels, "Note" as CFString), "found whatever its mode")
        let propagating = try XCTUnwrap(CVBufferGetAttachments(pixels, .shouldPropagate)) as NSDictionary
        XCTAssertEqual(propagating.count, 1)
        XCTAssertEqual(propagating[kCVImageBufferYCbCrMatrixKey as String] as? String, kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)
        let staying = try XCTUnwrap(CVBufferGetAttachments(pixels, .shouldNotPropagate)) as NSDictionary
        XCTAssertEqual(staying["Note"] as? String, "kept here")

        CVBufferRemoveAttachment(pixels, kCVImageBufferYCbCrMatrixKey)
        XCTAssertFalse(CVBufferHasAttachment(pixels, kCVImageBufferYCbCrMatrixKey))
    }

    func testATimeAttachedAsIntegersReadsAsNumbers() throws {
        let pixels = try buffer()
        XCTAssertNil(pixels.attachedTime)
        pixels.attachTime(value: 123_456_789, timescale: 1_000_000_000)
        XCTAssertEqual((CVBufferCopyAttachment(pixels, kCVBufferTimeValueKey, nil) as? NSNumber)?.int64Value, 123_456_789)
        var mode = CVAttachmentMode.shouldPropagate
        XCTAssertEqual((CVBufferCopyAttachment(pixels, kCVBufferTimeScaleKey, &mode) as? NSNumber)?.int32Value, 1_000_000_000)
        XCTAssertEqual(mode, .shouldNotPropagate)
        let staying = try XCTUnwrap(CVBufferCopyAttachments(pixels, .shouldNotPropagate)) as NSDictionary
        XCTAssertEqual((staying[kCVBufferTimeValueKey as String] as? NSNumber)?.int64Value, 123_456_789)
        XCTAssertNil(CVBufferCopyAttachments(pixels, .shouldPropagate), "the time does not propagate")
        XCTAssertEqual(pixels.attachedTime?.value, 123_456_789)
        XCTAssertEqual(pixels.attachedTime?.timescale, 1_000_000_000)
        // Set as numbers, the time reads the same.
        CVBufferSetAttachment(pixels, kCVBufferTimeValueKey, NSNumber(value: 42), .shouldNotPropagate)
        XCTAssertEqual(pixels.attachedTime?.value, 42)
    }
}
