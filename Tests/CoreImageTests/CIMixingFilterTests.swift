import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Mix, dissolve, the mask blends, multiply compositing and the component extremes, each against
/// the arithmetic it stands for, done here on the colours given.
final class CIMixingFilterTests: XCTestCase {
    let context = CIContext()
    let square = CGRect(x: 0, y: 0, width: 8, height: 8)

    private func colour(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> CIImage {
        CIImage(color: CIColor(red: r, green: g, blue: b, alpha: a)).cropped(to: square)
    }

    /// Premultiplied R, G, B, A at (x, 4) of a filter's output, 0-1.
    private func sample(_ filter: CIFilter, x: Int = 4) throws -> [Double] {
        var pixels = [UInt8](repeating: 0, count: 8 * 8 * 4)
        context.render(try XCTUnwrap(filter.outputImage), toBitmap: &pixels, rowBytes: 32, bounds: square, format: .RGBA8, colorSpace: nil)
        return (0..<4).map { Double(pixels[(4 * 8 + x) * 4 + $0]) / 255 }
    }

    private func assertClose(_ got: [Double], _ want: [Double], _ what: String, line: UInt = #line) {
        for band in 0..<4 { XCTAssertEqual(got[band], want[band], accuracy: 1.5 / 255, "\(what): \(got) against \(want)", line: line) }
    }

    func testMixAndDissolveInterpolate() throws {
        let mix = CIFilter.mix()
        XCTAssertEqual(mix.amount, 1, "Apple's default")
        mix.inputImage = colour(1, 0, 0)
        mix.backgroundImage = colour(0, 0, 1)
        assertClose(try sample(mix), [1, 0, 0, 1], "all of the image")
        mix.amount = 0.25
        assertClose(try sample(mix), [0.25, 0, 0.75, 1], "a quarter of it")
        let dissolve = CIFilter.dissolveTransition()
        XCTAssertEqual(dissolve.time, 0)
        dissolve.inputImage = colour(1, 0, 0)
        dissolve.targetImage = colour(0, 1, 0)
        assertClose(try sample(dissolve), [1, 0, 0, 1], "the start")
        dissolve.time = 0.5
        assertClose(try sample(dissolve), [0.5, 0.5, 0, 1], "half way")
        dissolve.time = 7
        assertClose(try sample(dissolve), [0, 1, 0, 1], "a time past the end is the end")
        XCTAssertEqual(
            Set(CIFilter.filterNames(inCategory: kCICategoryTransition)),
            [
                "CIDissolveTransition", "CISwipeTransition", "CICopyMachineTransition", "CIBarsSwipeTransition", "CIDisintegrateWithMaskTransition",
                "CIFlashTransition", "CIModTransition", "CIRippleTransition", "CIAccordionFoldTransition", "CIPageCurlTransition",
                "CIPageCurlWithShadowTransition",
            ])
    }

    func testTheMaskBlendsFollowTheMasksLumaOrAlpha() throws {
        let blend = CIFilter.blendWithMask()
        blend.inputImage = colour(1, 0, 0)
        blend.backgroundImage = colour(0, 0, 1)
        // White on the left half, black on the right.
        blend.maskImage = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 8)).composited(
            over: colour(0, 0, 0))
        assertClose(try sample(blend, x: 1), [1, 0, 0, 1], "the image where the mask is white")
        assertClose(try sample(blend, x: 6), [0, 0, 1, 1], "the background where it is black")
        blend.maskImage = colour(0.2, 0.6, 0.1)
        let luma = 0.2126 * 0.2 + 0.7152 * 0.6 + 0.0722 * 0.1
        assertClose(try sample(blend), [luma, 0, 1 - luma, 1], "a grey mask mixes by its luma")
        let alpha = CIFilter.blendWithAlphaMask()
        alpha.inputImage = colour(1, 0, 0)
        alpha.backgroundImage = colour(0, 0, 1)
        alpha.maskImage = colour(0, 0, 0, 0.25)
        assertClose(try sample(alpha), [0.25, 0, 0.75, 1], "by the mask's alpha, whatever its colour")
    }

    func testMultiplyCompositingMultipliesEveryBandAlphaToo() throws {
        let filter = CIFilter.multiplyCompositing()
        filter.inputImage = colour(0.8, 0.5, 0.2, 0.5)
        filter.backgroundImage = colour(0.5, 1, 0.6, 0.8)
        let s = [0.8 * 0.5, 0.5 * 0.5, 0.2 * 0.5, 0.5], d = [0.5 * 0.8, 1 * 0.8, 0.6 * 0.8, 0.8]
        assertClose(try sample(filter), zip(s, d).map(*), "premultiplied products")
    }

    func testTheComponentExtremesMakeAGrey() throws {
        let maximum = CIFilter.maximumComponent(), minimum = CIFilter.minimumComponent()
        maximum.inputImage = colour(0.2, 0.7, 0.4)
        minimum.inputImage = colour(0.2, 0.7, 0.4)
        assertClose(try sample(maximum), [0.7, 0.7, 0.7, 1], "the largest")
        assertClose(try sample(minimum), [0.2, 0.2, 0.2, 1], "the smallest")
        maximum.inputImage = colour(0.2, 0.7, 0.4, 0.5)
        assertClose(try sample(maximum), [0.35, 0.35, 0.35, 0.5], "translucent: the largest colour, premultiplied")
    }
}
