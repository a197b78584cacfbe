import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The distortions that bend the plane around a circle, a ring, a capsule or a spiral, checked on
/// a ramp (red 4 x, green 4 y), on which the output's colour says where each pixel was taken
/// from: that point is computed here from each filter's geometry.
final class CILensFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func assertFrom(_ image: CIImage, _ x: Int, _ y: Int, _ want: (Double, Double), _ message: String, line: UInt = #line) {
        let got = Pictures.rampSource(image, x: x, y: y, context: context)
        XCTAssertEqual(got.x, want.0, accuracy: 0.3, "\(message): x", line: line)
        XCTAssertEqual(got.y, want.1, accuracy: 0.3, "\(message): y", line: line)
        XCTAssertEqual(got.alpha, 255, "\(message): opaque", line: line)
    }

    func testACircularWrapLaysTheImagesBottomEdgeAlongTheCircleReadingClockwise() throws {
        let filter = CIFilter.circularWrap()
        XCTAssertEqual(filter.radius, 150, "Apple's default")
        XCTAssertEqual(filter.angle, 0, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 100, y: 100)
        filter.radius = 15
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 100 - 63, y: 100 - 63, width: 126, height: 126), "the circle and the image's height around it")
        // Straight above the centre: the image's middle column, as high as the pixel is beyond the circle.
        var (px, py) = (-0.5, 29.5)
        assertFrom(image, 99, 129, (32 - atan2(-px, py) * 15, hypot(px, py) - 15), "above")
        // A quarter turn clockwise: a quarter of the circle's circumference to the right.
        (px, py) = (29.5, -0.5)
        assertFrom(image, 129, 99, (32 + (Double.pi / 2 + atan2(-py, px)) * 15, hypot(px, py) - 15), "to the right")
        XCTAssertEqual(Pictures.value(image, x: 100, y: 105, context: context)[3], 0, "inside the circle, transparent")
        filter.angle = Float.pi / 2
        let turned = try XCTUnwrap(filter.outputImage)
        (px, py) = (-29.5, 0.5)
        assertFrom(turned, 70, 100, (32 + atan2(py, -px) * 15, hypot(px, py) - 15), "the middle turned a quarter to the left")
    }

    func testALightTunnelDrawsTheRingAtItsRadiusOutwardsInASpiral() throws {
        let filter = CIFilter.lightTunnel()
        XCTAssertEqual(filter.radius, 100, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 10
        filter.rotation = 1
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, ramp.extent)
        assertFrom(image, 33, 25, (33.5, 25.5), "inside the radius, the image")
        for (x, y) in [(45, 24), (20, 40), (50, 5)] {
            let (px, py) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 24)
            let d = hypot(px, py), direction = atan2(py, px) + (d - 10) / 10
            assertFrom(image, x, y, (32 + 10 * cos(direction), 24 + 10 * sin(direction)), "(\(x), \(y)): the ring, turned")
        }
    }

    func testATorusLensMagnifiesTheRingsMiddleAndMeetsTheImageAtItsEdges() throws {
        let filter = CIFilter.torusLensDistortion()
        XCTAssertEqual(filter.radius, 160, "Apple's default")
        XCTAssertEqual(filter.width, 80, "Apple's default")
        XCTAssertEqual(filter.refraction, 1.7, accuracy: 1e-6, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 12
        filter.width = 8
        filter.refraction = 2
        let image = try XCTUnwrap(filter.outputImage)
        for (x, y) in [(46, 24), (32, 37), (22, 19)] {
            let (px, py) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 24)
            let d = hypot(px, py), t = max(-1, min(1, (d - 12) / 4))
            let taken = d - (d - 12) * (1 - t * t).squareRoot() * 0.5
            assertFrom(image, x, y, (32 + px * taken / d, 24 + py * taken / d), "(\(x), \(y)) in the ring")
        }
        assertFrom(image, 5, 5, (5.5, 5.5), "beyond the ring, unmoved")
        assertFrom(image, 33, 25, (33.5, 25.5), "inside the ring, unmoved")
    }

    func testAGlassLozengeMagnifiesTowardsItsSegment() throws {
        let filter = CIFilter.glassLozenge()
        XCTAssertEqual(filter.point1, CGPoint(x: 350, y: 350), "Apple's default")
        XCTAssertEqual(filter.radius, 100, "Apple's default")
        filter.inputImage = ramp
        filter.point0 = CGPoint(x: 20, y: 24)
        filter.point1 = CGPoint(x: 44, y: 24)
        filter.radius = 8
        filter.refraction = 2
        let image = try XCTUnwrap(filter.outputImage)
        let factor = 1 - (1 - (3.5 / 8) * (3.5 / 8)).squareRoot() * 0.5
        assertFrom(image, 31, 27, (31.5, 24 + 3.5 * factor), "3.5 above the segment")
        // Past an end, the nearest point is the end itself.
        let (px, py) = (49.5 - 44, 26.5 - 24), s = hypot(px, py), endFactor = 1 - (1 - (s / 8) * (s / 8)).squareRoot() * 0.5
        assertFrom(image, 49, 26, (44 + px * endFactor, 24 + py * endFactor), "beyond point 1")
        assertFrom(image, 5, 40, (5.5, 40.5), "outside the lozenge, unmoved")
    }

    func testAStretchCropFitsTheSizeByStretchingCroppingOrBoth() throws {
        let filter = CIFilter.stretchCrop()
        XCTAssertEqual(filter.cropAmount, 0.25, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(filter.centerStretchAmount, 0.25, accuracy: 1e-6, "Apple's default")
        filter.inputImage = ramp
        filter.size = CGPoint(x: 128, y: 48)
        filter.cropAmount = 0
        filter.centerStretchAmount = 0
        var image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 128, height: 48))
        assertFrom(image, 63, 10, (31.75, 10.5), "stretched evenly across, not up")
        filter.cropAmount = 1
        image = try XCTUnwrap(filter.outputImage)
        assertFrom(image, 63, 10, (31.75, 24 + (10.5 / 24 - 1) * 12), "scaled to fill, the middle rows kept")
        filter.cropAmount = 0
        filter.centerStretchAmount = 1
        image = try XCTUnwrap(filter.outputImage)
        let u = 96.5 / 64 - 1
        assertFrom(image, 96, 10, (32 + u * abs(u) * 32, 10.5), "the stretch in the middle: the sides less")
    }

    func testADrosteRepeatsTheImageInsideItsInset() throws {
        let filter = CIFilter.droste()
        XCTAssertEqual(filter.insetPoint0, CGPoint(x: 200, y: 200), "Apple's default")
        XCTAssertEqual(filter.strands, 1, "Apple's default")
        filter.inputImage = ramp
        filter.insetPoint0 = CGPoint(x: 16, y: 12)
        filter.insetPoint1 = CGPoint(x: 48, y: 36)
        filter.strands = 0
        filter.periodicity = 1
        filter.rotation = 0
        filter.zoom = 1
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, ramp.extent)
        // The ring from the inset (12 from its middle) to twice that is the image itself.
        assertFrom(image, 50, 24, (50.5, 24.5), "in the ring")
        // Nearer the middle, the image scaled up by the ratio (2) until in the ring.
        assertFrom(image, 36, 24, (32 + 4.5 * 4, 24 + 0.5 * 4), "4.5 from the middle: read 18 from it")
        assertFrom(image, 38, 26, (32 + 6.5 * 2, 24 + 2.5 * 2), "about 7 from the middle: read twice as far")
        // A rotation turns every repetition.
        filter.rotation = Float.pi / 2
        let turned = try XCTUnwrap(filter.outputImage)
        assertFrom(turned, 50, 24, (32 - 0.5, 24 + 18.5), "in the ring, a quarter turn")
    }
}
