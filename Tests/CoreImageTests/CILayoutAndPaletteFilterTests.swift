import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Nine-part stretching and tiling (on a ramp, whose colours say where each pixel came from),
/// palettes, k-means and document enhancement, against values computed here.
final class CILayoutAndPaletteFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 60, height: 40))

    private func from(_ image: CIImage?, _ x: Int, _ y: Int) throws -> (Double, Double) {
        let source = Pictures.rampSource(try XCTUnwrap(image), x: x, y: y, context: context)
        return (source.x, source.y)
    }

    func testNinePartStretchingKeepsTheCornersAndStretchesTheMiddle() throws {
        let filter = CIFilter.ninePartStretched()
        XCTAssertEqual(filter.breakpoint0, CGPoint(x: 50, y: 50), "Apple's default")
        filter.inputImage = ramp
        filter.breakpoint0 = CGPoint(x: 10, y: 10)
        filter.breakpoint1 = CGPoint(x: 30, y: 20)
        filter.growAmount = CGPoint(x: 20, y: 0)
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 80, height: 40))
        XCTAssertEqual(try from(image, 5, 5).0, 5.5, accuracy: 0.2, "the left column as it was")
        XCTAssertEqual(try from(image, 75, 5).0, 55.5, accuracy: 0.2, "the right column moved by the growth")
        // The middle column, 20 wide, stretched over 40: the pixel at 30.5 from the one at 10 + 20.5 / 2.
        XCTAssertEqual(try from(image, 30, 5).0, 10 + 20.5 / 2, accuracy: 0.2)
    }

    func testNinePartTilingRepeatsTheMiddle() throws {
        let filter = CIFilter.ninePartTiled()
        filter.inputImage = ramp
        filter.breakpoint0 = CGPoint(x: 10, y: 10)
        filter.breakpoint1 = CGPoint(x: 30, y: 20)
        filter.growAmount = CGPoint(x: 40, y: 0)
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(try from(image, 15, 5).0, 15.5, accuracy: 0.2)
        XCTAssertEqual(try from(image, 35, 5).0, 15.5, accuracy: 0.2, "a tile's width on: the same column")
        XCTAssertEqual(try from(image, 55, 5).0, 15.5, accuracy: 0.2)
        XCTAssertEqual(try from(image, 95, 5).0, 55.5, accuracy: 0.2, "the right column moved by the growth")
    }

    private func colour(_ r: Double, _ g: Double, _ b: Double, _ rect: CGRect) -> CIImage {
        CIImage(color: CIColor(red: r, green: g, blue: b)).cropped(to: rect)
    }

    func testPalettizingTakesTheNearestColourOfThePalette() throws {
        let palette = colour(1, 0, 0, CGRect(x: 0, y: 0, width: 1, height: 1))
            .composited(over: colour(0, 0.5, 0, CGRect(x: 1, y: 0, width: 1, height: 1)))
            .composited(over: colour(1, 1, 1, CGRect(x: 2, y: 0, width: 1, height: 1)))
        let filter = CIFilter.palettize()
        filter.paletteImage = palette
        for (input, want) in [((0.8, 0.2, 0.1), [255.0, 0, 0, 255]), ((0.1, 0.4, 0.2), [0, 128, 0, 255]), ((0.9, 0.9, 0.8), [255, 255, 255, 255])] {
            filter.inputImage = colour(input.0, input.1, input.2, CGRect(x: 0, y: 0, width: 4, height: 4))
            XCTAssertEqual(Pictures.value(try XCTUnwrap(filter.outputImage), x: 1, y: 1, context: context), want, "\(input)")
        }
    }

    func testKMeansFindsTheTwoColoursOfAPictureAndTheirShares() throws {
        // A quarter red, three quarters blue.
        let picture = colour(1, 0, 0, CGRect(x: 0, y: 0, width: 10, height: 40)).composited(over: colour(0, 0, 1, CGRect(x: 0, y: 0, width: 40, height: 40)))
        let filter = CIFilter.kMeans()
        XCTAssertEqual(filter.count, 8, "Apple's default")
        filter.inputImage = picture
        filter.extent = picture.extent
        filter.count = 2
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 2, height: 1))
        let means = [Pictures.value(image, x: 0, y: 0, context: context), Pictures.value(image, x: 1, y: 0, context: context)]
        // Premultiplied by the share: red at a quarter, blue at three quarters, in some order.
        let sorted = means.sorted { $0[3] < $1[3] }
        XCTAssertEqual(sorted[0][3], 63.75, accuracy: 2)
        XCTAssertEqual(sorted[0][0], 63.75, accuracy: 2, "red")
        XCTAssertEqual(sorted[1][3], 191.25, accuracy: 2)
        XCTAssertEqual(sorted[1][2], 191.25, accuracy: 2, "blue")
    }

    func testTheDocumentEnhancerWhitensAShadowedPageAndKeepsItsInk() throws {
        // Paper darkening from white on the right to 0.6 on the left, with small black strokes.
        let shadow = CIFilter.linearGradient()
        shadow.point0 = .zero
        shadow.point1 = CGPoint(x: 80, y: 0)
        shadow.color0 = CIColor(red: 0.6, green: 0.6, blue: 0.6)
        shadow.color1 = CIColor(red: 1, green: 1, blue: 1)
        var page = try XCTUnwrap(shadow.outputImage).cropped(to: CGRect(x: 0, y: 0, width: 80, height: 40))
        for x in stride(from: 8, to: 76, by: 16) { page = colour(0, 0, 0, CGRect(x: x, y: 18, width: 3, height: 3)).composited(over: page) }
        let filter = CIFilter.documentEnhancer()
        XCTAssertEqual(filter.amount, 1)
        filter.inputImage = page
        let image = try XCTUnwrap(filter.outputImage)
        for x in [2, 30, 60, 78] { XCTAssertGreaterThanOrEqual(Pictures.value(image, x: x, y: 5, context: context)[0], 235, "paper at \(x) whitened") }
        XCTAssertLessThanOrEqual(Pictures.value(image, x: 9, y: 19, context: context)[0], 40, "ink kept dark in the shadow")
        XCTAssertLessThanOrEqual(Pictures.value(image, x: 57, y: 19, context: context)[0], 40, "and in the light")
    }
}
