import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The colour wheel, the displacement and linear bump distortions, the zoom blur and the hatched
/// screen, against values computed here (distortions on a ramp, whose colours say where each
/// pixel was sampled from).
final class CIMoreComputedFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func value(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Double] { Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context) }

    private func from(_ image: CIImage?, _ x: Int, _ y: Int) throws -> (Double, Double) {
        let source = Pictures.rampSource(try XCTUnwrap(image), x: x, y: y, context: context)
        return (source.x, source.y)
    }

    func testTheColourWheelHasTheHueOfItsAngleAndTheSaturationOfItsDistance() throws {
        let wheel = CIFilter.hueSaturationValueGradient()
        XCTAssertEqual(wheel.radius, 300)
        wheel.radius = 100
        wheel.value = 0.8
        let image = try XCTUnwrap(wheel.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: -100, y: -100, width: 200, height: 200))
        func assertColour(_ x: Int, _ y: Int, _ want: [Double], _ message: String) throws {
            let got = try value(image, x, y)
            for band in 0..<4 { XCTAssertEqual(got[band], want[band], accuracy: 3, "\(message): \(got) against \(want)") }
        }
        // HSV to RGB: at hue 0, saturation s, value v: (v, v (1 - s), v (1 - s)).
        try assertColour(49, 0, [0.8 * 255, 0.8 * 0.5 * 255, 0.8 * 0.5 * 255, 255], "red, half saturated")
        // A third of a turn: green; two thirds: blue (at 99.5 of 100, all but fully saturated).
        let (gx, gy) = (Int((cos(2 * Double.pi / 3) * 90).rounded(.down)), Int((sin(2 * Double.pi / 3) * 90).rounded(.down)))
        let green = try value(image, gx, gy)
        XCTAssertGreaterThan(green[1], 190)
        XCTAssertLessThan(green[0], 40)
        try assertColour(0, 0, [204, 204, 204, 255], "grey at the centre")
        XCTAssertEqual(try value(image, 90, 90)[3], 0, "beyond the radius")
    }

    func testADisplacementMovesByTheDisplacementImagesRedAndGreen() throws {
        let filter = CIFilter.displacementDistortion()
        XCTAssertEqual(filter.scale, 50)
        filter.inputImage = ramp
        filter.displacementImage = CIImage(color: CIColor(red: 0.6, green: 0.4, blue: 0))
        let (x, y) = try from(filter.outputImage, 30, 20)
        XCTAssertEqual(x, 30.5 + 5, accuracy: 0.3, "red a tenth over a half: 5 pixels across")
        XCTAssertEqual(y, 20.5 - 5, accuracy: 0.3, "green a tenth under: 5 down")
    }

    func testALinearBumpMovesAcrossItsLineOnly() throws {
        let filter = CIFilter.bumpDistortionLinear()
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.radius = 16
        filter.angle = 0
        filter.scale = 0.5
        let image = try XCTUnwrap(filter.outputImage)
        // Six and a half above the line: t = 6.5 / 16, drawn from 6.5 (1 - 0.5 (1 - t)^2) above it; x unchanged.
        let t = 6.5 / 16, want = 24 + 6.5 * (1 - 0.5 * (1 - t) * (1 - t))
        let (x, y) = try from(image, 50, 30)
        XCTAssertEqual(x, 50.5, accuracy: 0.2)
        XCTAssertEqual(y, want, accuracy: 0.2)
        let far = try from(image, 50, 44)
        XCTAssertEqual(far.1, 44.5, accuracy: 0.2, "beyond the radius, unmoved")
    }

    func testAZoomBlurAveragesAlongTheLineToTheCentre() throws {
        let filter = CIFilter.zoomBlur()
        XCTAssertEqual(filter.amount, 20)
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.amount = 20
        // On a ramp the mean of samples from P to C + 0.8 (P - C) is the ramp at C + 0.9 (P - C).
        for (px, py) in [(50, 40), (10, 5), (32, 24)] {
            let (x, y) = try from(filter.outputImage, px, py)
            XCTAssertEqual(x, 32 + 0.9 * (Double(px) + 0.5 - 32), accuracy: 0.3, "(\(px), \(py))")
            XCTAssertEqual(y, 24 + 0.9 * (Double(py) + 0.5 - 24), accuracy: 0.3, "(\(px), \(py))")
        }
    }

    func testTheHatchedScreenRepeatsBothWays() throws {
        let screen = CIFilter.hatchedScreen()
        screen.inputImage = CIImage(color: CIColor(red: 0.45, green: 0.45, blue: 0.45)).cropped(to: CGRect(x: 0, y: 0, width: 60, height: 60))
        screen.center = .zero
        screen.width = 10
        screen.sharpness = 1
        let image = try XCTUnwrap(screen.outputImage)
        for (x, y) in [(3, 4), (7, 1), (2, 8)] {
            XCTAssertEqual(try value(image, x, y), try value(image, x + 10, y), "across")
            XCTAssertEqual(try value(image, x, y), try value(image, x, y + 20), "up")
        }
        screen.inputImage = CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 60, height: 60))
        XCTAssertEqual(try value(screen.outputImage, 13, 27), [0, 0, 0, 255])
    }
}
