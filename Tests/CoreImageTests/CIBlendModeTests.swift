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

    /// The separable modes computed by formula (Adobe's PDF reference and the W3C's names): the backdrop b, the source s.
    let computedSeparable: [(String, Blend)] = [
        ("CIDivideBlendMode", { b, s in s <= 0 ? 1 : min(1, b / s) }), ("CISubtractBlendMode", { b, s in max(0, b - s) }),
        ("CILinearBurnBlendMode", { b, s in max(0, b + s - 1) }), ("CILinearDodgeBlendMode", { b, s in min(1, b + s) }),
        ("CILinearLightBlendMode", { b, s in min(1, max(0, b + 2 * s - 1)) }),
        ("CIPinLightBlendMode", { b, s in s < 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1) }),
        ("CIVividLightBlendMode", { b, s in s < 0.5 ? (s == 0 ? 0 : max(0, 1 - (1 - b) / (2 * s))) : (s == 1 ? 1 : min(1, b / (2 * (1 - s)))) }),
    ]

    /// The W3C's non-separable helpers over (r, g, b).
    typealias RGB = (r: Double, g: Double, b: Double)
    static func lum(_ c: RGB) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }
    static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c), n = min(c.r, c.g, c.b), x = max(c.r, c.g, c.b)
        var c = c
        if n < 0 { c = (l + (c.r - l) * l / (l - n), l + (c.g - l) * l / (l - n), l + (c.b - l) * l / (l - n)) }
        if x > 1 { c = (l + (c.r - l) * (1 - l) / (x - l), l + (c.g - l) * (1 - l) / (x - l), l + (c.b - l) * (1 - l) / (x - l)) }
        return c
    }
    static func setLum(_ c: RGB, _ l: Double) -> RGB {
        let d = l - lum(c)
        return clipColor((c.r + d, c.g + d, c.b + d))
    }
    static func sat(_ c: RGB) -> Double { max(c.r, c.g, c.b) - min(c.r, c.g, c.b) }
    static func setSat(_ c: RGB, _ s: Double) -> RGB {
        // The W3C's procedure: the largest band to s, the smallest to 0, the middle in proportion.
        var bands = [c.r, c.g, c.b]
        let order = bands.indices.sorted { bands[$0] < bands[$1] }
        let (low, mid, high) = (order[0], order[1], order[2])
        if bands[high] > bands[low] {
            bands[mid] = (bands[mid] - bands[low]) * s / (bands[high] - bands[low])
            bands[high] = s
        } else {
            bands[mid] = 0
            bands[high] = 0
        }
        bands[low] = 0
        return (bands[0], bands[1], bands[2])
    }

    /// Premultiplied R, G, B, A of a non-separable mode, B(Cb, Cs) on whole colours.
    private func expectedNonSeparable(_ blend: (RGB, RGB) -> RGB) -> [Double] {
        let cs: RGB = (source.r, source.g, source.b), cb: RGB = (backdrop.r, backdrop.g, backdrop.b)
        let mixed = blend(cb, cs), s = [cs.r, cs.g, cs.b], b = [cb.r, cb.g, cb.b], m = [mixed.r, mixed.g, mixed.b]
        let colours = (0..<3).map { (1 - backdrop.a) * source.a * s[$0] + (1 - source.a) * backdrop.a * b[$0] + source.a * backdrop.a * m[$0] }
        return colours + [source.a + backdrop.a - source.a * backdrop.a]
    }

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

    func testTheLinearPinVividDivideAndSubtractModesFollowTheirFormulas() throws {
        for (name, blend) in computedSeparable {
            assertClose(try rendered(name), expected(blend), name)
        }
    }

    func testTheNonSeparableModesFollowTheW3CFormulas() throws {
        let modes: [(String, (RGB, RGB) -> RGB)] = [
            ("CIHueBlendMode", { b, s in Self.setLum(Self.setSat(s, Self.sat(b)), Self.lum(b)) }),
            ("CISaturationBlendMode", { b, s in Self.setLum(Self.setSat(b, Self.sat(s)), Self.lum(b)) }),
            ("CIColorBlendMode", { b, s in Self.setLum(s, Self.lum(b)) }),
            ("CILuminosityBlendMode", { b, s in Self.setLum(b, Self.lum(s)) }),
        ]
        for (name, blend) in modes { assertClose(try rendered(name), expectedNonSeparable(blend), name) }
        // A colour far from grey taken to a light luminosity leaves 0-1 and is clipped back along the line to its grey.
        let clipped = Self.setLum((1, 0, 0), 0.9)
        XCTAssertLessThanOrEqual(max(clipped.r, clipped.g, clipped.b), 1 + 1e-9)
        let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let light = CIImage(color: CIColor(red: 0.9, green: 0.9, blue: 0.9)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        var pixel = [UInt8](repeating: 0, count: 4)
        let output = try XCTUnwrap(applying(CIFilter.colorBlendMode(), red, over: light))
        context.render(output, toBitmap: &pixel, rowBytes: 4, bounds: CGRect(x: 1, y: 1, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        let want = [clipped.r, clipped.g, clipped.b].map { Int(($0 * 255).rounded()) }
        for band in 0..<3 { XCTAssertEqual(Int(pixel[band]), want[band], accuracy: 2, "\(pixel) against \(want)") }
    }

    func testMaximumAndMinimumCompositingKeepTheLargerAndSmallerPremultipliedComponent() throws {
        let s = [source.r, source.g, source.b].map { $0 * source.a } + [source.a]
        let b = [backdrop.r, backdrop.g, backdrop.b].map { $0 * backdrop.a } + [backdrop.a]
        assertClose(try rendered("CIMaximumCompositing"), (0..<4).map { max(s[$0], b[$0]) }, "maximum")
        assertClose(try rendered("CIMinimumCompositing"), (0..<4).map { min(s[$0], b[$0]) }, "minimum")
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
        let modes = separable + computedSeparable
        let outputs = try modes.map { try rendered($0.0) }
        XCTAssertEqual(Set(outputs.map { $0.map { Int(($0 * 255).rounded()) } }).count, modes.count, "every mode gives its own colour")
        let listed = Set(CIFilter.filterNames(inCategory: kCICategoryCompositeOperation))
        for name in modes.map(\.0) + [
            "CIHueBlendMode", "CIMaximumCompositing", "CISourceInCompositing", "CISourceOutCompositing", "CISourceAtopCompositing", "CIAdditionCompositing",
        ] {
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
            CIFilter.sourceInCompositing(), CIFilter.sourceOutCompositing(), CIFilter.sourceAtopCompositing(), CIFilter.divideBlendMode(),
            CIFilter.subtractBlendMode(), CIFilter.linearBurnBlendMode(), CIFilter.linearDodgeBlendMode(), CIFilter.linearLightBlendMode(),
            CIFilter.pinLightBlendMode(), CIFilter.vividLightBlendMode(), CIFilter.hueBlendMode(), CIFilter.saturationBlendMode(),
            CIFilter.colorBlendMode(), CIFilter.luminosityBlendMode(), CIFilter.maximumCompositing(), CIFilter.minimumCompositing(),
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

/// A compositing filter's output for an image over a background.
func applying(_ filter: CIFilter & CICompositeOperation, _ image: CIImage, over background: CIImage) -> CIImage? {
    filter.inputImage = image
    filter.backgroundImage = background
    return filter.outputImage
}
