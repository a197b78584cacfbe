import CoreMedia
import CoreVideo
import XCTest

/// Core Media's pixel aspect ratio and clean aperture extensions: the size video is presented at.
final class FormatDescriptionGeometryTests: XCTestCase {
    func testFormatDescriptionsCarryTheirPixelAspectRatioAndCleanAperture() throws {
        let extensions: [String: Any] = [
            kCMFormatDescriptionExtension_PixelAspectRatio as String: [
                kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing as String: 4, kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing as String: 3,
            ],
            kCMFormatDescriptionExtension_CleanAperture as String: [
                kCMFormatDescriptionKey_CleanApertureWidth as String: 1440, kCMFormatDescriptionKey_CleanApertureHeight as String: 1080,
                kCMFormatDescriptionKey_CleanApertureHorizontalOffset as String: 0, kCMFormatDescriptionKey_CleanApertureVerticalOffset as String: -4,
            ],
        ]
        var made: CMVideoFormatDescription?
        XCTAssertEqual(
            CMVideoFormatDescriptionCreate(
                allocator: nil, codecType: kCMVideoCodecType_H264, width: 1440, height: 1088, extensions: extensions as NSDictionary,
                formatDescriptionOut: &made), noErr)
        let format = try XCTUnwrap(made)
        XCTAssertEqual(
            CMVideoFormatDescriptionGetPresentationDimensions(format, usePixelAspectRatio: true, useCleanAperture: true),
            CGSize(width: 1920, height: 1080), "HDV: 1440 pixels of 4:3 in a 1080-line aperture show as 1080p")
        XCTAssertEqual(
            CMVideoFormatDescriptionGetPresentationDimensions(format, usePixelAspectRatio: false, useCleanAperture: true), CGSize(width: 1440, height: 1080))
        XCTAssertEqual(
            CMVideoFormatDescriptionGetPresentationDimensions(format, usePixelAspectRatio: true, useCleanAperture: false), CGSize(width: 1920, height: 1088))
        XCTAssertEqual(format.presentationDimensions(), CGSize(width: 1920, height: 1080))
        XCTAssertEqual(CMVideoFormatDescriptionGetCleanAperture(format, originIsAtTopLeft: true), CGRect(x: 0, y: 0, width: 1440, height: 1080))
        XCTAssertEqual(CMVideoFormatDescriptionGetCleanAperture(format, originIsAtTopLeft: false), CGRect(x: 0, y: 8, width: 1440, height: 1080))
        let aperture = try XCTUnwrap(CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_CleanAperture) as? [String: Any])
        XCTAssertEqual(aperture[kCMFormatDescriptionKey_CleanApertureVerticalOffset as String] as? Double, -4)
        XCTAssertNotNil((CMFormatDescriptionGetExtensions(format) as? [String: Any])?[kCMFormatDescriptionExtension_PixelAspectRatio as String])

        // A format made for a buffer takes the buffer's geometry; one without any has no such extensions.
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(nil, 1440, 1088, kCVPixelFormatType_32BGRA, nil, &pixels)
        CVBufferSetAttachment(
            try XCTUnwrap(pixels), kCVImageBufferPixelAspectRatioKey, ["HorizontalSpacing": 4, "VerticalSpacing": 3] as NSDictionary, .shouldPropagate)
        var forBuffer: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: try XCTUnwrap(pixels), formatDescriptionOut: &forBuffer)
        XCTAssertEqual(try XCTUnwrap(forBuffer).presentationDimensions(), CGSize(width: 1920, height: 1088))
        XCTAssertNotEqual(try XCTUnwrap(forBuffer), try XCTUnwrap(CMFormatDescription(video: kCVPixelFormatType_32BGRA, width: 1440, height: 1088)))
        var plain: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_H264, width: 64, height: 64, extensions: nil, formatDescriptionOut: &plain)
        XCTAssertNil(CMFormatDescriptionGetExtension(try XCTUnwrap(plain), extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio))
        XCTAssertNil(CMFormatDescriptionGetExtensions(try XCTUnwrap(plain)))
    }
}
