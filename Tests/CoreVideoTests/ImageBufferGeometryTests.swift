import CoreVideo
import XCTest

/// Core Video's pixel aspect ratio and clean aperture attachments: the size a picture is shown at.
final class ImageBufferGeometryTests: XCTestCase {
    private func buffer(_ width: Int, _ height: Int) throws -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer), kCVReturnSuccess)
        return try XCTUnwrap(buffer)
    }

    func testTheDisplaySizeFollowsThePixelAspectRatioAndTheCleanAperture() throws {
        let pixels = try buffer(720, 576)
        XCTAssertEqual(CVImageBufferGetDisplaySize(pixels), CGSize(width: 720, height: 576), "square pixels, no aperture: the encoded size")
        XCTAssertEqual(CVImageBufferGetCleanRect(pixels), CGRect(x: 0, y: 0, width: 720, height: 576))
        let aspect: [String: Any] = [
            kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String: 64, kCVImageBufferPixelAspectRatioVerticalSpacingKey as String: 45,
        ]
        CVBufferSetAttachment(pixels, kCVImageBufferPixelAspectRatioKey, aspect as NSDictionary, .shouldPropagate)
        XCTAssertEqual(CVImageBufferGetDisplaySize(pixels).width, 1024, accuracy: 1e-9, "PAL 16:9: 720 pixels of 64:45 show 1024 wide")
        XCTAssertEqual(CVImageBufferGetEncodedSize(pixels), CGSize(width: 720, height: 576))
        let aperture: [String: Any] = [
            kCVImageBufferCleanApertureWidthKey as String: 702, kCVImageBufferCleanApertureHeightKey as String: 576,
            kCVImageBufferCleanApertureHorizontalOffsetKey as String: 2, kCVImageBufferCleanApertureVerticalOffsetKey as String: 0,
        ]
        CVBufferSetAttachment(pixels, kCVImageBufferCleanApertureKey, aperture as NSDictionary, .shouldPropagate)
        XCTAssertEqual(CVImageBufferGetCleanRect(pixels), CGRect(x: 11, y: 0, width: 702, height: 576), "centred, then offset")
        XCTAssertEqual(CVImageBufferGetDisplaySize(pixels).width, 702 * 64 / 45, accuracy: 1e-9)
        // Nonsense is as if absent.
        CVBufferSetAttachment(pixels, kCVImageBufferPixelAspectRatioKey, ["HorizontalSpacing": 0, "VerticalSpacing": 1] as NSDictionary, .shouldPropagate)
        CVBufferSetAttachment(pixels, kCVImageBufferCleanApertureKey, ["Width": Double.nan, "Height": 10] as NSDictionary, .shouldPropagate)
        XCTAssertEqual(CVImageBufferGetDisplaySize(pixels), CGSize(width: 720, height: 576))
    }
}
