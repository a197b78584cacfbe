import XCTest
@testable import CaptureDevices
@testable import FrameProcessing
import CoreVideo

/// Digital zoom for cameras without a zoom lens: the centre of the frame, scaled up, in every carried format.
final class DigitalZoomTests: XCTestCase {
    /// A 640x480 BGRA frame of eight vertical stripes, alternating black and white.
    private func stripes() throws -> CVPixelBuffer {
        let frame = try XCTUnwrap(CVPixelBuffer(width: 640, height: 480, pixelFormatType: kCVPixelFormatType_32BGRA))
        let plane = frame.planes[0]
        for row in 0..<480 {
            let line = plane.baseAddress.advanced(by: row * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for column in 0..<640 {
                let value: UInt8 = (column / 80) % 2 == 0 ? 0 : 255
                line[column * 4] = value; line[column * 4 + 1] = value; line[column * 4 + 2] = value; line[column * 4 + 3] = 255
            }
        }
        return frame
    }

    /// The brightness of the middle row, column by column: luma, or the average of B, G and R.
    private func middleRow(_ frame: CVPixelBuffer) -> [Int] {
        let plane = frame.planes[0]
        let line = plane.baseAddress.advanced(by: frame.height / 2 * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
        switch frame.pixelFormatType {
        case kCVPixelFormatType_32BGRA: return (0..<frame.width).map { (Int(line[$0 * 4]) + Int(line[$0 * 4 + 1]) + Int(line[$0 * 4 + 2])) / 3 }
        case kCVPixelFormatType_422YpCbCr8: return (0..<frame.width).map { Int(line[$0 * 2 + 1]) }
        default: return (0..<frame.width).map { Int(line[$0]) }
        }
    }

    /// How many times the row changes between dark and light.
    private func edges(_ row: [Int]) -> Int {
        var count = 0
        var light = row[0] > 128
        for value in row where (value > 160 && !light) || (value < 96 && light) {
            count += 1
            light.toggle()
        }
        return count
    }

    func testZoomShowsTheCentreOfTheFrameInEveryCarriedFormat() throws {
        let bgra = try stripes()
        let zoom = DigitalZoom()
        let converter = PixelFormatConverter()
        let targets = [
            kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_422YpCbCr8,
        ]
        // Camera formats in, client formats out: every target from BGRA, and packed 4:2:2 sources too.
        let cases =
            targets.map { (kCVPixelFormatType_32BGRA, $0) }
            + [
                (kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_32BGRA),
                (kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
            ]
        for (sourceFormat, format) in cases {
            let source = try XCTUnwrap(CVPixelBuffer(width: 640, height: 480, pixelFormatType: sourceFormat))
            XCTAssertTrue(converter.convert(bgra, into: source))
            let target = try XCTUnwrap(CVPixelBuffer(width: 640, height: 480, pixelFormatType: format))
            XCTAssertTrue(zoom.render(source, zoom: 1, into: target))
            XCTAssertEqual(edges(middleRow(target)), 7, "eight stripes unzoomed (\(sourceFormat) -> \(format))")
            XCTAssertTrue(zoom.render(source, zoom: 2, into: target))
            let row = middleRow(target)
            XCTAssertEqual(edges(row), 3, "the middle four stripes at 2x (\(sourceFormat) -> \(format))")
            // The middle four stripes are dark, light, dark, light, each now 160 pixels wide.
            XCTAssertLessThan(row[80], 96, "\(sourceFormat) -> \(format)")
            XCTAssertGreaterThan(row[240], 160, "\(sourceFormat) -> \(format)")
            XCTAssertTrue(zoom.render(source, zoom: 8, into: target))
            XCTAssertEqual(edges(middleRow(target)), 1, "one edge, the centre line, at 8x (\(sourceFormat) -> \(format))")
        }
    }
}

/// The zoom ramp of the imaging model, stepped by hand.
final class ZoomRampModelTests: XCTestCase {
    func testAStepThatLandsWithinRoundingOfTheTargetEndsTheRampThere() {
        // One step of 1/30 s at 2 doublings a second multiplies by 2^(1/15); start just short of
        // it, so that the step lands a hair under 4, as it did in a real ramp (3.99999994).
        let step = pow(2.0, 2.0 / 30)
        var initial = ImagingState()
        initial.videoZoomFactor = 4 / step * (1 - 1e-9)
        initial.zoomRampTarget = 4
        initial.zoomRampRate = 2
        initial.isStreaming = true
        let model = ImagingModel(initial)
        let after = model.tick(seconds: 1.0 / 30)
        XCTAssertEqual(after.videoZoomFactor, 4, "the step reaches the target")
        XCTAssertNil(after.zoomRampTarget, "and ends the ramp in the same change")
    }
}
