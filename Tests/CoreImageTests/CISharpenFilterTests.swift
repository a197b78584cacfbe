import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The unsharp mask against its definition computed here: the image plus intensity times its
/// difference from a Gaussian blur of it.
final class CISharpenFilterTests: XCTestCase {
    let context = CIContext()
    let (dark, light) = (0.25, 0.75)

    /// A 64x8 picture whose left half is dark grey and right half light grey.
    private var step: CIImage {
        let left = CIImage(color: CIColor(red: dark, green: dark, blue: dark)).cropped(to: CGRect(x: 0, y: 0, width: 32, height: 8))
        let right = CIImage(color: CIColor(red: light, green: light, blue: light)).cropped(to: CGRect(x: 32, y: 0, width: 32, height: 8))
        return right.composited(over: left)
    }

    /// The grey across the middle row, one value a column.
    private func row(_ image: CIImage) -> [Double] {
        var pixels = [UInt8](repeating: 0, count: 64 * 8 * 4)
        context.render(image, toBitmap: &pixels, rowBytes: 64 * 4, bounds: CGRect(x: 0, y: 0, width: 64, height: 8), format: .RGBA8, colorSpace: nil)
        return (0..<64).map { Double(pixels[(4 * 64 + $0) * 4]) / 255 }
    }

    /// The step blurred by a Gaussian of `sigma` sampled at whole pixels, reaching three standard
    /// deviations, its ends carried on.
    private func blurredStep(_ sigma: Double) -> [Double] {
        let reach = Int((3 * sigma).rounded(.up))
        let weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        return (0..<64).map { x in
            zip(-reach...reach, weights).reduce(0) { sum, pair in sum + pair.1 / total * (min(63, max(0, x + pair.0)) < 32 ? dark : light) }
        }
    }

    func testTheEdgeGainsTheDifferenceFromItsBlurAndFlatPartsStay() throws {
        let filter = CIFilter.unsharpMask()
        XCTAssertEqual([filter.radius, filter.intensity], [2.5, 0.5], "Apple's defaults")
        filter.inputImage = step
        filter.radius = 2
        filter.intensity = 1
        let output = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(output.extent, step.extent, "the image's extent, not the blur's")
        let got = row(output), blur = blurredStep(2)
        let sharp = (0..<64).map { x in min(1, max(0, (x < 32 ? dark : light) * 2 - blur[x])) }
        for x in 0..<64 { XCTAssertEqual(got[x], sharp[x], accuracy: 3.0 / 255, "column \(x): \(got) against \(sharp)") }
        XCTAssertLessThan(got[31], dark - 0.05, "the dark side of the edge darkens")
        XCTAssertGreaterThan(got[32], light + 0.05, "the light side lightens")
        XCTAssertEqual(got[0], dark, accuracy: 1.0 / 255, "no halo at the picture's border")
        XCTAssertEqual(got[63], light, accuracy: 1.0 / 255)
    }

    func testNoIntensityOrRadiusChangesNothingAndNaNIsTheDefault() throws {
        let filter = try XCTUnwrap(CIFilter(name: "CIUnsharpMask", parameters: [kCIInputImageKey: step, kCIInputIntensityKey: 0]))
        XCTAssertEqual(row(try XCTUnwrap(filter.outputImage)), row(step))
        filter.setValue(1, forKey: kCIInputIntensityKey)
        filter.setValue(0, forKey: kCIInputRadiusKey)
        XCTAssertEqual(row(try XCTUnwrap(filter.outputImage)), row(step), "no radius, no blur to differ from")
        // A radius that is not a number is taken as the default, as every filter's numbers are.
        filter.setValue(Double.nan, forKey: kCIInputRadiusKey)
        let unnumbered = row(try XCTUnwrap(filter.outputImage))
        filter.setValue(2.5, forKey: kCIInputRadiusKey)
        XCTAssertEqual(unnumbered, row(try XCTUnwrap(filter.outputImage)))
    }
}
