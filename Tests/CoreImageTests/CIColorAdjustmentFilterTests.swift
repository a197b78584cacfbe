import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// Temperature and tint, vibrance, and highlights and shadows, each against what it should do
/// computed here: a published white adapted to another published white, the vibrance formula,
/// the shadow and highlight gain.
final class CIColorAdjustmentFilterTests: XCTestCase {
    typealias RGBA = Pictures.RGBA

    private func output(_ filter: CIFilter, at x: Int = 4, _ y: Int = 4) throws -> RGBA {
        let image = try XCTUnwrap(Pictures.render(try XCTUnwrap(filter.outputImage)))
        return Pictures.pixel(image, x: x, y: y)
    }

    private func solid(_ colour: RGBA) -> CIImage { CIImage(cvPixelBuffer: Pictures.solid(colour, width: 8, height: 8)) }

    /// sRGB's encoding of a linear value, 0-255.
    private func encode(_ linear: Double) -> Int {
        let v = min(1, max(0, linear))
        return Int(((v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055) * 255).rounded())
    }

    /// The 8-bit sRGB colour of a white given by its CIE xy chromaticity, scaled so that its largest component is `peak` in linear light.
    private func white(x: Double, y: Double, peak: Double = 0.8) -> RGBA {
        let (X, Y, Z) = (x / y, 1.0, (1 - x - y) / y)
        // IEC 61966-2-1's XYZ to linear sRGB.
        let r = 3.2406 * X - 1.5372 * Y - 0.4986 * Z, g = -0.9689 * X + 1.8758 * Y + 0.0415 * Z, b = 0.0557 * X - 0.2040 * Y + 1.0570 * Z
        let scale = peak / max(r, g, b)
        return RGBA(r: encode(r * scale), g: encode(g * scale), b: encode(b * scale), a: 255)
    }

    func testTemperatureAndTintAdaptsOneWhiteToAnother() throws {
        let filter = CIFilter.temperatureAndTint()
        XCTAssertEqual(filter.neutral, CIVector(x: 6500, y: 0), "Apple's default")
        XCTAssertEqual(filter.targetNeutral, CIVector(x: 6500, y: 0))
        // Illuminant D50's white (x 0.3457, y 0.3585, about 5003 K), told it is that white, becomes D65's: grey.
        let d50 = white(x: 0.3457, y: 0.3585)
        XCTAssertGreaterThan(d50.r - d50.b, 20, "D50 looks warm in sRGB")
        filter.inputImage = solid(d50)
        filter.neutral = CIVector(x: 5003, y: 0)
        filter.targetNeutral = CIVector(x: 6504, y: 0)
        let adapted = try output(filter)
        XCTAssertLessThanOrEqual(max(abs(adapted.r - adapted.g), abs(adapted.g - adapted.b), abs(adapted.r - adapted.b)), 3, "\(adapted)")
        // Illuminant A (x 0.44757, y 0.40745, 2856 K), on the Planckian side of the locus, likewise.
        filter.inputImage = solid(white(x: 0.44757, y: 0.40745, peak: 0.6))
        filter.neutral = CIVector(x: 2856, y: 0)
        let fromA = try output(filter)
        XCTAssertLessThanOrEqual(max(abs(fromA.r - fromA.g), abs(fromA.g - fromA.b), abs(fromA.r - fromA.b)), 4, "\(fromA)")
    }

    func testTemperatureAndTintWarmsCoolsAndTints() throws {
        let grey = RGBA(r: 128, g: 128, b: 128, a: 255)
        let filter = CIFilter.temperatureAndTint()
        filter.inputImage = solid(grey)
        XCTAssertEqual(try output(filter), grey, "the defaults change nothing")
        // A white taken as bluer than the target is made warmer, and one taken as warmer, cooler.
        filter.neutral = CIVector(x: 9000, y: 0)
        let warmer = try output(filter)
        XCTAssertGreaterThan(warmer.r, warmer.b + 10, "\(warmer)")
        filter.neutral = CIVector(x: 4500, y: 0)
        let cooler = try output(filter)
        XCTAssertGreaterThan(cooler.b, cooler.r + 10, "\(cooler)")
        // A white taken as greener is made more magenta.
        filter.neutral = CIVector(x: 6500, y: 50)
        let magenta = try output(filter)
        XCTAssertLessThan(magenta.g, min(magenta.r, magenta.b) - 3, "\(magenta)")
        filter.neutral = CIVector(x: Double.nan, y: 0)
        XCTAssertEqual(try output(filter), grey, "a temperature that is not a number changes nothing")
    }

