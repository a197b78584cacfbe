import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Straightening and bicubic scaling, checked on a ramp (red 4 x, green 4 y), whose colours say
/// where each output pixel was sampled from.
final class CIGeometryFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 60, height: 40))

    private func source(_ image: CIImage, _ x: Int, _ y: Int) -> (x: Double, y: Double, alpha: Double) {
        Pictures.rampSource(image, x: x, y: y, context: context)
    }

    func testStraighteningTurnsAboutTheCentreEnlargedToFillTheExtent() throws {
        let filter = CIFilter.straightenFilter()
        XCTAssertEqual(filter.angle, 0)
        filter.inputImage = ramp
        XCTAssertTrue(filter.outputImage === ramp || filter.outputImage?.extent == ramp.extent, "no angle, no change")
        filter.angle = 0.1
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, ramp.extent)
        // Every corner is covered: no transparent pixel.
        for (x, y) in [(0, 0), (59, 0), (0, 39), (59, 39)] { XCTAssertEqual(source(image, x, y).alpha, 255, "corner (\(x), \(y))") }
        // A point P shows the picture at C + R(-a)(P - C) / s, s enough to cover the extent a pixel beyond.
        let scale = (cos(0.1) + sin(0.1) * 60 / 40) * 42 / 40
        for (x, y) in [(40, 30), (10, 12), (30, 20)] {
            let (px, py) = (Double(x) + 0.5 - 30, Double(y) + 0.5 - 20)
            let (ux, uy) = ((px * cos(0.1) + py * sin(0.1)) / scale, (-px * sin(0.1) + py * cos(0.1)) / scale)
            let got = source(image, x, y)
            XCTAssertEqual(got.x, 30 + ux, accuracy: 0.3, "(\(x), \(y)) x")
            XCTAssertEqual(got.y, 20 + uy, accuracy: 0.3, "(\(x), \(y)) y")
        }
    }

    func testABicubicScaleKeepsALinearRampLinear() throws {
        let filter = CIFilter.bicubicScaleTransform()
        XCTAssertEqual(filter.parameterC, 0.75, accuracy: 1e-6, "Apple's default")
        filter.inputImage = ramp
        filter.scale = 0.5
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 30, height: 20))
        // Halved: the output pixel X's centre comes from 2 X + 1, whose red is 4 (2 X + 0.5).
        for x in [3, 10, 20, 26] {
            XCTAssertEqual(Pictures.value(image, x: x, y: 10, context: context)[0], Double(4 * (2 * x) + 2), accuracy: 1.5, "x \(x)")
        }
        filter.aspectRatio = 2
        filter.parameterB = 1.0 / 3
        filter.parameterC = 1.0 / 3
        XCTAssertEqual(try XCTUnwrap(filter.outputImage).extent, CGRect(x: 0, y: 0, width: 60, height: 20), "twice as wide as high")
        filter.scale = 0
        XCTAssertEqual(filter.outputImage?.extent, .null)
    }
}

/// The perspective transform of an extent other than the image's.
final class CIPerspectiveWithExtentTests: XCTestCase {
    func testTheExtentGivenIsDrawnIntoTheCornersTheImageMovingWithIt() throws {
        let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))
        let filter = CIFilter.perspectiveTransformWithExtent()
        filter.inputImage = ramp
        // The image's bottom-left quarter drawn into the image's whole rectangle: everything twice as large.
        filter.extent = CGRect(x: 0, y: 0, width: 32, height: 24)
        filter.bottomLeft = .zero
        filter.bottomRight = CGPoint(x: 64, y: 0)
        filter.topRight = CGPoint(x: 64, y: 48)
        filter.topLeft = CGPoint(x: 0, y: 48)
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 64, height: 48))
        let value = Pictures.value(image, x: 40, y: 30)
        // The pixel centre (40.5, 30.5) shows the image at (20.25, 15.25): red 4 (20.25 - 0.5), green 4 (15.25 - 0.5).
        XCTAssertEqual(value[0], 79, accuracy: 1.5)
        XCTAssertEqual(value[1], 59, accuracy: 1.5)
    }
}
