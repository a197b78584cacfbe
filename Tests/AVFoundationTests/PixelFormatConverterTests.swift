import XCTest
@testable import AVFoundation
@testable import CaptureDevices

/// Conversions between the formats the frame path carries keep colours, within rounding.
final class PixelFormatConverterTests: XCTestCase {
    private func solid(_ b: UInt8, _ g: UInt8, _ r: UInt8) -> CVPixelBuffer {
        let buffer = CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA)!
        let base = buffer.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<32 { for x in 0..<64 { let p = base + y * buffer.planes[0].bytesPerRow + x * 4; p[0] = b; p[1] = g; p[2] = r; p[3] = 255 } }
        return buffer
    }

    func testRoundTripsThroughEachFormatKeepTheColour() {
        let converter = PixelFormatConverter()
        let source = solid(40, 160, 220)
        for format in PixelFormatConverter.supportedFormats where format != kCVPixelFormatType_32BGRA {
            let middle = CVPixelBuffer(width: 64, height: 32, pixelFormatType: format)!
            let back = CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA)!
            XCTAssertTrue(converter.convert(source, into: middle), "to \(format.fourCharacterString)")
            XCTAssertTrue(converter.convert(middle, into: back), "from \(format.fourCharacterString)")
            let (_, bgr) = PixelStatistics.measure(back, region: CGRect(x: 0, y: 0, width: 1, height: 1))
            XCTAssertEqual(bgr!.0, 40, accuracy: 6, format.fourCharacterString)
            XCTAssertEqual(bgr!.1, 160, accuracy: 6, format.fourCharacterString)
            XCTAssertEqual(bgr!.2, 220, accuracy: 6, format.fourCharacterString)
        }
    }

    func testVideoAndFullRangeDiffer() {
        let converter = PixelFormatConverter()
        let white = solid(255, 255, 255)
        let video = CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)!
        let full = CVPixelBuffer(width: 64, height: 32, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)!
        converter.convert(white, into: video)
        converter.convert(white, into: full)
        XCTAssertEqual(Int(video.planes[0].baseAddress.load(as: UInt8.self)), 235, accuracy: 1, "video range tops out at 235")
        XCTAssertEqual(Int(full.planes[0].baseAddress.load(as: UInt8.self)), 255, accuracy: 1)
        XCTAssertTrue(converter.convert(video, into: full), "between ranges, through BGRA")
        XCTAssertEqual(Int(full.planes[0].baseAddress.load(as: UInt8.self)), 255, accuracy: 2)
        XCTAssertFalse(converter.convert(white, into: CVPixelBuffer(width: 32, height: 32, pixelFormatType: kCVPixelFormatType_32BGRA)!), "sizes must match")
    }
}
