import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The blend modes and compositing operators, each against the W3C's compositing formulas
/// (Compositing and Blending Level 1, which Apple's filter reference names) computed here.
final class CIBlendModeTests: XCTestCase {
    let context = CIContext()
    /// The input image's colour and the background's, not premultiplied, chosen so that each
    /// band falls on a different side of the modes' thresholds (0.5 for hard light and overlay,
    /// 0.25 for soft light).
    let source = (r: 0.8, g: 0.3, b: 0.5, a: 0.75), backdrop = (r: 0.4, g: 0.6, b: 0.2, a: 0.5)

    /// A separable blend function B(backdrop, source) on colours not premultiplied.
    typealias Blend = (Double, Double) -> Double

    static func screen(_ b: Double, _ s: Double) -> Double { b + s - b * s }
    static func hardLight(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : screen(b, 2 * s - 1) }
    static func softLight(_ b: Double, _ s: Double) -> Double {
        if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        return b + (2 * s - 1) * (d - b)
    }

    let separable: [(String, Blend)] = [
        ("CIMultiplyBlendMode", { $0 * $1 }), ("CIScreenBlendMode", screen), ("CIOverlayBlendMode", { hardLight($1, $0) }),
        ("CIDarkenBlendMode", { min($0, $1) }), ("CILightenBlendMode", { max($0, $1) }),
        ("CIColorDodgeBlendMode", { b, s in b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }),
        ("CIColorBurnBlendMode", { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }),
        ("CIHardLightBlendMode", hardLight), ("CISoftLightBlendMode", softLight), ("CIDifferenceBlendMode", { abs($0 - $1) }),
        ("CIExclusionBlendMode", { b, s in b + s - 2 * b * s }),
    ]

    /// The filter's output over a 16-pixel square, as premultiplied R, G, B, A on a 0-1 scale.
    private func rendered(_ name: String) throws -> [Double] {
        let top = CIImage(color: CIColor(red: source.r, green: source.g, blue: source.b, alpha: source.a)).cropped(
            to: CGRect(x: 0, y: 0, width: 16, height: 16))
        let bottom = CIImage(color: CIColor(red: backdrop.r, green: backdrop.g, blue: backdrop.b, alpha: backdrop.a))
            .cropped(to: CGRect(x: 0, y: 0, width: 16, height: 16))
        let filter = try XCTUnwrap(CIFilter(name: name, parameters: [kCIInputImageKey: top, kCIInputBackgroundImageKey: bottom]), name)
        let output = try XCTUnwrap(filter.outputImage, name)
        XCTAssertEqual(output.extent, CGRect(x: 0, y: 0, width: 16, height: 16), name)
        var pixel = [UInt8](repeating: 0, count: 16 * 16 * 4)
        context.render(output, toBitmap: &pixel, rowBytes: 16 * 4, bounds: output.extent, format: .RGBA8, colorSpace: nil)
        XCTAssertNil(CIContext.lastRenderingProblem, name)
        let middle = (8 * 16 + 8) * 4
        return (0..<4).map { Double(pixel[middle + $0]) / 255 }
    }

    /// Premultiplied R, G, B, A of a separable blend mode: (1 − αb)·s + (1 − αs)·b + αs·αb·B(Cb, Cs).
    private func expected(_ blend: Blend) -> [Double] {
        let s = [source.r, source.g, source.b], b = [backdrop.r, backdrop.g, backdrop.b]
        let colours = (0..<3).map { (1 - backdrop.a) * source.a * s[$0] + (1 - source.a) * backdrop.a * b[$0] + source.a * backdrop.a * blend(b[$0], s[$0]) }
        return colours + [source.a + backdrop.a - source.a * backdrop.a]
    }

    private func assertClose(_ got: [Double], _ want: [Double], _ name: String, line: UInt = #line) {
        for band in 0..<4 {
            XCTAssertEqual(got[band], want[band], accuracy: 2.5 / 255, "\(name), band \(band): \(got) against \(want)", line: line)
        }
    }

    func testEachSeparableBlendModeFollowsTheW3CFormula() throws {
        for (name, blend) in separable {
            assertClose(try rendered(name), expected(blend), name)
        }
    }

    func testThePorterDuffOperatorsAndAdditionFollowTheirFormulas() throws {
        let s = [source.r, source.g, source.b].map { $0 * source.a } + [source.a]
        let b = [backdrop.r, backdrop.g, backdrop.b].map { $0 * backdrop.a } + [backdrop.a]
        assertClose(try rendered("CISourceInCompositing"), s.map { $0 * backdrop.a }, "in: the source where the background is")
        assertClose(try rendered("CISourceOutCompositing"), s.map { $0 * (1 - backdrop.a) }, "out: the source where the background is not")
        assertClose(
            try rendered("CISourceAtopCompositing"), (0..<4).map { $0 == 3 ? backdrop.a : s[$0] * backdrop.a + b[$0] * (1 - source.a) },
            "atop: the source over the background, inside the background")
        assertClose(try rendered("CIAdditionCompositing"), (0..<4).map { min(1, s[$0] + b[$0]) }, "addition: the sum")
    }

