import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The halftone screens and the distortions about a centre. Distortions are checked on a ramp
/// (red 4 x, green 4 y), on which sampling at a point gives the point itself: the output's
/// colour says where each pixel was taken from, computed here from the distortion's geometry.
final class CIHalftoneAndDistortionFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func solid(_ grey: Double) -> CIImage {
        CIImage(color: CIColor(red: grey, green: grey, blue: grey)).cropped(to: CGRect(x: 0, y: 0, width: 60, height: 60))
    }

    private func greys(_ image: CIImage?) throws -> [Double] {
        let image = try XCTUnwrap(image)
        var pixels = [UInt8](repeating: 0, count: 60 * 60 * 4)
        context.render(image, toBitmap: &pixels, rowBytes: 60 * 4, bounds: CGRect(x: 0, y: 0, width: 60, height: 60), format: .RGBA8, colorSpace: nil)
        return stride(from: 0, to: pixels.count, by: 4).map { Double(pixels[$0]) / 255 }
    }

    func testAHardScreenKeepsBlackAndWhiteAndTurnsGreyIntoItsShareOfWhite() throws {
        let screens: [CIFilter & CIFilterProtocol] = [CIFilter.dotScreen(), CIFilter.lineScreen(), CIFilter.circularScreen()]
        for screen in screens {
            screen.setValue(1, forKey: kCIInputSharpnessKey)
            screen.setValue(10, forKey: kCIInputWidthKey)
            screen.setValue(CIVector(x: 30, y: 30), forKey: kCIInputCenterKey)
            screen.setValue(solid(0), forKey: kCIInputImageKey)
            XCTAssertEqual(try greys(screen.outputImage).max(), 0, "\(screen.name): black stays black")
            screen.setValue(solid(1), forKey: kCIInputImageKey)
            XCTAssertEqual(try greys(screen.outputImage).min(), 1, "\(screen.name): white stays white")
            // Every pixel is black or white, and darker greys are more black.
            var shares: [Double] = []
            // Greys off the thresholds a 10-pixel period samples, so that no pixel is a tie.
            for grey in [0.2, 0.45, 0.8] {
                screen.setValue(solid(grey), forKey: kCIInputImageKey)
                let values = try greys(screen.outputImage)
                XCTAssertTrue(values.allSatisfy { $0 == 0 || $0 == 1 }, "\(screen.name): hard-edged")
                shares.append(values.reduce(0, +) / Double(values.count))
            }
            XCTAssertTrue(shares[0] < shares[1] && shares[1] < shares[2], "\(screen.name): \(shares)")
            XCTAssertEqual(shares[1], 0.45, accuracy: 0.15, "\(screen.name): a grey's share of white near its own value")
        }
    }

    func testTheLineScreenRepeatsEveryWidthAcrossItsLinesAndTurnsWithItsAngle() throws {
        let screen = CIFilter.lineScreen()
        XCTAssertEqual(screen.width, 6, "Apple's default")
        XCTAssertEqual(screen.sharpness, 0.7, accuracy: 1e-6, "Apple's default")
        // A grey off the pattern's middle, so that no pixel sits on a threshold.
        screen.inputImage = solid(0.45)
        screen.center = .zero
        screen.width = 10
        screen.sharpness = 1
        // Angle 0: lines across, the same along each row, repeating every 10 rows.
        let across = try greys(screen.outputImage)
        for row in 0..<50 {
            XCTAssertEqual(across[row * 60 + 3], across[row * 60 + 40], "row \(row): the same along it")
            XCTAssertEqual(across[row * 60 + 3], across[(row + 10) * 60 + 3], "row \(row): period 10")
        }
        XCTAssertNotEqual(Set((0..<10).map { across[$0 * 60] }).count, 1, "both black and white within a period")
        // A quarter turn: lines up, the same down each column.
        screen.angle = Float.pi / 2
        let up = try greys(screen.outputImage)
        for column in 0..<50 { XCTAssertEqual(up[3 * 60 + column], up[40 * 60 + column], "column \(column)") }
    }

    /// The point a ramp's pixel came from, in Core Image's coordinates.
    private func source(_ image: CIImage, _ x: Int, _ y: Int) -> (x: Double, y: Double, alpha: Double) {
        Pictures.rampSource(image, x: x, y: y, context: context)
    }

    private func assertFrom(_ image: CIImage, _ x: Int, _ y: Int, _ want: (Double, Double), _ message: String, line: UInt = #line) {
        let got = source(image, x, y)
        XCTAssertEqual(got.x, want.0, accuracy: 0.2, "\(message): x", line: line)
        XCTAssertEqual(got.y, want.1, accuracy: 0.2, "\(message): y", line: line)
    }

    func testATwirlTurnsPointsByTheAngleFadingToNothingAtTheRadius() throws {
        let filter = CIFilter.twirlDistortion()
        XCTAssertEqual(filter.radius, 300, "Apple's default")
        XCTAssertEqual(filter.angle, Float.pi, accuracy: 1e-6, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 20
        filter.angle = 1
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, ramp.extent)
        for (x, y) in [(40, 24), (32, 30), (25, 20), (44, 28)] {
            let (px, py) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 24)
            let theta = 1 * max(0, 1 - hypot(px, py) / 20)
            assertFrom(image, x, y, (32 + px * cos(theta) - py * sin(theta), 24 + px * sin(theta) + py * cos(theta)), "(\(x), \(y))")
        }
        assertFrom(image, 5, 5, (5.5, 5.5), "beyond the radius, unmoved")
    }

    func testAPinchAndABumpMoveAlongTheRadius() throws {
        for (filter, sign) in [(CIFilter.pinchDistortion() as CIFilter & CIPinchDistortion, 1.0)] {
            filter.inputImage = ramp
            filter.center = CGPoint(x: 32, y: 24)
            filter.radius = 16
            filter.scale = 0.5
            let image = try XCTUnwrap(filter.outputImage)
            let (px, py) = (6.5, 0.5), t = max(0, 1 - hypot(px, py) / 16), factor = 1 + sign * 0.5 * t * t
            assertFrom(image, 38, 24, (32 + px * factor, 24 + py * factor), "pinch: drawn from farther out")
        }
        let bump = CIFilter.bumpDistortion()
        XCTAssertEqual(bump.scale, 0.5, accuracy: 1e-6, "Apple's default")
        bump.inputImage = ramp
        bump.center = CGPoint(x: 32, y: 24)
        bump.radius = 16
        bump.scale = 0.5
        let image = try XCTUnwrap(bump.outputImage)
        let (px, py) = (6.5, 0.5), t = 1 - hypot(px, py) / 16, factor = 1 - 0.5 * t * t
        assertFrom(image, 38, 24, (32 + px * factor, 24 + py * factor), "bump: drawn from nearer the centre")
        assertFrom(image, 60, 5, (60.5, 5.5), "beyond the radius, unmoved")
    }

    func testAVortexTurnsMoreNearItsCentre() throws {
        let filter = CIFilter.vortexDistortion()
        XCTAssertEqual(filter.angle, 56.55, accuracy: 1e-4, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 20
        filter.angle = 2
        let image = try XCTUnwrap(filter.outputImage)
        let (px, py) = (10.5, 0.5), t = 1 - hypot(px, py) / 20, theta = 2 * t * t
        assertFrom(image, 42, 24, (32 + px * cos(theta) - py * sin(theta), 24 + px * sin(theta) + py * cos(theta)), "turned by angle (1 - t)^2")
    }

    func testAHoleIsTransparentInsideAndPushesTheImageOutOfIt() throws {
        let filter = CIFilter.holeDistortion()
        XCTAssertEqual(filter.radius, 150, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 8
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(source(image, 32, 24).alpha, 0, "inside the hole")
        let (px, py) = (12.5, 0.5), d = hypot(px, py), factor = (d * d - 64).squareRoot() / d
        assertFrom(image, 44, 24, (32 + px * factor, 24 + py * factor), "outside: from sqrt(d^2 - r^2) along the radius")
        XCTAssertEqual(source(image, 44, 24).alpha, 255)
    }

    func testACircleSplashDrawsTheCirclesEdgeOutward() throws {
        let filter = CIFilter.circleSplashDistortion()
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 8
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertTrue(image.extent.isInfinite, "the edge is drawn out without end")
        assertFrom(image, 34, 25, (34.5, 25.5), "inside the circle, unmoved")
        for (x, y) in [(50, 24), (32, 40), (20, 10)] {
            let (px, py) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 24), d = hypot(px, py)
            assertFrom(image, x, y, (32 + px * 8 / d, 24 + py * 8 / d), "(\(x), \(y)): from the circle's edge")
        }
    }
}
