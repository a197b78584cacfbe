import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Rendering into float bitmaps (RGBAf, RGBAh), which keep values beyond 0-1: a signed gradient's
/// negative half, a signed distance inside its mask, and reductions whose results are fractions.
final class CIFloatBitmapTests: XCTestCase {
    let context = CIContext()

    private func solid(_ red: Double, _ green: Double, _ blue: Double, _ rect: CGRect) -> CIImage {
        CIImage(color: CIColor(red: red, green: green, blue: blue)).cropped(to: rect)
    }

    /// The R, G, B, A floats of one pixel.
    private func floats(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Float] {
        var values = [Float](repeating: .nan, count: 4)
        context.render(try XCTUnwrap(image), toBitmap: &values, rowBytes: 16, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBAf, colorSpace: nil)
        return values
    }

    /// The R, G, B, A half floats of one pixel, widened.
    private func halves(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Float] {
        var values = [Float16](repeating: .nan, count: 4)
        context.render(try XCTUnwrap(image), toBitmap: &values, rowBytes: 8, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBAh, colorSpace: nil)
        return values.map(Float.init)
    }

    func testAnImageInFloatsIsItsEightBitValuesOver255() throws {
        let image = solid(1, 0.5, 0.25, CGRect(x: 0, y: 0, width: 8, height: 8))
        var bytes = [UInt8](repeating: 0, count: 4)
        context.render(image, toBitmap: &bytes, rowBytes: 4, bounds: CGRect(x: 3, y: 3, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        let got = try floats(image, 3, 3), half = try halves(image, 3, 3)
        for index in 0..<4 {
            XCTAssertEqual(got[index], Float(bytes[index]) / 255, accuracy: 0.51 / 255, "component \(index): R, G, B, A in that order")
            XCTAssertEqual(half[index], got[index], accuracy: 0.001, "half floats: component \(index)")
        }
        // A whole bitmap: rows from the top, each 16 bytes a pixel, a padded row length kept.
        let gradient = CIFilter.linearGradient()
        gradient.point0 = .zero
        gradient.point1 = CGPoint(x: 0, y: 4)
        gradient.color0 = CIColor(red: 0, green: 0, blue: 0)
        gradient.color1 = CIColor(red: 1, green: 1, blue: 1)
        var rows = [Float](repeating: -1, count: 5 * 4 * 4)
        context.render(
            try XCTUnwrap(gradient.outputImage), toBitmap: &rows, rowBytes: 5 * 16, bounds: CGRect(x: 0, y: 0, width: 4, height: 4), format: .RGBAf,
            colorSpace: nil)
        XCTAssertEqual(rows[0], 3.5 / 4, accuracy: 0.01, "the top row is the brightest")
        XCTAssertEqual(rows[3 * 20], 0.5 / 4, accuracy: 0.01, "the bottom row the darkest")
        XCTAssertEqual(rows[16], -1, "the row's padding is left alone")
    }

    func testFloatsKeepASignedGradientsNegativeHalf() throws {
        // White on the left, black on the right: Sobel's gradient across is negative at the step.
        let sobel = CIFilter.sobelGradients()
        sobel.inputImage = solid(1, 1, 1, CGRect(x: 0, y: 0, width: 10, height: 10)).composited(over: solid(0, 0, 0, CGRect(x: 0, y: 0, width: 20, height: 10)))
        let across = try floats(sobel.outputImage, 9, 5)
        XCTAssertEqual(across[0], -4, accuracy: 0.01, "Sobel's step of -1 across: -4")
        XCTAssertEqual(try halves(sobel.outputImage, 9, 5)[0], -4, accuracy: 0.01, "in half floats too")
        var bytes = [UInt8](repeating: 9, count: 4)
        context.render(
            try XCTUnwrap(sobel.outputImage), toBitmap: &bytes, rowBytes: 4, bounds: CGRect(x: 9, y: 5, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        XCTAssertEqual(bytes[0], 0, "8 bits clip it to 0")
    }

    func testARenderDestinationTakesFloatBitmaps() throws {
        var values = [Float](repeating: 0, count: 2 * 2 * 4)
        try values.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 2, height: 2, bytesPerRow: 32, format: .RGBAf)
            _ = try context.startTask(toRender: solid(0, 1, 0, CGRect(x: 0, y: 0, width: 2, height: 2)), to: destination).waitUntilCompleted()
        }
        XCTAssertEqual(Array(values[0..<4]), [0, 1, 0, 1])
        XCTAssertEqual(Array(values[12..<16]), [0, 1, 0, 1])
    }

    func testTheAreaBoundsOfRedAreFractionsOfTheExtent() throws {
        let bounds = CIFilter.areaBoundsRed()
        XCTAssertEqual(bounds.extent, CGRect(x: 0, y: 0, width: 640, height: 80), "Apple's default")
        bounds.inputImage = solid(1, 0, 0, CGRect(x: 20, y: 10, width: 10, height: 5)).composited(
            over: solid(0, 0, 1, CGRect(x: 0, y: 0, width: 100, height: 50)))
        bounds.extent = CGRect(x: 0, y: 0, width: 100, height: 50)
        let image = try XCTUnwrap(bounds.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 1, height: 1))
        let box = try floats(image, 0, 0)
        for (got, want) in zip(box, [Float(0.2), 0.2, 0.1, 0.1]) { XCTAssertEqual(got, want, accuracy: 0.001, "left, bottom, width, height: \(box)") }
        // Within a part of the image: fractions of that part.
        bounds.extent = CGRect(x: 10, y: 0, width: 40, height: 20)
        let part = try floats(bounds.outputImage, 10, 0)
        for (got, want) in zip(part, [Float(0.25), 0.5, 0.25, 0.25]) { XCTAssertEqual(got, want, accuracy: 0.001, "\(part)") }
        bounds.inputImage = solid(0, 1, 0, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(try floats(bounds.outputImage, 10, 0), [0, 0, 0, 0], "no red: an empty box")
    }

    func testTheSignedDistanceIsNegativeInsideTheMask() throws {
        let signed = CIFilter.signedDistanceGradientFromRedMask()
        XCTAssertEqual(signed.maximumDistance, 10, "the unsigned gradient's default")
        signed.inputImage = solid(1, 0, 0, CGRect(x: 20, y: 20, width: 10, height: 10))
        XCTAssertEqual(try floats(signed.outputImage, 25, 25)[0], -0.5, accuracy: 0.001, "5 pixels in from the nearest edge")
        XCTAssertEqual(try floats(signed.outputImage, 35, 25)[0], 0.6, accuracy: 0.001, "6 pixels out")
        XCTAssertEqual(try floats(signed.outputImage, 60, 60)[0], 1, "beyond the maximum")
        XCTAssertEqual(try floats(signed.outputImage, 25, 25)[3], 1, "opaque")
    }
}
