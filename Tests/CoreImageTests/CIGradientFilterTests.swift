import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The gradients, the random generator and the rounded rectangle, against colours computed here
/// from each filter's documented geometry.
final class CIGradientFilterTests: XCTestCase {
    let context = CIContext()

    private func value(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Double] {
        Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context)
    }

    private func assertColour(_ got: [Double], _ want: [Double], _ message: String, accuracy: Double = 2, line: UInt = #line) {
        for band in 0..<4 { XCTAssertEqual(got[band], want[band], accuracy: accuracy, "\(message): \(got) against \(want)", line: line) }
    }

    func testALinearGradientGoesFromColourZeroAtPointZeroToColourOneAtPointOne() throws {
        let filter = CIFilter.linearGradient()
        XCTAssertEqual(filter.point0, .zero, "Apple's default")
        XCTAssertEqual(filter.point1, CGPoint(x: 200, y: 200), "Apple's default")
        filter.point0 = CGPoint(x: 10, y: 0)
        filter.point1 = CGPoint(x: 110, y: 0)
        filter.color0 = CIColor(red: 1, green: 0, blue: 0)
        filter.color1 = CIColor(red: 0, green: 0, blue: 1)
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertTrue(image.extent.isInfinite)
        // The pixel whose centre is x + 0.5: t = (x + 0.5 - 10) / 100, the same at every height.
        for x in [0, 30, 59, 85, 200] {
            let t = min(1, max(0, (Double(x) + 0.5 - 10) / 100))
            for y in [-50, 7] { assertColour(try value(image, x, y), [255 * (1 - t), 0, 255 * t, 255], "x \(x), y \(y)") }
        }
        // A diagonal: the colour is constant along lines across the gradient.
        filter.point0 = .zero
        filter.point1 = CGPoint(x: 100, y: 100)
        let diagonal = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(try value(diagonal, 20, 60), try value(diagonal, 60, 20))
        assertColour(try value(diagonal, 49, 50), [127.5, 0, 127.5, 255], "the middle")
    }

    func testTheSmoothLinearGradientEasesBySmoothstep() throws {
        let filter = CIFilter.smoothLinearGradient()
        filter.point0 = .zero
        filter.point1 = CGPoint(x: 100, y: 0)
        filter.color0 = CIColor(red: 0, green: 0, blue: 0)
        filter.color1 = CIColor(red: 1, green: 1, blue: 1)
        let image = try XCTUnwrap(filter.outputImage)
        for x in [10, 24, 50, 75, 90] {
            let t = (Double(x) + 0.5) / 100, eased = t * t * (3 - 2 * t)
            assertColour(try value(image, x, 3), [255 * eased, 255 * eased, 255 * eased, 255], "x \(x)")
        }
    }

    func testARadialGradientIsColourZeroInsideRadiusZeroAndColourOneBeyondRadiusOne() throws {
        let filter = CIFilter.radialGradient()
        XCTAssertEqual(filter.center, CGPoint(x: 150, y: 150))
        XCTAssertEqual(filter.radius0, 5)
        XCTAssertEqual(filter.radius1, 100)
        filter.center = CGPoint(x: 50, y: 50)
        filter.radius0 = 10
        filter.radius1 = 30
        filter.color0 = CIColor(red: 1, green: 1, blue: 1)
        filter.color1 = CIColor(red: 0, green: 0, blue: 0, alpha: 0)
        let image = try XCTUnwrap(filter.outputImage)
        assertColour(try value(image, 50, 50), [255, 255, 255, 255], "the centre")
        assertColour(try value(image, 90, 50), [0, 0, 0, 0], "beyond the outer radius")
        // At (69.5, 50.5) the distance is 19.5 (plus a hair): t = (d - 10) / 20.
        let d = hypot(19.5, 0.5), t = (d - 10) / 20
        assertColour(try value(image, 69, 50), [255 * (1 - t), 255 * (1 - t), 255 * (1 - t), 255 * (1 - t)], "between the radii")
    }

    func testAGaussianGradientFallsByAGaussianOfAThirdOfTheRadius() throws {
        let filter = CIFilter.gaussianGradient()
        XCTAssertEqual(filter.radius, 300)
        XCTAssertEqual(filter.color1, CIColor(red: 0, green: 0, blue: 0, alpha: 0))
        filter.center = CGPoint(x: 0.5, y: 0.5)
        filter.radius = 60
        filter.color0 = CIColor(red: 1, green: 0, blue: 0)
        filter.color1 = CIColor(red: 0, green: 0, blue: 1)
        let image = try XCTUnwrap(filter.outputImage)
        for x in [0, 10, 20, 40, 60, 100] {
            let weight = exp(-pow(Double(x), 2) / (2 * 20 * 20))
            assertColour(try value(image, x, 0), [255 * weight, 0, 255 * (1 - weight), 255], "x \(x)")
        }
    }

    func testTheRandomGeneratorIsUniformIndependentAndTheSameWhereverItIsRendered() throws {
        let image = try XCTUnwrap(CIFilter.randomGenerator().outputImage)
        XCTAssertTrue(image.extent.isInfinite)
        let side = 128
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        context.render(image, toBitmap: &pixels, rowBytes: side * 4, bounds: CGRect(x: 0, y: 0, width: side, height: side), format: .RGBA8, colorSpace: nil)
        // Alpha uniform on 0-1: mean 0.5, standard deviation 1/sqrt(12); every tenth of the range used about equally.
        let alpha = stride(from: 3, to: pixels.count, by: 4).map { Double(pixels[$0]) / 255 }
        let mean = alpha.reduce(0, +) / Double(alpha.count)
        let deviation = (alpha.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(alpha.count)).squareRoot()
        XCTAssertEqual(mean, 0.5, accuracy: 0.02)
        XCTAssertEqual(deviation, 1 / 12.0.squareRoot(), accuracy: 0.02)
        var tenths = [Int](repeating: 0, count: 10)
        for value in alpha { tenths[min(9, Int(value * 10))] += 1 }
        for count in tenths { XCTAssertEqual(Double(count), Double(alpha.count) / 10, accuracy: Double(alpha.count) / 40, "\(tenths)") }
        // Neighbours are not alike: the correlation of each pixel's alpha with the next one's is near 0.
        var products = 0.0
        for index in 0..<(alpha.count - 1) { products += (alpha[index] - mean) * (alpha[index + 1] - mean) }
        XCTAssertEqual(products / Double(alpha.count - 1) / (deviation * deviation), 0, accuracy: 0.06)
        // The bands are not copies of each other, and colours never exceed alpha (premultiplied).
        XCTAssertNotEqual(pixels[0], pixels[3])
        for index in stride(from: 0, to: pixels.count, by: 4) {
            XCTAssertLessThanOrEqual(max(pixels[index], pixels[index + 1], pixels[index + 2]), pixels[index + 3])
        }
        // The same pixel rendered alone is the same.
        let alone = Pictures.value(image, x: 37, y: 128 - 1 - 90, context: context)
        XCTAssertEqual(alone, (0..<4).map { Double(pixels[(90 * side + 37) * 4 + $0]) })
    }

    func testARoundedRectangleFillsItsExtentButItsCorners() throws {
        let filter = CIFilter.roundedRectangleGenerator()
        XCTAssertEqual(filter.extent, CGRect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(filter.radius, 10)
        filter.extent = CGRect(x: 10, y: 20, width: 60, height: 40)
        filter.radius = 12
        filter.color = CIColor(red: 0, green: 1, blue: 0)
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 10, y: 20, width: 60, height: 40))
        assertColour(try value(image, 40, 40), [0, 255, 0, 255], "inside")
        assertColour(try value(image, 10, 40), [0, 255, 0, 255], "the middle of the left edge")
        assertColour(try value(image, 40, 59), [0, 255, 0, 255], "the middle of the top edge")
        assertColour(try value(image, 10, 20), [0, 0, 0, 0], "the bottom-left corner, cut off")
        assertColour(try value(image, 69, 59), [0, 0, 0, 0], "the top-right corner, cut off")
        // On the corner's arc, 12 from its centre (22, 32), half covered.
        let onArc = try value(image, 13, 23)
        let distance = hypot(22 - 13.5, 32 - 23.5) - 12
        assertColour(onArc, [0, 255 * min(1, max(0, 0.5 - distance)), 0, 255 * min(1, max(0, 0.5 - distance))], "on the arc", accuracy: 3)
    }

    func testTheGeneratorsAreListedByCategoryWithTheirDefaults() throws {
        let gradients = Set(CIFilter.filterNames(inCategory: kCICategoryGradient))
        for name in ["CILinearGradient", "CISmoothLinearGradient", "CIRadialGradient", "CIGaussianGradient"] { XCTAssertTrue(gradients.contains(name), name) }
        let generators = Set(CIFilter.filterNames(inCategory: kCICategoryGenerator))
        for name in ["CIRandomGenerator", "CIRoundedRectangleGenerator"] { XCTAssertTrue(generators.contains(name), name) }
        let linear = try XCTUnwrap(CIFilter(name: "CILinearGradient"))
        XCTAssertEqual(linear.value(forKey: "inputColor0") as? CIColor, CIColor.white)
        XCTAssertEqual(linear.value(forKey: "inputColor1") as? CIColor, CIColor.black)
        XCTAssertEqual(linear.inputKeys, ["inputPoint0", "inputPoint1", "inputColor0", "inputColor1"])
    }
}
