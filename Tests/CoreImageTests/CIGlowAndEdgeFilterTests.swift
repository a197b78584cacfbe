import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// Bloom, gloom, edges, the vignette effect and posterisation, against values computed here.
final class CIGlowAndEdgeFilterTests: XCTestCase {
    let context = CIContext()

    private func grey(_ value: Double, _ rect: CGRect = CGRect(x: 0, y: 0, width: 40, height: 40)) -> CIImage {
        CIImage(color: CIColor(red: value, green: value, blue: value)).cropped(to: rect)
    }

    /// Black on the left half of a 40-pixel square, white on the right.
    private var step: CIImage { grey(1, CGRect(x: 20, y: 0, width: 20, height: 40)).composited(over: grey(0)) }

    func testBloomScreensAnImageWithItsBlurAndGloomDarkensTowardIt() throws {
        // On a flat grey g away from the edges the blur is g: bloom gives g + i g - g i g, gloom g.
        let bloom = CIFilter.bloom()
        XCTAssertEqual(bloom.radius, 10)
        XCTAssertEqual(bloom.intensity, 0.5, accuracy: 1e-6)
        bloom.inputImage = grey(0.4)
        bloom.radius = 3
        bloom.intensity = 0.5
        let flat = Pictures.value(try XCTUnwrap(bloom.outputImage), x: 20, y: 20, context: context)
        XCTAssertEqual(flat[0], 255 * (0.4 + 0.2 - 0.4 * 0.2), accuracy: 2)
        let gloom = CIFilter.gloom()
        gloom.inputImage = grey(0.4)
        gloom.radius = 3
        XCTAssertEqual(Pictures.value(try XCTUnwrap(gloom.outputImage), x: 20, y: 20, context: context)[0], 102, accuracy: 2)
        // At a step, bloom lights the black beside the white; gloom darkens the white beside the black.
        bloom.inputImage = step
        let litBlack = Pictures.value(try XCTUnwrap(bloom.outputImage), x: 19, y: 20, context: context)[0]
        XCTAssertGreaterThan(litBlack, 20)
        XCTAssertEqual(Pictures.value(try XCTUnwrap(bloom.outputImage), x: 2, y: 20, context: context)[0], 0, accuracy: 1, "far from the white")
        gloom.inputImage = step
        gloom.intensity = 1
        XCTAssertLessThan(Pictures.value(try XCTUnwrap(gloom.outputImage), x: 20, y: 20, context: context)[0], 230)
        XCTAssertEqual(Pictures.value(try XCTUnwrap(gloom.outputImage), x: 37, y: 20, context: context)[0], 255, accuracy: 1, "far from the black")
    }

    func testEdgesAreBrightOnlyWhereTheImageChanges() throws {
        let edges = CIFilter.edges()
        XCTAssertEqual(edges.intensity, 1)
        edges.inputImage = step
        let image = try XCTUnwrap(edges.outputImage)
        // Sobel across the step from black to white: (1 + 2 + 1) x 255 over 4, at the columns either side.
        XCTAssertEqual(Pictures.value(image, x: 19, y: 20, context: context), [255, 255, 255, 255])
        XCTAssertEqual(Pictures.value(image, x: 20, y: 20, context: context), [255, 255, 255, 255])
        XCTAssertEqual(Pictures.value(image, x: 10, y: 20, context: context), [0, 0, 0, 255], "flat black")
        XCTAssertEqual(Pictures.value(image, x: 30, y: 20, context: context), [0, 0, 0, 255], "flat white")
        edges.intensity = 0.5
        XCTAssertEqual(Pictures.value(try XCTUnwrap(edges.outputImage), x: 20, y: 20, context: context)[0], 127.5, accuracy: 1)
    }

    func testTheVignetteEffectDarkensBeyondItsRadiusEasedOverTheFalloff() throws {
        let filter = CIFilter.vignetteEffect()
        XCTAssertEqual(filter.falloff, 0.5, accuracy: 1e-6)
        filter.inputImage = grey(1, CGRect(x: 0, y: 0, width: 100, height: 10))
        filter.center = CGPoint(x: 0, y: 0.5)
        filter.radius = 40
        filter.intensity = 1
        filter.falloff = 0.5
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(Pictures.value(image, x: 10, y: 0, context: context)[0], 255, accuracy: 1, "inside radius (1 - falloff)")
        XCTAssertEqual(Pictures.value(image, x: 60, y: 0, context: context)[0], 0, accuracy: 1, "beyond the radius")
        // At 30.5: t = (30.5 - 20) / 20, darkened by smoothstep(t).
        let t = 10.5 / 20, eased = t * t * (3 - 2 * t)
        XCTAssertEqual(Pictures.value(image, x: 30, y: 0, context: context)[0], 255 * (1 - eased), accuracy: 2)
        XCTAssertEqual(Pictures.value(image, x: 60, y: 0, context: context)[3], 255, "alpha kept")
    }

