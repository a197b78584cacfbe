import XCTest
@testable import CaptureDevices
import CoreVideo

/// The colour a V4L2 driver reports becomes the frames' tags, its defaults resolved as the V4L2
/// specification resolves them.
final class V4L2ColorimetryTests: XCTestCase {
    // videodev2.h's numbers: colorspaces DEFAULT 0, SMPTE170M 1, REC709 3, 470_SYSTEM_BG 6, SRGB 8,
    // BT2020 10; Y'CbCr encodings DEFAULT 0, 601 1, 709 2.
    func testTheDriversColorspaceAndEncodingDecideTheMatrix() {
        let srgb = VideoColorimetry.v4l2(colorspace: 8, ycbcrEncoding: 0, width: 1280, height: 720)
        XCTAssertEqual(srgb.matrix, .bt601, "sRGB's Y'CbCr is BT.601, HD or not: what most webcams report")
        XCTAssertEqual(srgb.primaries, kCVImageBufferColorPrimaries_ITU_R_709_2 as String)
        XCTAssertEqual(srgb.transferFunction, kCVImageBufferTransferFunction_sRGB as String)
        XCTAssertEqual(VideoColorimetry.v4l2(colorspace: 3, ycbcrEncoding: 0, width: 640, height: 480).matrix, .bt709, "Rec. 709 at any size")
        XCTAssertEqual(VideoColorimetry.v4l2(colorspace: 8, ycbcrEncoding: 2, width: 640, height: 480).matrix, .bt709, "an explicit encoding wins")
        let ntsc = VideoColorimetry.v4l2(colorspace: 1, ycbcrEncoding: 0, width: 720, height: 480)
        XCTAssertEqual(ntsc.matrix, .bt601)
        XCTAssertEqual(ntsc.primaries, kCVImageBufferColorPrimaries_SMPTE_C as String)
        XCTAssertEqual(
            VideoColorimetry.v4l2(colorspace: 6, ycbcrEncoding: 1, width: 720, height: 576).primaries, kCVImageBufferColorPrimaries_EBU_3213 as String)
        XCTAssertEqual(
            VideoColorimetry.v4l2(colorspace: 10, ycbcrEncoding: 0, width: 3840, height: 2160).primaries, kCVImageBufferColorPrimaries_ITU_R_2020 as String)
        XCTAssertEqual(
            VideoColorimetry.v4l2(colorspace: 0, ycbcrEncoding: 0, width: 1280, height: 720), .hd, "left to the default: video's convention for the size")
        XCTAssertEqual(VideoColorimetry.v4l2(colorspace: 0, ycbcrEncoding: 0, width: 640, height: 480), .sd)
    }
}
