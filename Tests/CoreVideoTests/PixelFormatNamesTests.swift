import CoreVideo
import XCTest

/// Apple's pixel format names that no converter here produces: each is Apple's four characters
/// (or QuickTime's number), and a buffer of one is refused rather than made wrong.
final class PixelFormatNamesTests: XCTestCase {
    private func code(_ text: String) -> OSType { text.utf8.reduce(0) { $0 << 8 | OSType($1) } }

    func testOtherFormatsAreNamedAndTheirBuffersRefused() {
        let named: [(OSType, String)] = [
            (kCVPixelFormatType_64RGBAHalf, "RGhA"), (kCVPixelFormatType_128RGBAFloat, "RGfA"), (kCVPixelFormatType_16Gray, "b16g"),
            (kCVPixelFormatType_OneComponent16Half, "L00h"), (kCVPixelFormatType_TwoComponent8, "2C08"), (kCVPixelFormatType_30RGB, "R10k"),
            (kCVPixelFormatType_14Bayer_RGGB, "rgg4"), (kCVPixelFormatType_422YpCbCr10, "v210"), (kCVPixelFormatType_ARGB2101010LEPacked, "l10r"),
        ]
        for (value, text) in named { XCTAssertEqual(value, code(text), text) }
        XCTAssertEqual(kCVPixelFormatType_16BE555, 16)
        for format in [kCVPixelFormatType_64RGBAHalf, kCVPixelFormatType_14Bayer_RGGB, kCVPixelFormatType_422YpCbCr10] {
            var buffer: CVPixelBuffer?
            XCTAssertEqual(CVPixelBufferCreate(nil, 64, 48, format, nil, &buffer), kCVReturnInvalidPixelFormat)
            XCTAssertNil(buffer)
        }
    }
}