    func testMultiplyingByAnOpaqueColourIsTheProductOfBandsEitherWayRound() throws {
        // An opaque picture multiplied by an opaque colour of its extent: each band the product, whichever is the background.
        let picture = CIImage(cvPixelBuffer: Pictures.quadrants(width: 16, height: 16))
        let tint = CIImage(color: CIColor(red: 0.8, green: 0.5, blue: 0.25)).cropped(to: picture.extent)
        for (image, background) in [(picture, tint), (tint, picture)] {
            let filter = CIFilter.multiplyBlendMode()
            filter.inputImage = image
            filter.backgroundImage = background
            let output = try XCTUnwrap(filter.outputImage)
            XCTAssertEqual(output.extent, picture.extent)
            let rendered = try XCTUnwrap(Pictures.render(output))
            XCTAssertTrue(Pictures.pixel(rendered, x: 2, y: 2).isClose(to: Pictures.RGBA(r: 204, g: 0, b: 0, a: 255), tolerance: 1), "red")
            XCTAssertTrue(Pictures.pixel(rendered, x: 12, y: 2).isClose(to: Pictures.RGBA(r: 0, g: 128, b: 0, a: 255), tolerance: 1), "green")
            XCTAssertTrue(Pictures.pixel(rendered, x: 12, y: 12).isClose(to: Pictures.RGBA(r: 204, g: 128, b: 64, a: 255), tolerance: 1), "white")
        }
    }

    func testATranslucentImageMultipliedOverAnOpaqueColourFollowsTheFormula() throws {
        // W3C: co = cs (1 - ab) + cb (1 - as) + as ab Cs Cb, premultiplied cs and cb, unpremultiplied Cs and Cb.
        let source = Pictures.RGBA(r: 100, g: 50, b: 0, a: 128)
        let tint = (r: 0.8, g: 0.5, b: 0.25)
        let image = CIImage(cvPixelBuffer: Pictures.solid(source, width: 8, height: 8))
        let filter = CIFilter.multiplyBlendMode()
        filter.inputImage = image
        filter.backgroundImage = CIImage(color: CIColor(red: tint.r, green: tint.g, blue: tint.b)).cropped(to: image.extent)
        let got = Pictures.pixel(try XCTUnwrap(Pictures.render(try XCTUnwrap(filter.outputImage))), x: 3, y: 3)
        let alpha = Double(source.a) / 255
        func band(_ premultiplied: Int, _ backdrop: Double) -> Int {
            let cs = Double(premultiplied) / 255
            return Int(((cs * 0 + backdrop * (1 - alpha) + alpha * 1 * (cs / alpha) * backdrop) * 255).rounded())
        }
        let want = Pictures.RGBA(r: band(source.r, tint.r), g: band(source.g, tint.g), b: band(source.b, tint.b), a: 255)
        XCTAssertTrue(got.isClose(to: want, tolerance: 1), "\(got), want \(want)")
    }

    func testTheModesDifferAndAreListedAsCompositeOperations() throws {
        let outputs = try separable.map { try rendered($0.0) }
        XCTAssertEqual(Set(outputs.map { $0.map { Int(($0 * 255).rounded()) } }).count, separable.count, "every mode gives its own colour")
        let listed = Set(CIFilter.filterNames(inCategory: kCICategoryCompositeOperation))
        for name in separable.map(\.0) + ["CISourceInCompositing", "CISourceOutCompositing", "CISourceAtopCompositing", "CIAdditionCompositing"] {
            XCTAssertTrue(listed.contains(name), name)
        }
    }

    func testTheTypedFormsTakeAnImageAndABackground() throws {
        let top = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 8))
        let bottom = CIImage(color: CIColor(red: 0, green: 0, blue: 1)).cropped(to: CGRect(x: 4, y: 0, width: 8, height: 8))
        let filters: [CIFilter & CICompositeOperation] = [
            CIFilter.multiplyBlendMode(), CIFilter.screenBlendMode(), CIFilter.overlayBlendMode(), CIFilter.darkenBlendMode(),
            CIFilter.lightenBlendMode(), CIFilter.colorDodgeBlendMode(), CIFilter.colorBurnBlendMode(), CIFilter.hardLightBlendMode(),
            CIFilter.softLightBlendMode(), CIFilter.differenceBlendMode(), CIFilter.exclusionBlendMode(), CIFilter.additionCompositing(),
            CIFilter.sourceInCompositing(), CIFilter.sourceOutCompositing(), CIFilter.sourceAtopCompositing(),
        ]
        for filter in filters {
            XCTAssertNil(filter.outputImage, "\(filter.name): no images, no output")
            filter.inputImage = top
            filter.backgroundImage = bottom
            XCTAssertEqual(filter.outputImage?.extent, CGRect(x: 0, y: 0, width: 12, height: 8), "\(filter.name): the union of the two extents")
        }
        // Red screened over blue is magenta where they meet, and each alone where the other is missing.
        let screen = CIFilter.screenBlendMode()
        screen.inputImage = top
        screen.backgroundImage = bottom
        var pixels = [UInt8](repeating: 0, count: 12 * 8 * 4)
        context.render(
            try XCTUnwrap(screen.outputImage), toBitmap: &pixels, rowBytes: 12 * 4, bounds: CGRect(x: 0, y: 0, width: 12, height: 8), format: .RGBA8,
            colorSpace: nil)
        func at(_ x: Int) -> [UInt8] { Array(pixels[(4 * 12 + x) * 4..<(4 * 12 + x) * 4 + 4]) }
        XCTAssertEqual(at(1), [255, 0, 0, 255])
        XCTAssertEqual(at(6), [255, 0, 255, 255])
        XCTAssertEqual(at(10), [0, 0, 255, 255])
    }
}
