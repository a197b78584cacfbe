import CoreMedia
import CoreVideo
import XCTest

/// Core Media's tags: a category and a 64-bit value, equal by both, with typed values.
final class CMTagTests: XCTestCase {
    func testTagsHoldTheirValuesAndCompareByCategoryAndValue() {
        let left = CMTag.stereoView(.leftEye)
        XCTAssertEqual(left.value, .leftEye)
        XCTAssertEqual(left.rawTagValue, .flags(1))
        XCTAssertEqual(CMTag.stereoView([.leftEye, .rightEye]).rawTagValue, .flags(3))
        XCTAssertEqual(CMTag.videoLayerID(7).rawTagValue, .int64(7))
        XCTAssertEqual(CMTag.stereoViewInterpretation(.stereoOrderReversed).value, .stereoOrderReversed)
        XCTAssertEqual(left, CMTag.stereoView(.leftEye) as CMTag)
        XCTAssertNotEqual(left as CMTag, CMTag.stereoView(.rightEye) as CMTag)
        // The same number in two categories is two tags.
        XCTAssertNotEqual(CMTag.videoLayerID(1) as CMTag, CMTag.stereoView(.leftEye) as CMTag)
        XCTAssertEqual(Set<CMTag>([left, .stereoView(.leftEye), .videoLayerID(0)]).count, 2)
        XCTAssertEqual(left.description, "{category:'eyes' value:0x1}")
        XCTAssertEqual(CMTag.videoLayerID(2).description, "{category:'vlay' value:2}")
    }

    func testATaggedBufferHoldsItsTagsAndItsBuffer() {
        var pixels: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(kCFAllocatorDefault, 16, 16, kCVPixelFormatType_32BGRA, nil, &pixels), kCVReturnSuccess)
        let tagged = CMTaggedBuffer(tags: [.videoLayerID(0)], pixelBuffer: pixels!)
        XCTAssertEqual(tagged.tags, [.videoLayerID(0)])
        guard case .pixelBuffer(let held) = tagged.buffer else { return XCTFail("a pixel buffer") }
        XCTAssertTrue(held === pixels!)
        XCTAssertTrue(tagged.description.contains("pixel buffer"))
    }
}
