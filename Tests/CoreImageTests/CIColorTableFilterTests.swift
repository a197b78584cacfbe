import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Colour cubes, colour maps, thresholds and the other colour filters computed band by band,
/// against values computed here from Apple's descriptions.
final class CIColorTableFilterTests: XCTestCase {
    let context = CIContext()

    private func colour(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> CIImage {
        CIImage(color: CIColor(red: r, green: g, blue: b, alpha: a)).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 8))
    }

    private func value(_ image: CIImage?, _ x: Int = 2, _ y: Int = 2) throws -> [Double] {
        Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context)
    }

    private func assertClose(_ got: [Double], _ want: [Double], _ message: String, accuracy: Double = 2, line: UInt = #line) {
        for band in 0..<want.count { XCTAssertEqual(got[band], want[band], accuracy: accuracy, "\(message): \(got) against \(want)", line: line) }
    }

    /// Apple's cube data (RGBA floats, red fastest, then green, then blue) of a function.
    private func cubeData(_ n: Int, _ f: (Double, Double, Double) -> [Double]) -> Data {
        var values: [Float] = []
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n { values += f(Double(r) / Double(n - 1), Double(g) / Double(n - 1), Double(b) / Double(n - 1)).map(Float.init) }
            }
        }
        return values.withUnsafeBytes { Data($0) }
    }

    func testAColourCubeLooksColoursUpWithTrilinearInterpolation() throws {
        let filter = CIFilter.colorCube()
        XCTAssertEqual(filter.cubeDimension, 2, "Apple's default")
        filter.inputImage = colour(0.3, 0.6, 0.9)
        assertClose(try value(filter.outputImage), [77, 153, 230, 255], "the default cube is the identity")
        // Red and blue swapped, green inverted: linear in each, so exact between the grid points.
        filter.cubeDimension = 5
        filter.cubeData = cubeData(5) { r, g, b in [b, 1 - g, r, 1] }
        assertClose(try value(filter.outputImage), [0.9 * 255, 0.4 * 255, 0.3 * 255, 255], "swapped and inverted")
        // Red squared at the grid points of a 3-cube: between them the cube is linear, not square.
        filter.cubeDimension = 3
        filter.cubeData = cubeData(3) { r, g, b in [r * r, g, b, 1] }
        filter.inputImage = colour(0.25, 0, 0)
        assertClose(try value(filter.outputImage), [0.125 * 255, 0, 0, 255], "halfway between 0 and 0.25 at the grid's 0 and 0.5")
        // A translucent pixel: looked up by its colour, the result scaled by its alpha.
        filter.cubeData = cubeData(3) { r, g, b in [1 - r, 1 - g, 1 - b, 1] }
        filter.inputImage = colour(1, 0.5, 0, 0.5)
        assertClose(try value(filter.outputImage), [0, 0.5 * 0.5 * 255, 0.5 * 255, 0.5 * 255], "inverted, premultiplied by one half")
        // Data of the wrong size gives nothing.
        filter.cubeDimension = 4
        XCTAssertEqual(filter.outputImage?.extent, .null)
        let withSpace = CIFilter.colorCubeWithColorSpace()
        withSpace.cubeDimension = 2
        withSpace.cubeData = cubeData(2) { r, g, b in [g, b, r, 1] }
        withSpace.colorSpace = CGColorSpaceCreateDeviceRGB()
        withSpace.inputImage = colour(0.2, 0.4, 0.6)
        assertClose(try value(withSpace.outputImage), [0.4 * 255, 0.6 * 255, 0.2 * 255, 255], "the same look-up")
    }

    func testTwoCubesAreMixedByAMasksLuma() throws {
        let filter = CIFilter.colorCubesMixedWithMask()
        filter.inputImage = colour(0.2, 0.4, 0.6)
        filter.cubeDimension = 2
        filter.cube0Data = cubeData(2) { _, _, _ in [1, 0, 0, 1] }
        filter.cube1Data = cubeData(2) { _, _, _ in [0, 0, 1, 1] }
        filter.maskImage = colour(1, 1, 1).cropped(to: CGRect(x: 4, y: 0, width: 4, height: 8)).composited(over: colour(0, 0, 0))
        assertClose(try value(filter.outputImage, 1, 1), [255, 0, 0, 255], "cube 0 where the mask is black")
        assertClose(try value(filter.outputImage, 6, 1), [0, 0, 255, 255], "cube 1 where it is white")
    }

    func testAColourMapTakesEachColourFromTheGradientAtItsLuma() throws {
        // A gradient image 11 pixels across: red to blue in steps of a tenth.
        let stops = (0...10).map {
            CIImage(color: CIColor(red: 1 - Double($0) / 10, green: 0, blue: Double($0) / 10)).cropped(to: CGRect(x: $0, y: 0, width: 1, height: 1))
        }
        let gradient = stops.dropFirst().reduce(stops[0]) { $1.composited(over: $0) }
        let filter = CIFilter.colorMap()
        filter.gradientImage = gradient
        for grey in [0.0, 0.3, 0.55, 1] {
            filter.inputImage = colour(grey, grey, grey)
            // The grey's luma is itself: the place along the gradient.
            let t = (grey * 255).rounded() / 255
            assertClose(try value(filter.outputImage), [255 * (1 - t), 0, 255 * t, 255], "grey \(grey)", accuracy: 3)
        }
    }

    func testThermalRunsFromBlackToWhiteAndXRayInvertsTheLuma() throws {
        func luma(_ v: [Double]) -> Double { 0.3 * v[0] + 0.59 * v[1] + 0.11 * v[2] }
        var previous = -1.0
        for grey in stride(from: 0.0, through: 1, by: 0.125) {
            let hot = luma(try value(CIFilter.thermal().applying(colour(grey, grey, grey))))
            XCTAssertGreaterThanOrEqual(hot, previous - 1, "thermal: lighter input, lighter output")
            previous = hot
        }
        assertClose(try value(CIFilter.thermal().applying(colour(0, 0, 0))), [0, 0, 0, 255], "cold is black")
        assertClose(try value(CIFilter.thermal().applying(colour(1, 1, 1))), [255, 255, 255, 255], "hot is white")
        XCTAssertGreaterThan(luma(try value(CIFilter.xRay().applying(colour(0, 0, 0)))), 230, "black shows light")
        XCTAssertLessThan(luma(try value(CIFilter.xRay().applying(colour(1, 1, 1)))), 20, "white shows dark")
        let mid = try value(CIFilter.xRay().applying(colour(0.5, 0.5, 0.5)))
        XCTAssertGreaterThan(mid[2], mid[0], "a cold tint")
    }

    func testThresholdsSplitEachBand() throws {
        let filter = CIFilter.colorThreshold()
        XCTAssertEqual(filter.threshold, 0.5)
        filter.inputImage = colour(0.6, 0.4, 0.9)
        XCTAssertEqual(try value(filter.outputImage), [255, 0, 255, 255])
        filter.threshold = 0.95
        XCTAssertEqual(try value(filter.outputImage), [0, 0, 0, 255])
        // Otsu: an image of two greys, 0.2 on 24 of 64 columns and 0.7 on the rest, splits between them.
        let twoGreys = CIImage(color: CIColor(red: 0.7, green: 0.7, blue: 0.7)).cropped(to: CGRect(x: 24, y: 0, width: 40, height: 8)).composited(
            over: CIImage(color: CIColor(red: 0.2, green: 0.2, blue: 0.2)).cropped(to: CGRect(x: 0, y: 0, width: 64, height: 8)))
        let otsu = CIFilter.colorThresholdOtsu()
        otsu.inputImage = twoGreys
        XCTAssertEqual(try value(otsu.outputImage, 10, 3), [0, 0, 0, 255], CIContext.lastRenderingProblem ?? "")
        XCTAssertEqual(try value(otsu.outputImage, 40, 3), [255, 255, 255, 255])
    }

    func testTheAbsoluteDifferenceAndTheCrossPolynomial() throws {
        let difference = CIFilter.colorAbsoluteDifference()
        difference.inputImage = colour(0.2, 0.9, 0.5)
        difference.inputImage2 = colour(0.6, 0.3, 0.5, 0.5)
        assertClose(try value(difference.outputImage), [0.4 * 0.5 * 255, 0.6 * 0.5 * 255, 0, 0.5 * 255], "|a - b|, alpha the product")
        let polynomial = CIFilter.colorCrossPolynomial()
        polynomial.inputImage = colour(0.5, 0.4, 0.2)
        assertClose(try value(polynomial.outputImage), [127.5, 102, 51, 255], "the default is the identity")
        // red = r^2 + 0.1, green = r g + g b, blue = 0.5 b.
        polynomial.redCoefficients = CIVector(values: [0, 0, 0, 1, 0, 0, 0, 0, 0, 0.1], count: 10)
        polynomial.greenCoefficients = CIVector(values: [0, 0, 0, 0, 0, 0, 1, 1, 0, 0], count: 10)
        polynomial.blueCoefficients = CIVector(values: [0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0], count: 10)
        assertClose(try value(polynomial.outputImage), [0.35 * 255, 0.28 * 255, 0.1 * 255, 255], "the terms")
    }

    func testDitherAddsZeroMeanNoiseOfTheIntensity() throws {
        let filter = CIFilter.dither()
        XCTAssertEqual(filter.intensity, 0.1, accuracy: 1e-6)
        filter.inputImage = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 64, height: 64))
        filter.intensity = 0.2
        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        context.render(
            try XCTUnwrap(filter.outputImage), toBitmap: &pixels, rowBytes: 64 * 4, bounds: CGRect(x: 0, y: 0, width: 64, height: 64), format: .RGBA8,
            colorSpace: nil)
        let reds = stride(from: 0, to: pixels.count, by: 4).map { Double(pixels[$0]) / 255 }
        let mean = reds.reduce(0, +) / Double(reds.count)
        let deviation = (reds.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(reds.count)).squareRoot()
        XCTAssertEqual(mean, 0.5, accuracy: 0.01)
        XCTAssertEqual(deviation, 0.2 / 12.0.squareRoot(), accuracy: 0.01, "uniform noise 0.2 wide")
        filter.intensity = 0
        XCTAssertEqual(try value(filter.outputImage), [128, 128, 128, 255])
    }

    func testBlendingWithARedOrBlueMask() throws {
        let mask = colour(1, 0, 0).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 8)).composited(over: colour(0, 0, 1))
        for (filter, maskedSide) in [(CIFilter.blendWithRedMask() as CIFilter & CIBlendWithMask, 1), (CIFilter.blendWithBlueMask(), 6)] {
            filter.inputImage = colour(0, 1, 0)
            filter.backgroundImage = colour(1, 1, 1)
            filter.maskImage = mask
            XCTAssertEqual(try value(filter.outputImage, maskedSide, 2), [0, 255, 0, 255], "\(filter.name): the image where the mask's band is 1")
            XCTAssertEqual(try value(filter.outputImage, 7 - maskedSide, 2), [255, 255, 255, 255], "\(filter.name): the background elsewhere")
        }
    }
}

private extension CIFilter {
    /// The filter's output for an input image.
    func applying(_ image: CIImage) -> CIImage? {
        setValue(image, forKey: kCIInputImageKey)
        return outputImage
    }
}
