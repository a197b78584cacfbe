import CoreVideo
import XCTest

/// Apple's compressed pixel formats are named as in Apple's headers, and a buffer of one is refused:
/// Linux never makes their memory layout.
final class CompressedPixelFormatTests: XCTestCase {
    private let formats: [(OSType, String)] = [
        (kCVPixelFormatType_Lossless_32BGRA, "&BGA"), (kCVPixelFormatType_Lossless_64RGBAHalf, "&RhA"),
        (kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarVideoRange, "&8v0"), (kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarFullRange, "&8f0"),
        (kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange, "&xv0"),
        (kCVPixelFormatType_Lossless_422YpCbCr10PackedBiPlanarVideoRange, "&xv2"),
        (kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarFullRange, "&xf0"), (kCVPixelFormatType_Lossless_30RGBLE_8A_BiPlanar, "&b38"),
        (kCVPixelFormatType_Lossless_30RGBLEPackedWideGamut, "&w3r"), (kCVPixelFormatType_Lossy_32BGRA, "-BGA"),
        (kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange, "-8v0"), (kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarFullRange, "-8f0"),
        (kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange, "-xv0"), (kCVPixelFormatType_Lossy_422YpCbCr10PackedBiPlanarVideoRange, "-xv2"),
    ]

    func testTheConstantsAreApplesFourCharacterCodes() {
        for (format, code) in formats {
            let characters = [24, 16, 8, 0].map { Character(UnicodeScalar(UInt8((format >> $0) & 0xFF))) }
            XCTAssertEqual(String(characters), code)
        }
    }

    func testABufferOfACompressedFormatIsRefused() {
        for (format, code) in formats {
            var buffer: CVPixelBuffer?
            XCTAssertEqual(CVPixelBufferCreate(nil, 64, 64, format, nil, &buffer), kCVReturnInvalidPixelFormat, code)
            XCTAssertNil(buffer, code)
        }
    }
}
