import CaptureTestSupport
import XCTest
import CV4L2
import CYUV
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

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

    func testBGRAToVideoRangeFourTwoZeroGivesLibyuvsOwnSamples() {
        // Odd sides and a picture that changes at every pixel: the chroma of the last column and row too.
        let (width, height) = (67, 35)
        let source = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)!
        let base = source.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let p = base + y * source.planes[0].bytesPerRow + x * 4
                (p[0], p[1], p[2], p[3]) = (UInt8((x * 7 + y * 3) & 255), UInt8((x * 13) & 255), UInt8((y * 11 + x) & 255), 255)
            }
        }
        let converted = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)!
        let reference = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)!
        XCTAssertTrue(PixelFormatConverter().convert(source, into: converted))
        let (s, d) = (source.planes[0], reference.planes)
        func bytes(_ plane: CVPixelBuffer.Plane) -> UnsafeMutablePointer<UInt8> { plane.baseAddress.assumingMemoryBound(to: UInt8.self) }
        XCTAssertEqual(
            ARGBToNV12(
                bytes(s), Int32(s.bytesPerRow), bytes(d[0]), Int32(d[0].bytesPerRow), bytes(d[1]), Int32(d[1].bytesPerRow), Int32(width), Int32(height)), 0)
        for (index, (ours, theirs)) in zip(converted.planes, reference.planes).enumerated() {
            let rowBytes = index == 0 ? width : (width + 1) / 2 * 2
            for row in 0..<ours.height {
                XCTAssertEqual(
                    memcmp(ours.baseAddress + row * ours.bytesPerRow, theirs.baseAddress + row * theirs.bytesPerRow, rowBytes), 0,
                    "plane \(index), row \(row): the samples libyuv's ARGBToNV12 gives")
            }
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

/// 10-bit frames: V4L2's P010 arrives as 'x420', and converts both ways.
final class TenBitFormatTests: XCTestCase {
    func testV4L2P010IsDeliveredAsTenBitBiPlanar() {
        let format = V4L2PixelFormat(fourcc: cv4l2_fourcc(80, 48, 49, 48))
        XCTAssertEqual(format?.delivered, kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange)
        XCTAssertEqual(format?.isCompressed, false)
    }

    func testTenBitBuffersHoldSixteenBitSamplesAndConvertToEightBitAndBack() throws {
        let bgra = try XCTUnwrap(CVPixelBuffer(width: 32, height: 16, pixelFormatType: kCVPixelFormatType_32BGRA))
        let base = bgra.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<16 { for x in 0..<32 { let p = base + y * bgra.planes[0].bytesPerRow + x * 4; p[0] = 200; p[1] = 120; p[2] = 40; p[3] = 255 } }
        let tenBit = try XCTUnwrap(CVPixelBuffer(width: 32, height: 16, pixelFormatType: kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange))
        XCTAssertEqual(tenBit.planes[0].bytesPerRow >= 64, true, "two bytes a luma sample")
        XCTAssertEqual(tenBit.planes[1].height, 8)
        let converter = PixelFormatConverter()
        XCTAssertTrue(converter.convert(bgra, into: tenBit))
        // P010 keeps its 10 bits in the high bits of each 16-bit sample: the low 6 are zero.
        let luma = tenBit.planes[0].baseAddress.assumingMemoryBound(to: UInt16.self)[5]
        XCTAssertEqual(luma & 0x3F, 0)
        XCTAssertGreaterThan(luma >> 6, 64, "a 10-bit video-range luma")
        let back = try XCTUnwrap(CVPixelBuffer(width: 32, height: 16, pixelFormatType: kCVPixelFormatType_32BGRA))
        XCTAssertTrue(converter.convert(tenBit, into: back))
        let p = back.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self) + 4 * back.planes[0].bytesPerRow + 4 * 4
        XCTAssertEqual(Double(p[0]), 200, accuracy: 6)
        XCTAssertEqual(Double(p[1]), 120, accuracy: 6)
        XCTAssertEqual(Double(p[2]), 40, accuracy: 6)
    }
}
