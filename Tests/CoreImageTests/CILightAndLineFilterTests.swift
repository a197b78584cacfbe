import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// Variable, noise-reducing and bokeh blurs, the spotlight, line drawings and the halftones they
/// make the comic effect of, against values computed here.
final class CILightAndLineFilterTests: XCTestCase {
    let context = CIContext()

    private func grey(_ value: Double, _ rect: CGRect = CGRect(x: 0, y: 0, width: 40, height: 40)) -> CIImage {
        CIImage(color: CIColor(red: value, green: value, blue: value)).cropped(to: rect)
    }

    /// Dark grey on the left half of a 40-pixel square, light grey on the right.
    private var step: CIImage { grey(0.8, CGRect(x: 20, y: 0, width: 20, height: 40)).composited(over: grey(0.2)) }

    private func value(_ image: CIImage?, _ x: Int, _ y: Int = 20) throws -> [Double] { Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context) }

    func testAMaskedVariableBlurBlursAsMuchAsItsMaskIsLight() throws {
        let filter = CIFilter.maskedVariableBlur()
        XCTAssertEqual(filter.radius, 5)
        filter.inputImage = step
        filter.radius = 4
        filter.mask = grey(0)
        XCTAssertEqual(try value(filter.outputImage, 19), try value(step, 19), "a black mask: no blur")
        filter.mask = grey(1)
        let blurred = try value(filter.outputImage, 19)
        let gaussian = try value(step.clampedToExtent().applyingGaussianBlur(sigma: 4).cropped(to: step.extent), 19)
        XCTAssertEqual(blurred[0], gaussian[0], accuracy: 2, "a white mask: the whole radius")
        // Black on the left half of the mask, white on the right: the step blurred only on its right.
        filter.mask = grey(1, CGRect(x: 20, y: 0, width: 20, height: 40)).composited(over: grey(0))
        XCTAssertEqual(try value(filter.outputImage, 19)[0], 51, accuracy: 1, "left of the step, unblurred")
        XCTAssertLessThan(try value(filter.outputImage, 20)[0], 200, "right of it, blurred toward the dark")
    }

    func testNoiseReductionDropsSmallDetailAndKeepsEdges() throws {
        // A checkerboard 0.5 plus or minus 0.01: noise below the default level of 0.02.
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 32, 32, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = buffer!
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<32 {
            for x in 0..<32 {
                let v: UInt8 = (x + y) % 2 == 0 ? 130 : 125
                let pixel = base + y * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (v, v, v, 255)
            }
        }
        let filter = CIFilter.noiseReduction()
        XCTAssertEqual(filter.noiseLevel, 0.02, accuracy: 1e-6)
        filter.inputImage = CIImage(cvPixelBuffer: frame)
        let smoothed = try (10..<14).map { try value(filter.outputImage, $0, 10)[0] }
        XCTAssertLessThanOrEqual(smoothed.max()! - smoothed.min()!, 1, "the checkerboard flattened: \(smoothed)")
        filter.inputImage = step
        XCTAssertLessThanOrEqual(try value(filter.outputImage, 18)[0], 60, "the step kept sharp on its dark side")
        XCTAssertGreaterThanOrEqual(try value(filter.outputImage, 21)[0], 195, "and its light side")
    }

    func testABokehBlurSpreadsALightOverItsDisc() throws {
        let filter = CIFilter.bokehBlur()
        XCTAssertEqual(filter.radius, 20)
        let dot = grey(1, CGRect(x: 20, y: 20, width: 1, height: 1)).composited(over: grey(0))
        filter.inputImage = dot
        filter.radius = 6
        filter.softness = 0
        let image = try XCTUnwrap(filter.outputImage)
        // The disc's pixels (centres within 6 of the dot's) share the light equally.
        var area = 0
        for y in -6...6 {
            for x in -6...6 where x * x + y * y <= 36 { area += 1 }
        }
        XCTAssertEqual(try value(image, 20, 20)[0], 255 / Double(area), accuracy: 1)
        XCTAssertEqual(try value(image, 24, 23)[0], 255 / Double(area), accuracy: 1, "inside, five from the middle")
        XCTAssertEqual(try value(image, 27, 20)[0], 0, "beyond the radius")
        filter.ringAmount = 1
        filter.ringSize = 0.2
        XCTAssertGreaterThan(try value(filter.outputImage, 26, 20)[0], try value(filter.outputImage, 20, 20)[0], "a brighter rim")
    }

    func testTheSpotlightIsBrightestWhereItPoints() throws {
        let filter = CIFilter.spotLight()
        XCTAssertEqual(filter.lightPosition, CIVector(x: 400, y: 600, z: 150))
        XCTAssertEqual(filter.brightness, 3)
        filter.inputImage = grey(0.5, CGRect(x: 0, y: 0, width: 100, height: 100))
        filter.lightPosition = CIVector(x: 20, y: 20, z: 50)
        filter.lightPointsAt = CIVector(x: 20, y: 20, z: 0)
        filter.brightness = 1
        filter.concentration = 0.5
        let image = try XCTUnwrap(filter.outputImage)
        // Straight under the light: cosine 1, on the axis: 1, so the grey times the brightness.
        XCTAssertEqual(try value(image, 20, 20)[0], 127.5, accuracy: 2)
        // Off to the side: at 50 across, the cosine is 1 / sqrt 2, the spot's falloff that to the fifth.
        XCTAssertEqual(try value(image, 70, 20)[0], 127.5 * pow(0.5.squareRoot(), 6), accuracy: 2)
        XCTAssertEqual(try value(image, 70, 20)[3], 255, "alpha kept")
    }

    func testTheLineOverlayDrawsEdgesInBlackOnTransparent() throws {
        let filter = CIFilter.lineOverlay()
        XCTAssertEqual(filter.contrast, 50)
        filter.inputImage = step
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(try value(image, 5), [0, 0, 0, 0], "no edge: transparent")
        XCTAssertEqual(try value(image, 20), [0, 0, 0, 255], "the edge: black")
        filter.inputImage = grey(0.5)
        XCTAssertEqual(try value(filter.outputImage, 20)[3], 0, "a flat picture has no lines")
    }

    func testTheCMYKHalftoneKeepsPrimariesAndTheComicEffectOutlinesIt() throws {
        let halftone = CIFilter.cmykHalftone()
        XCTAssertEqual(halftone.grayComponentReplacement, 1)
        XCTAssertEqual(halftone.underColorRemoval, 0.5)
        halftone.sharpness = 1
        for (colour, want) in [
            ((1.0, 1.0, 1.0), [255.0, 255, 255, 255]), ((0, 0, 0), [0, 0, 0, 255]), ((1, 0, 0), [255, 0, 0, 255]), ((0, 0, 1), [0, 0, 255, 255]),
        ] {
            halftone.inputImage = CIImage(color: CIColor(red: colour.0, green: colour.1, blue: colour.2)).cropped(to: CGRect(x: 0, y: 0, width: 40, height: 40))
            XCTAssertEqual(try value(halftone.outputImage, 13, 27), want, "\(colour)")
        }
        // A mid grey: black ink dots on white, some of each.
        halftone.inputImage = grey(0.5)
        let values = try (0..<12).map { try value(halftone.outputImage, $0, 20)[0] }
        XCTAssertTrue(values.contains(0) && values.contains(255), "\(values)")
        let comic = CIFilter.comicEffect()
        comic.inputImage = step
        XCTAssertEqual(try value(comic.outputImage, 20), [0, 0, 0, 255], "the edge outlined")
        XCTAssertEqual(try value(comic.outputImage, 5)[3], 255, "opaque")
    }
}
