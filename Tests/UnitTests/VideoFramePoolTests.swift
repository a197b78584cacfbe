import XCTest
@testable import CaptureDevices
@testable import FrameProcessing
@testable import CoreMedia
@testable import CoreVideo

/// The frame pool hands out each of its frames again only once clients hold neither the frame
/// nor the sample buffer that carried it, and makes nothing past its capacity.
final class VideoFramePoolTests: XCTestCase {
    func testAFrameIsFreeOnlyWhenNeitherItNorItsSampleBufferIsHeld() throws {
        let pool = try XCTUnwrap(VideoFramePool(width: 64, height: 48, pixelFormat: kCVPixelFormatType_32BGRA, capacity: 2))
        var first: (CVPixelBuffer, CMSampleBuffer)? = try XCTUnwrap(pool.dequeue())
        pool.prepare(first!.1, pixelBuffer: first!.0, presentationTime: .zero, duration: CMTime(value: 1, timescale: 30))
        let firstID = ObjectIdentifier(first!.0)
        var second: (CVPixelBuffer, CMSampleBuffer)? = try XCTUnwrap(pool.dequeue())
        XCTAssertNotEqual(ObjectIdentifier(second!.0), firstID)
        XCTAssertNil(pool.dequeue(), "both frames held: none to give")

        // A client that keeps only the sample buffer keeps the frame it carries.
        var heldSample: CMSampleBuffer? = first!.1
        first = nil
        XCTAssertNil(pool.dequeue(), "the sample buffer holds its frame")
        XCTAssertTrue(heldSample?.imageBuffer.map { ObjectIdentifier($0) == firstID } ?? false)

        // A client that keeps only the pixel buffer keeps the frame, though the sample buffer is free.
        let heldPixels = second!.0
        second = nil
        XCTAssertNil(pool.dequeue(), "the pixel buffer is held")

        // Once the sample buffer goes, its frame comes back, emptied of what it carried before.
        heldSample = nil
        let again = try XCTUnwrap(pool.dequeue())
        XCTAssertEqual(ObjectIdentifier(again.0), firstID, "the same memory, not a new frame")
        XCTAssertNil(again.1.imageBuffer, "the sample buffer is handed out empty")
        XCTAssertEqual(VideoColorimetry.of(again.0)?.matrix, .bt601, "a standard-definition frame is tagged with video's convention")
        XCTAssertNil(pool.dequeue(), "the other frame is still held")
        withExtendedLifetime(heldPixels) {}
    }
}
