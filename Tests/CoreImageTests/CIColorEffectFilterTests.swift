import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Monochrome, false colour, hue and white point, each against its formula computed here on a
/// colour rendered through the filter.
final class CIColorEffectFilterTests: XCTestCase {
    let context = CIContext()
    /// Rec. 709's luma weights for red, green and blue.
    let luma = [0.2126, 0.7152, 0.0722]
    let colour = [0.2, 0.5, 0.8]

    /// A 4-pixel square of an opaque colour given as red, green, blue.
    private func square(_ rgb: [Double]) -> CIImage {
        CIImage(color: CIColor(red: rgb[0], green: rgb[1], blue: rgb[2])).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
    }

    /// The red, green and blue of a filter's output over the square, on a 0-1 scale.
    private func rendered(_ filter: CIFilter) throws -> [Double] {
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        context.render(
            try XCTUnwrap(filter.outputImage), toBitmap: &pixels, rowBytes: 16, bounds: CGRect(x: 0, y: 0, width: 4, height: 4), format: .RGBA8, colorSpace: nil
        )
        XCTAssertEqual(pixels[3], 255, "opaque stays opaque")
        return (0..<3).map { Double(pixels[$0]) / 255 }
    }

    private func assertClose(_ got: [Double], _ want: [Double], _ what: String, line: UInt = #line) {
        for band in 0..<3 { XCTAssertEqual(got[band], want[band], accuracy: 1.5 / 255, "\(what): \(got) against \(want)", line: line) }
    }

    func testMonochromeIsLumaTimesTheColourMixedByIntensity() throws {
        let filter = CIFilter.colorMonochrome()
        XCTAssertEqual([filter.color.red, filter.color.green, filter.color.blue], [0.6, 0.45, 0.3], "Apple's default colour")
        XCTAssertEqual(filter.intensity, 1)
        filter.inputImage = square(colour)
        let y = zip(luma, colour).map(*).reduce(0, +)
        assertClose(try rendered(filter), [0.6, 0.45, 0.3].map { $0 * y }, "full intensity")
        filter.intensity = 0.25
        assertClose(try rendered(filter), (0..<3).map { 0.25 * [0.6, 0.45, 0.3][$0] * y + 0.75 * colour[$0] }, "a quarter")
    }

    func testFalseColourMapsLumaOntoTheLineBetweenItsColours() throws {
        let filter = CIFilter.falseColor()
        XCTAssertEqual([filter.color0.red, filter.color0.green, filter.color0.blue], [0.3, 0, 0])
        XCTAssertEqual([filter.color1.red, filter.color1.green, filter.color1.blue], [1, 0.9, 0.8])
        filter.inputImage = square(colour)
        let y = zip(luma, colour).map(*).reduce(0, +)
        assertClose(try rendered(filter), (0..<3).map { [0.3, 0, 0][$0] + y * ([1, 0.9, 0.8][$0] - [0.3, 0, 0][$0]) }, "defaults")
        filter.color0 = CIColor(red: 0, green: 0, blue: 1)
        filter.color1 = CIColor(red: 1, green: 1, blue: 0)
        filter.inputImage = square([0, 0, 0])
        assertClose(try rendered(filter), [0, 0, 1], "black is the first colour")
        filter.inputImage = square([1, 1, 1])
        assertClose(try rendered(filter), [1, 1, 0], "white is the second")
    }

    func testHueAdjustTurnsColoursAboutTheGreyAxis() throws {
        let filter = CIFilter.hueAdjust()
        XCTAssertEqual(filter.angle, 0)
        filter.inputImage = square(colour)
        assertClose(try rendered(filter), colour, "no turn, no change")
        filter.angle = 1
        // SVG's hueRotate matrix (Filter Effects 1, feColorMatrix), written out here.
        let (c, s) = (cos(1.0), sin(1.0))
        let matrix = [
            [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928],
            [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283],
            [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072],
        ]
        let turned = try rendered(filter)
        assertClose(turned, matrix.map { row in min(1, max(0, zip(row, colour).map(*).reduce(0, +))) }, "a turn of one radian")
        XCTAssertNotEqual(turned.map { ($0 * 255).rounded() }, colour.map { ($0 * 255).rounded() })
        filter.inputImage = square([0.4, 0.4, 0.4])
        assertClose(try rendered(filter), [0.4, 0.4, 0.4], "greys keep their place")
        let back = CIFilter.hueAdjust()
        back.angle = -1
        filter.inputImage = square([0.5, 0.4, 0.45])
        back.inputImage = filter.outputImage
        assertClose(try rendered(back), [0.5, 0.4, 0.45], "turned back")
    }

    func testWhitePointAdjustMakesWhiteTheColourAndScalesTheRest() throws {
        let filter = CIFilter.whitePointAdjust()
        XCTAssertEqual([filter.color.red, filter.color.green, filter.color.blue], [1, 1, 1])
        filter.color = CIColor(red: 1, green: 0.9, blue: 0.8)
        filter.inputImage = square([1, 1, 1])
        assertClose(try rendered(filter), [1, 0.9, 0.8], "white")
        filter.inputImage = square(colour)
        assertClose(try rendered(filter), [0.2, 0.45, 0.64], "each band scaled as white's")
    }

    func testTheFiltersAreListedInTheirCategories() {
        let effects = Set(CIFilter.filterNames(inCategory: kCICategoryColorEffect)),
            adjustments = Set(CIFilter.filterNames(inCategory: kCICategoryColorAdjustment))
        XCTAssertTrue(effects.isSuperset(of: ["CIColorMonochrome", "CIFalseColor"]))
        XCTAssertTrue(adjustments.isSuperset(of: ["CIHueAdjust", "CIWhitePointAdjust"]))
        XCTAssertEqual(Set(CIFilter.filterNames(inCategory: kCICategorySharpen)), ["CIUnsharpMask", "CISharpenLuminance"])
    }
}