    func testPosterizingKeepsLevelsValuesEvenlySpaced() throws {
        let filter = CIFilter.colorPosterize()
        XCTAssertEqual(filter.levels, 6)
        filter.levels = 4
        filter.inputImage = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 4))
        var pixels = [UInt8](repeating: 0, count: 64 * 4 * 4)
        context.render(
            try XCTUnwrap(filter.outputImage), toBitmap: &pixels, rowBytes: 64 * 4, bounds: CGRect(x: 0, y: 0, width: 64, height: 4), format: .RGBA8,
            colorSpace: nil)
        let reds = (0..<64).map { Int(pixels[$0 * 4]) }
        XCTAssertEqual(Set(reds), [0, 85, 170, 255], "four levels from 0 to 1")
        for (x, red) in reds.enumerated() { XCTAssertEqual(Double(red), (Double(4 * x) / 85).rounded() * 85, accuracy: 1, "x \(x): the nearest level") }
    }

    func testTheNewBlendKernelsAgreeWithTheirFilters() throws {
        let top = CIImage(color: CIColor(red: 0.7, green: 0.2, blue: 0.4, alpha: 0.8)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let bottom = CIImage(color: CIColor(red: 0.3, green: 0.6, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let pairs: [(CIBlendKernel, String)] = [
            (.subtract, "CISubtractBlendMode"), (.divide, "CIDivideBlendMode"), (.linearBurn, "CILinearBurnBlendMode"),
            (.linearDodge, "CILinearDodgeBlendMode"), (.linearLight, "CILinearLightBlendMode"), (.pinLight, "CIPinLightBlendMode"),
            (.vividLight, "CIVividLightBlendMode"), (.hue, "CIHueBlendMode"), (.saturation, "CISaturationBlendMode"), (.color, "CIColorBlendMode"),
            (.luminosity, "CILuminosityBlendMode"), (.componentMax, "CIMaximumCompositing"), (.componentMin, "CIMinimumCompositing"),
        ]
        var seen = Set<[Double]>()
        for (kernel, name) in pairs {
            let byKernel = Pictures.value(try XCTUnwrap(kernel.apply(foreground: top, background: bottom)), x: 1, y: 1, context: context)
            let filter = try XCTUnwrap(CIFilter(name: name, parameters: [kCIInputImageKey: top, kCIInputBackgroundImageKey: bottom]))
            XCTAssertEqual(byKernel, Pictures.value(try XCTUnwrap(filter.outputImage), x: 1, y: 1, context: context), name)
            seen.insert(byKernel)
        }
        XCTAssertEqual(seen.count, pairs.count, "each kernel its own colour")
    }
}

/// The blend kernels beyond the filters' modes: hard mix, darker and lighter colour, and Porter and Duff's clear, source, destination and exclusive or.
final class CIMoreBlendKernelTests: XCTestCase {
    let context = CIContext()

    private func square(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> CIImage {
        CIImage(color: CIColor(red: r, green: g, blue: b, alpha: a)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
    }

    private func value(_ kernel: CIBlendKernel, _ top: CIImage, _ bottom: CIImage) throws -> [Double] {
        Pictures.value(try XCTUnwrap(kernel.apply(foreground: top, background: bottom)), x: 1, y: 1, context: context)
    }

    func testHardMixAndTheColourChoices() throws {
        XCTAssertEqual(try value(.hardMix, square(0.7, 0.2, 0.5), square(0.6, 0.3, 0.6)), [255, 0, 255, 255], "each band 1 where the sum reaches 1")
        // Darker colour: the whole colour of lower luminosity (0.3 r + 0.59 g + 0.11 b), not band by band.
        let (red, teal) = (square(0.9, 0.1, 0.1), square(0.1, 0.5, 0.6))
        XCTAssertEqual(try value(.darkerColor, red, teal), [230, 26, 26, 255], "red's luminosity 0.30 is below teal's 0.36")
        XCTAssertEqual(try value(.lighterColor, red, teal), [26, 128, 153, 255])
    }

    func testPorterAndDuffsClearSourceDestinationAndExclusiveOr() throws {
        let (top, bottom) = (square(1, 0, 0, 0.5), square(0, 0, 1, 0.5))
        XCTAssertEqual(try value(.clear, top, bottom), [0, 0, 0, 0])
        XCTAssertEqual(try value(.source, top, bottom), [128, 0, 0, 128])
        XCTAssertEqual(try value(.destination, top, bottom), [0, 0, 128, 128])
        // S (1 - ab) + B (1 - as): a quarter of each, alpha a half.
        let xor = try value(.exclusiveOr, top, bottom)
        for (band, want) in [63.75, 0, 63.75, 127.5].enumerated() { XCTAssertEqual(xor[band], want, accuracy: 1, "\(xor)") }
    }
}
