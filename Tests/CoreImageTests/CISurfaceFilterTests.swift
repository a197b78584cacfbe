import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Glass distortion, height fields and shaded material, against values computed here.
final class CISurfaceFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    /// A grey ramp: black at x 0 to white at x 64, so its luma rises 1/64 a pixel.
    private var greyRamp: CIImage {
        let gradient = CIFilter.linearGradient()
        gradient.point0 = .zero
        gradient.point1 = CGPoint(x: 64, y: 0)
        gradient.color0 = CIColor(red: 0, green: 0, blue: 0)
        gradient.color1 = CIColor(red: 1, green: 1, blue: 1)
        return gradient.outputImage!
    }

    func testGlassBendsTheImageByItsTexturesSlope() throws {
        let glass = CIFilter.glassDistortion()
        XCTAssertEqual(glass.scale, 200, "Apple's default")
        glass.inputImage = ramp
        glass.textureImage = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5))
        glass.scale = 64
        let flat = Pictures.rampSource(try XCTUnwrap(glass.outputImage), x: 30, y: 20, context: context)
        XCTAssertEqual(flat.x, 30.5, accuracy: 0.2, "flat glass bends nothing")
        // A slope of 1/64 a pixel, times 64: one pixel across.
        glass.textureImage = greyRamp
        let bent = Pictures.rampSource(try XCTUnwrap(glass.outputImage), x: 30, y: 20, context: context)
        XCTAssertEqual(bent.x, 31.5, accuracy: 0.3)
        XCTAssertEqual(bent.y, 20.5, accuracy: 0.2)
    }

    func testAHeightFieldRisesFromTheMasksEdgeInward() throws {
        let mask = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 20, y: 0, width: 60, height: 40)).composited(
            over: CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 40)))
        let filter = CIFilter.heightFieldFromMask()
        XCTAssertEqual(filter.radius, 10)
        filter.inputImage = mask
        let field = try XCTUnwrap(filter.outputImage)
        let heights = (0..<50).map { Pictures.value(field, x: $0, y: 20, context: context)[0] }
        XCTAssertEqual(heights[5], 0, "outside")
        XCTAssertLessThan(heights[20], 40, "low at the edge")
        XCTAssertEqual(heights[45], 255, accuracy: 1, "a radius inside: the top")
        for x in 19..<40 { XCTAssertGreaterThanOrEqual(heights[x + 1], heights[x] - 0.5, "rising inward at \(x)") }
        XCTAssertEqual(Pictures.value(field, x: 45, y: 20, context: context)[3], 255, "opaque")
    }

    func testShadedMaterialTakesTheSpheresColourWhereItFacesTheSameWay() throws {
        // A lit sphere's picture: white in the middle, darkening outward.
        let light = CIFilter.radialGradient()
        light.center = CGPoint(x: 32, y: 32)
        light.radius0 = 0
        light.radius1 = 32
        light.color0 = CIColor(red: 1, green: 1, blue: 1)
        light.color1 = CIColor(red: 0, green: 0, blue: 0)
        let sphere = try XCTUnwrap(light.outputImage).cropped(to: CGRect(x: 0, y: 0, width: 64, height: 64))
        let filter = CIFilter.shadedMaterial()
        XCTAssertEqual(filter.scale, 10)
        filter.shadingImage = sphere
        filter.inputImage = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 40, height: 40))
        let flat = Pictures.value(try XCTUnwrap(filter.outputImage), x: 20, y: 20, context: context)
        XCTAssertGreaterThan(flat[0], 240, "a flat surface faces up: the sphere's middle")
        // A slope: the normal leans, and the sphere's colour there is darker.
        filter.inputImage = greyRamp.cropped(to: CGRect(x: 0, y: 0, width: 40, height: 40))
        filter.scale = 64
        let tilted = Pictures.value(try XCTUnwrap(filter.outputImage), x: 20, y: 20, context: context)
        // Slope 1 (64 x 1/64): the normal (-1, 0, 1) / sqrt 2, so the sphere's colour at 32 - 32 / sqrt 2.
        XCTAssertEqual(tilted[0], 255 * (1 - (32 / 2.0.squareRoot()) / 32), accuracy: 8)
    }
}