    func testVibranceChangesTheLessSaturatedColoursMore() throws {
        let filter = CIFilter.vibrance()
        XCTAssertEqual(filter.amount, 0, "Apple's default")
        // Each colour c goes to m + (c - m)(1 + amount (1 - s)), m the mean, s = (max - min) / max.
        func expected(_ colour: RGBA, _ amount: Double) -> RGBA {
            let c = [Double(colour.r), Double(colour.g), Double(colour.b)]
            let m = c.reduce(0, +) / 3, largest = c.max()!, s = largest > 0 ? (largest - c.min()!) / largest : 0
            let f = 1 + amount * (1 - s)
            let out = c.map { Int(min(255, max(0, m + ($0 - m) * f)).rounded()) }
            return RGBA(r: out[0], g: out[1], b: out[2], a: 255)
        }
        for colour in [RGBA(r: 150, g: 120, b: 100, a: 255), RGBA(r: 90, g: 140, b: 200, a: 255), RGBA(r: 128, g: 128, b: 128, a: 255), .red] {
            for amount in [1.0, 0.5, -1.0] {
                filter.inputImage = solid(colour)
                filter.amount = Float(amount)
                let got = try output(filter)
                XCTAssertTrue(got.isClose(to: expected(colour, amount), tolerance: 1), "\(colour) at \(amount): \(got), want \(expected(colour, amount))")
            }
        }
        // A muted colour gains more than a saturated one.
        filter.amount = 1
        filter.inputImage = solid(RGBA(r: 150, g: 120, b: 100, a: 255))
        let muted = try output(filter)
        filter.inputImage = solid(RGBA(r: 220, g: 40, b: 30, a: 255))
        let vivid = try output(filter)
        XCTAssertGreaterThan(Double(muted.r - muted.b) / 50, Double(vivid.r - vivid.b) / 190, "relative spread grows more for the muted colour")
    }

    func testHighlightShadowAdjustLiftsShadowsAndLowersHighlights() throws {
        let filter = CIFilter.highlightShadowAdjust()
        XCTAssertEqual(filter.radius, 0, "Apple's defaults")
        XCTAssertEqual(filter.shadowAmount, 0)
        XCTAssertEqual(filter.highlightAmount, 1)
        // The gain is 1 + shadows (1 - b)^2 - (1 - highlights) b^2 / 2, b the pixel's Rec. 709 luma.
        func expected(_ grey: Int, shadows: Double, highlights: Double) -> Int {
            let b = Double(grey) / 255
            return Int(min(255, Double(grey) * (1 + shadows * (1 - b) * (1 - b) - (1 - highlights) * b * b / 2)).rounded())
        }
        for (grey, shadows, highlights) in [(40, 1.0, 1.0), (40, -1.0, 1.0), (230, 0.0, 0.0), (128, 0.5, 0.5), (200, 0, 1)] as [(Int, Double, Double)] {
            filter.inputImage = solid(RGBA(r: grey, g: grey, b: grey, a: 255))
            filter.shadowAmount = Float(shadows)
            filter.highlightAmount = Float(highlights)
            let got = try output(filter)
            XCTAssertEqual(
                got.g, expected(grey, shadows: shadows, highlights: highlights), accuracy: 1, "grey \(grey), shadows \(shadows), highlights \(highlights)")
        }
        XCTAssertGreaterThan(expected(40, shadows: 1, highlights: 1), 60, "the formula lifts a dark grey by half or more")
    }

    func testTheRadiusTakesBrightnessFromAroundEachPixel() throws {
        // Dark on the left half, white on the right: with a radius, a dark pixel by the edge sees
        // bright surroundings and is lifted less than one deep in the dark.
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 16, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = try XCTUnwrap(buffer)
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<16 {
            for x in 0..<64 {
                let value: UInt8 = x < 32 ? 40 : 255
                let pixel = base + y * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (value, value, value, 255)
            }
        }
        let filter = CIFilter.highlightShadowAdjust()
        filter.inputImage = CIImage(cvPixelBuffer: frame).clampedToExtent().cropped(to: CGRect(x: 0, y: 0, width: 64, height: 16))
        filter.shadowAmount = 1
        filter.radius = 6
        let image = try XCTUnwrap(Pictures.render(try XCTUnwrap(filter.outputImage)))
        let deep = Pictures.pixel(image, x: 4, y: 8).g, edge = Pictures.pixel(image, x: 30, y: 8).g
        XCTAssertGreaterThan(deep, edge + 5, "deep in the dark \(deep), by the edge \(edge)")
        XCTAssertGreaterThan(edge, 40, "still lifted by the edge")
    }
}
