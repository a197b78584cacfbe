import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// CIE L*a*b* conversions and differences (against the CIE's published values and formulas),
/// Sobel's gradients, colour curves, and stroked and blurred rectangles.
final class CILabAndShapeFilterTests: XCTestCase {
    let context = CIContext()

    private func colour(_ r: Double, _ g: Double, _ b: Double, _ rect: CGRect = CGRect(x: 0, y: 0, width: 8, height: 8)) -> CIImage {
        CIImage(color: CIColor(red: r, green: g, blue: b)).cropped(to: rect)
    }

    private func value(_ image: CIImage?, _ x: Int = 2, _ y: Int = 2) throws -> [Double] { Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context) }

    /// An image's red, green and blue scaled by a factor (and a bias added), so that floats beyond 0-1 can be read.
    private func scaled(_ image: CIImage?, _ factor: Double, bias: Double = 0) throws -> CIImage {
        let matrix = CIFilter.colorMatrix()
        matrix.inputImage = try XCTUnwrap(image)
        matrix.rVector = CIVector(x: factor, y: 0, z: 0, w: 0)
        matrix.gVector = CIVector(x: 0, y: factor, z: 0, w: 0)
        matrix.bVector = CIVector(x: 0, y: 0, z: factor, w: 0)
        matrix.biasVector = CIVector(x: bias, y: bias, z: bias, w: 0)
        return try XCTUnwrap(matrix.outputImage)
    }

    func testRGBToLabGivesTheCIEsValues() throws {
        let filter = CIFilter.convertRGBtoLab()
        filter.normalize = true
        // sRGB red is L* 53.24, a* 80.09, b* 67.20; white 100, 0, 0; mid grey (0.5) L* 53.39.
        for (input, lab) in [((1.0, 0.0, 0.0), (53.24, 80.09, 67.20)), ((1, 1, 1), (100, 0, 0)), ((0.5, 0.5, 0.5), (53.39, 0, 0))] {
            filter.inputImage = colour(input.0, input.1, input.2)
            let got = try value(filter.outputImage)
            XCTAssertEqual(got[0], lab.0 / 100 * 255, accuracy: 1.5, "L* of \(input)")
            XCTAssertEqual(got[1], (lab.1 + 128) / 255 * 255, accuracy: 1.5, "a* of \(input)")
            XCTAssertEqual(got[2], (lab.2 + 128) / 255 * 255, accuracy: 1.5, "b* of \(input)")
        }
        // Not normalized, the values themselves: L* 100 of white in red (read at a hundredth).
        filter.normalize = false
        filter.inputImage = colour(1, 1, 1)
        XCTAssertEqual(try value(try scaled(filter.outputImage, 0.01))[0], 255, accuracy: 1.5)
        // And back again.
        let back = CIFilter.convertLabToRGB()
        for input in [(0.2, 0.6, 0.9), (0.9, 0.3, 0.1)] {
            filter.inputImage = colour(input.0, input.1, input.2)
            back.inputImage = filter.outputImage
            let got = try value(back.outputImage)
            XCTAssertEqual(got[0], input.0 * 255, accuracy: 2)
            XCTAssertEqual(got[1], input.1 * 255, accuracy: 2)
            XCTAssertEqual(got[2], input.2 * 255, accuracy: 2)
        }
    }

    func testTheLabDifferenceIsCIE94s() throws {
        let filter = CIFilter.labDeltaE()
        filter.inputImage = colour(0.5, 0.5, 0.5)
        filter.image2 = colour(0.5, 0.5, 0.5)
        XCTAssertEqual(try value(filter.outputImage)[0], 0, "no difference")
        // Two greys differ in L* only: ΔE94 is |ΔL*|. L* of 0.6 grey: 116 f(Y) - 16, Y = ((0.6 + 0.055) / 1.055)^2.4.
        func lightness(_ v: Double) -> Double { 116 * pow(pow((v + 0.055) / 1.055, 2.4), 1.0 / 3) - 16 }
        filter.image2 = colour(0.6, 0.6, 0.6)
        XCTAssertEqual(try value(try scaled(filter.outputImage, 0.1))[0], (lightness(0.6) - lightness(0.5)) * 0.1 * 255, accuracy: 1.5)
        // Red against a darker red: ΔL*, ΔC* over 1 + 0.045 C*, ΔH* over 1 + 0.015 C*.
        filter.inputImage = colour(1, 0, 0)
        filter.image2 = colour(0.8, 0, 0)
        XCTAssertGreaterThan(try value(try scaled(filter.outputImage, 0.01))[0], 10, "a clear difference")
    }

    func testSobelGradientsAreSignedAcrossInRedAndUpInGreen() throws {
        let step = colour(1, 1, 1, CGRect(x: 4, y: 0, width: 4, height: 8)).composited(over: colour(0, 0, 0))
        let filter = CIFilter.sobelGradients()
        filter.inputImage = step
        // A step from 0 to 1 across: 4 at the step; read as 0.5 + g / 8.
        let across = try value(try scaled(filter.outputImage, 0.125, bias: 0.5), 4, 4)
        XCTAssertEqual(across[0], 255, accuracy: 1.5, "rising across")
        XCTAssertEqual(across[1], 127.5, accuracy: 1.5, "no change up")
        let flat = try value(try scaled(filter.outputImage, 0.125, bias: 0.5), 1, 4)
        XCTAssertEqual(flat[0], 127.5, accuracy: 1.5)
        filter.inputImage = colour(0, 0, 0, CGRect(x: 4, y: 0, width: 4, height: 8)).composited(over: colour(1, 1, 1))
        XCTAssertEqual(try value(try scaled(filter.outputImage, 0.125, bias: 0.5), 4, 4)[0], 0, accuracy: 1.5, "falling across: negative")
    }

    func testColourCurvesInterpolateTheirPoints() throws {
        let filter = CIFilter.colorCurves()
        filter.inputImage = colour(0.25, 0.5, 0.75)
        XCTAssertEqual(try value(filter.outputImage), [64, 128, 191, 255], "the default is the identity")
        // Three points over 0-1: red 0, 1, 1 (doubled then held), green 1, 0.5, 0 (inverted), blue as it is.
        filter.curvesData = [Float(0), 1, 0, 1, 0.5, 0.5, 1, 0, 1].withUnsafeBytes { Data($0) }
        let got = try value(filter.outputImage)
        XCTAssertEqual(got[0], 127.5, accuracy: 1.5, "red 0.25 halfway to the middle point")
        XCTAssertEqual(got[1], 127.5, accuracy: 1.5, "green 0.5 at the middle point")
        XCTAssertEqual(got[2], 191.25, accuracy: 1.5)
    }

    func testTheStrokeAndTheBlurredRectangle() throws {
        let stroke = CIFilter.roundedRectangleStrokeGenerator()
        XCTAssertEqual(stroke.width, 10)
        stroke.extent = CGRect(x: 10, y: 10, width: 60, height: 40)
        stroke.radius = 8
        stroke.width = 4
        stroke.color = CIColor(red: 1, green: 0, blue: 0)
        let ring = try XCTUnwrap(stroke.outputImage)
        XCTAssertEqual(try value(ring, 40, 10), [255, 0, 0, 255], "on the bottom edge")
        XCTAssertEqual(try value(ring, 40, 30), [0, 0, 0, 0], "inside")
        XCTAssertEqual(try value(ring, 40, 5), [0, 0, 0, 0], "outside")
        XCTAssertEqual(try value(ring, 10, 10), [0, 0, 0, 0], "beyond the rounded corner")
        let blurred = CIFilter.blurredRectangleGenerator()
        XCTAssertEqual(blurred.sigma, 10)
        blurred.extent = CGRect(x: 0, y: 0, width: 100, height: 100)
        blurred.sigma = 4
        blurred.color = CIColor(red: 0, green: 0, blue: 1)
        let soft = try XCTUnwrap(blurred.outputImage)
        XCTAssertEqual(try value(soft, 50, 50), [0, 0, 255, 255], "the middle")
        XCTAssertEqual(try value(soft, 0, 50)[3], 127.5, accuracy: 20, "about half at the edge")
        XCTAssertLessThan(try value(soft, -12, 50)[3], 5, "three sigma out")
    }
}
