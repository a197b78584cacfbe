import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The light generators (sunbeams, star shine, lenticular halo), the reveal transitions (flash,
/// mod, ripple, accordion fold), pointillize, edge work and spot color, each checked against the
/// formula its comment gives, computed here.
final class CILightAndRevealFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func value(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Double] {
        Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context)
    }

    private func solid(_ red: Double, _ green: Double, _ blue: Double, size: CGFloat = 100) -> CIImage {
        CIImage(color: CIColor(red: red, green: green, blue: blue)).cropped(to: CGRect(x: 0, y: 0, width: size, height: size))
    }

    private func assertClose(_ got: [Double], _ want: [Double], _ message: String, accuracy: Double = 2.5, line: UInt = #line) {
        XCTAssertEqual(got.count, want.count, message, line: line)
        for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: accuracy, "\(message): \(got) for \(want)", line: line) }
    }

    // MARK: Light

    func testSunbeamsAreTheColoursDiscAndBeamsFadingToTheirReachStriatedByTheStrength() throws {
        let sun = CIFilter.sunbeamsGenerator()
        XCTAssertEqual(sun.color, CIColor(red: 1, green: 0.5, blue: 0), "Apple's default")
        XCTAssertEqual(sun.sunRadius, 40, "Apple's default")
        XCTAssertEqual(sun.maxStriationRadius, 2.58, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(sun.striationContrast, 1.375, accuracy: 1e-6, "Apple's default")
        sun.center = CGPoint(x: 50, y: 50)
        sun.color = CIColor(red: 1, green: 0, blue: 0)
        sun.sunRadius = 20
        sun.maxStriationRadius = 3
        sun.striationStrength = 0
        assertClose(try value(sun.outputImage, 50, 50), [255, 0, 0, 255], "the disc")
        assertClose(try value(sun.outputImage, 130, 50), [0, 0, 0, 0], "beyond the beams' reach (60)")
        // An even glow: (1 - t)^2 with t = (d - 20) / 40, the same in every direction.
        let d = hypot(40.5, 0.5), glow = pow(1 - (d - 20) / 40, 2) * 255
        assertClose(try value(sun.outputImage, 90, 50), [glow, 0, 0, glow], "across")
        assertClose(try value(sun.outputImage, 49, 90), [glow, 0, 0, glow], "up")
        // Striated: the same distance, different directions, different light; the time moves it.
        sun.striationStrength = 1
        let around = try (0..<24).map { step -> Double in
            let angle = Double(step) * Double.pi / 12
            return try value(sun.outputImage, 50 + Int((35 * cos(angle)).rounded()), 50 + Int((35 * sin(angle)).rounded()))[0]
        }
        XCTAssertGreaterThan(around.max()! - around.min()!, 30, "striations: \(around)")
        let before = try value(sun.outputImage, 84, 58)[0]
        sun.time = 0.3
        XCTAssertNotEqual(try value(sun.outputImage, 84, 58)[0], before, "the time moves the striations")
    }

    func testAStarShinesAlongItsCrossAndNotBetween() throws {
        let star = CIFilter.starShineGenerator()
        XCTAssertEqual(star.radius, 50, "Apple's default")
        XCTAssertEqual(star.crossScale, 15, "Apple's default")
        XCTAssertEqual(star.crossAngle, 0.6, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(star.crossOpacity, -2, "Apple's default")
        XCTAssertEqual(star.epsilon, -2, "Apple's default")
        star.center = CGPoint(x: 100, y: 100)
        star.color = CIColor(red: 1, green: 1, blue: 1)
        star.radius = 10
        star.crossAngle = 0
        star.crossOpacity = 0
        star.epsilon = -1
        star.crossWidth = 2.5
        // At the centre, the brighter of the glow and the spikes crossing there.
        let centre = max(pow(1 - hypot(0.5, 0.5) / 10, 2), exp(-pow(0.5 / 2.5, 2)) * pow(1 + 0.5 / 10, -1)) * 255
        assertClose(try value(star.outputImage, 100, 100), [centre, centre, centre, centre], "the centre")
        // 40.5 along the horizontal spike, half a pixel across it.
        let spike = exp(-pow(0.5 / 2.5, 2)) * pow(1 + 40.5 / 10, -1) * 255
        assertClose(try value(star.outputImage, 140, 100), [spike, spike, spike, spike], "on the spike")
        assertClose(try value(star.outputImage, 100, 140), [spike, spike, spike, spike], "on the spike at a right angle")
        XCTAssertEqual(try value(star.outputImage, 129, 129)[3], 0, "between the spikes, dark")
        XCTAssertEqual(try value(star.outputImage, 260, 100)[3], 0, "beyond the cross's reach (radius x scale)")
    }

    func testALenticularHaloSplitsItsColourIntoRingsTheOverlapDrawsTogether() throws {
        let halo = CIFilter.lenticularHaloGenerator()
        XCTAssertEqual(halo.haloRadius, 70, "Apple's default")
        XCTAssertEqual(halo.haloWidth, 87, "Apple's default")
        XCTAssertEqual(halo.haloOverlap, 0.77, accuracy: 1e-6, "Apple's default")
        halo.center = CGPoint(x: 100, y: 100)
        halo.color = CIColor(red: 1, green: 1, blue: 1)
        halo.haloRadius = 40
        halo.haloWidth = 20
        halo.haloOverlap = 0
        halo.striationStrength = 0
        // Red about 50, green about 40, blue about 30, each (1 - |d - r| / 10)^2 across.
        let ring = { (d: Double, r: Double) in 255 * pow(max(0, 1 - abs(d - r) / 10), 2) }
        let outer = hypot(50.5, 0.5), middle = hypot(40.5, 0.5), inner = hypot(30.5, 0.5)
        let atOuter = try value(halo.outputImage, 150, 100)
        assertClose(Array(atOuter[0..<3]), [ring(outer, 50), ring(outer, 40), ring(outer, 30)], "red outermost")
        let atInner = try value(halo.outputImage, 130, 100)
        assertClose(Array(atInner[0..<3]), [ring(inner, 50), ring(inner, 40), ring(inner, 30)], "blue innermost")
        XCTAssertEqual(try value(halo.outputImage, 100, 100)[3], 0, "the middle is dark")
        halo.haloOverlap = 1
        let white = try value(halo.outputImage, 140, 100)
        assertClose(white, [ring(middle, 40), ring(middle, 40), ring(middle, 40), ring(middle, 40)], "one white ring")
    }

    // MARK: Transitions

    func testAFlashCoversTheImageInItsColourThenFadesIntoTheTarget() throws {
        let flash = CIFilter.flashTransition()
        XCTAssertEqual(flash.color, CIColor(red: 1, green: 0.8, blue: 0.6), "Apple's default")
        XCTAssertEqual(flash.fadeThreshold, 0.85, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(flash.extent, CGRect(x: 0, y: 0, width: 300, height: 300), "Apple's default")
        flash.inputImage = solid(1, 0, 0)
        flash.targetImage = solid(0, 0, 1)
        flash.center = CGPoint(x: 50, y: 50)
        flash.extent = CGRect(x: 0, y: 0, width: 100, height: 100)
        flash.color = CIColor(red: 1, green: 1, blue: 1)
        flash.striationStrength = 0
        flash.time = 0
        assertClose(try value(flash.outputImage, 50, 50), [255, 0, 0, 255], "at 0, the image")
        flash.time = 0.5
        assertClose(try value(flash.outputImage, 50, 50), [255, 255, 255, 255], "the flash at its centre")
        assertClose(try value(flash.outputImage, 1, 1), [255, 0, 0, 255], "not yet at the corners")
        flash.time = 0.85
        assertClose(try value(flash.outputImage, 1, 1), [255, 255, 255, 255], "at the threshold, all flash")
        flash.time = 0.925
        assertClose(try value(flash.outputImage, 20, 70), [127.5, 127.5, 255, 255], "half faded into the target")
        flash.time = 1
        assertClose(try value(flash.outputImage, 20, 70), [0, 0, 255, 255], "at 1, the target")
    }

    func testModHolesOpenWithTheTimeAndStayOpen() throws {
        let mod = CIFilter.modTransition()
        XCTAssertEqual(mod.angle, 2, "Apple's default")
        XCTAssertEqual(mod.radius, 150, "Apple's default")
        XCTAssertEqual(mod.compression, 300, "Apple's default")
        mod.inputImage = solid(1, 0, 0)
        mod.targetImage = solid(0, 0, 1)
        mod.center = CGPoint(x: 50, y: 50)
        mod.radius = 20
        mod.compression = 30
        func shown(_ time: Float) throws -> [Bool] {
            mod.time = time
            var pixels = [UInt8](repeating: 0, count: 100 * 100 * 4)
            context.render(
                try XCTUnwrap(mod.outputImage), toBitmap: &pixels, rowBytes: 400, bounds: CGRect(x: 0, y: 0, width: 100, height: 100), format: .RGBA8,
                colorSpace: nil)
            return stride(from: 0, to: pixels.count, by: 4).map { pixels[$0 + 2] > 128 }
        }
        XCTAssertFalse(try shown(0).contains(true), "at 0, the image")
        XCTAssertFalse(try shown(1).contains(false), "at 1, the target")
        let early = try shown(0.3), half = try shown(0.5)
        let share = Double(half.filter { $0 }.count) / Double(half.count)
        XCTAssertEqual(share, 0.5, accuracy: 0.1, "half the area open half way")
        XCTAssertTrue(zip(early, half).allSatisfy { !$0 || $1 }, "a hole once open stays open")
        XCTAssertLessThan(early.filter { $0 }.count, half.filter { $0 }.count)
    }

    func testARippleSpreadsTheTargetFromItsCentreMovingThePictureWithinTheWave() throws {
        let ripple = CIFilter.rippleTransition()
        XCTAssertEqual(ripple.width, 100, "Apple's default")
        XCTAssertEqual(ripple.scale, 50, "Apple's default")
        ripple.inputImage = solid(1, 0, 0)
        ripple.targetImage = solid(0, 0, 1)
        ripple.center = CGPoint(x: 50, y: 50)
        ripple.extent = CGRect(x: 0, y: 0, width: 100, height: 100)
        ripple.width = 20
        ripple.scale = 0
        ripple.time = 0
        assertClose(try value(ripple.outputImage, 50, 50), [255, 0, 0, 255], "at 0, the image")
        // The front at 0.5 × (70.7 + 20) = 45.4 from the centre.
        ripple.time = 0.5
        assertClose(try value(ripple.outputImage, 52, 52), [0, 0, 255, 255], "behind the wave, the target")
        assertClose(try value(ripple.outputImage, 99, 99), [255, 0, 0, 255], "ahead of it, the image")
        ripple.time = 1
        assertClose(try value(ripple.outputImage, 99, 99), [0, 0, 255, 255], "at 1, the target")
        // On a ramp, a pixel in the wave's front half is read from farther out.
        ripple.inputImage = ramp
        ripple.targetImage = ramp
        ripple.center = CGPoint(x: 32, y: 24)
        ripple.extent = ramp.extent
        ripple.scale = 3
        ripple.time = 0.5
        let front = 0.5 * (hypot(32, 24) + 20)
        let (px, py) = (front - 5 + 0.5, 0.5), d = hypot(px, py)
        let phase = (front - d) / 20, moved = d + 3 * sin(phase * Double.pi)
        let got = Pictures.rampSource(try XCTUnwrap(ripple.outputImage), x: 32 + Int(front - 5), y: 24, context: context)
        XCTAssertEqual(got.x, 32 + px * moved / d, accuracy: 0.3, "moved outwards by scale x sin(pi phase)")
    }

    func testAnAccordionFoldSqueezesTheImageDownShadingEveryOtherPanel() throws {
        let fold = CIFilter.accordionFoldTransition()
        XCTAssertEqual(fold.numberOfFolds, 3, "Apple's default")
        XCTAssertEqual(fold.foldShadowAmount, 0.1, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(fold.bottomHeight, 0, "Apple's default")
        fold.inputImage = ramp
        fold.targetImage = solid(0, 0, 1, size: 64)
        fold.foldShadowAmount = 0
        fold.time = 0.5
        let image = try XCTUnwrap(fold.outputImage)
        let got = Pictures.rampSource(image, x: 10, y: 20, context: context)
        XCTAssertEqual(got.y, 20.5 / 24 * 48, accuracy: 0.3, "the row it came from")
        XCTAssertEqual(got.x, 10.5, accuracy: 0.3)
        assertClose(try value(image, 10, 30), [0, 0, 255, 255], "above the folds, the target")
        fold.foldShadowAmount = 1
        let shaded = try value(fold.outputImage, 10, 5), lit = try value(fold.outputImage, 10, 1)
        // Row 5.5 is in the second of six panels: darkened by amount x time.
        XCTAssertEqual(shaded[0], 4 * (10.5 - 0.5) * 0.5, accuracy: 2.5, "a panel facing away")
        XCTAssertEqual(lit[0], 4 * (10.5 - 0.5), accuracy: 2.5, "a panel facing the light")
        fold.bottomHeight = 10
        fold.foldShadowAmount = 0
        let kept = Pictures.rampSource(try XCTUnwrap(fold.outputImage), x: 10, y: 5, context: context)
        XCTAssertEqual(kept.y, 5.5, accuracy: 0.3, "below the bottom height, unfolded")
        fold.time = 0
        let start = Pictures.rampSource(try XCTUnwrap(fold.outputImage), x: 40, y: 40, context: context)
        XCTAssertEqual(start.y, 40.5, accuracy: 0.3, "at 0, the image")
    }

    // MARK: Stylize

    func testPointillizeDotsCarryTheImagesColourOnWhite() throws {
        let dots = CIFilter.pointillize()
        XCTAssertEqual(dots.radius, 20, "Apple's default")
        dots.inputImage = solid(1, 0, 0)
        dots.radius = 5
        dots.center = .zero
        var pixels = [UInt8](repeating: 0, count: 100 * 100 * 4)
        context.render(
            try XCTUnwrap(dots.outputImage), toBitmap: &pixels, rowBytes: 400, bounds: CGRect(x: 0, y: 0, width: 100, height: 100), format: .RGBA8,
            colorSpace: nil)
        let colours: [[UInt8]] = stride(from: 0, to: pixels.count, by: 4).map { index -> [UInt8] in Array(pixels[index..<index + 4]) }
        let red: [UInt8] = [255, 0, 0, 255], white: [UInt8] = [255, 255, 255, 255]
        XCTAssertTrue(colours.allSatisfy { $0 == red || $0 == white }, "red dots or white")
        let share = Double(colours.filter { $0 == red }.count) / Double(colours.count)
        XCTAssertTrue(share > 0.4 && share < 0.95, "dots of radius 5, one to each 10-pixel square: \(share)")
        XCTAssertEqual(CIFilter(name: "CIPointillize")?.attributes[kCIAttributeFilterDisplayName] as? String, "Pointillize")
    }

    func testEdgeWorkIsBlackOnTheDarkSideOfEdgesAndWhiteElsewhere() throws {
        let work = CIFilter.edgeWork()
        XCTAssertEqual(work.radius, 3, "Apple's default")
        work.inputImage = solid(0.5, 0.5, 0.5, size: 40)
        var pixels = [UInt8](repeating: 0, count: 40 * 40 * 4)
        context.render(
            try XCTUnwrap(work.outputImage), toBitmap: &pixels, rowBytes: 160, bounds: CGRect(x: 0, y: 0, width: 40, height: 40), format: .RGBA8,
            colorSpace: nil)
        XCTAssertTrue(pixels.allSatisfy { $0 == 255 }, "a flat grey is white")
        // Black on the left half, white on the right.
        work.inputImage = CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 20, height: 40)).composited(
            over: solid(1, 1, 1, size: 40))
        context.render(
            try XCTUnwrap(work.outputImage), toBitmap: &pixels, rowBytes: 160, bounds: CGRect(x: 0, y: 0, width: 40, height: 40), format: .RGBA8,
            colorSpace: nil)
        let row = (0..<40).map { pixels[(20 * 40 + $0) * 4] }
        XCTAssertTrue(row.allSatisfy { $0 == 0 || $0 == 255 }, "black and white only: \(row)")
        XCTAssertEqual(row[19], 0, "just on the dark side of the edge: \(row)")
        XCTAssertEqual(row[21], 255, "just on the light side: \(row)")
        XCTAssertEqual(row[30], 255, "far from the edge: \(row)")
    }

    func testSpotColorReplacesColoursWithinTheClosenessFadingAtTheEdge() throws {
        let spot = CIFilter.spotColor()
        XCTAssertEqual(spot.closeness1, 0.22, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(spot.contrast3, 0.99, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(spot.replacementColor2, CIColor(red: 0.9137, green: 0.5608, blue: 0.5059), "Apple's default")
        spot.centerColor1 = CIColor(red: 1, green: 0, blue: 0)
        spot.replacementColor1 = CIColor(red: 0, green: 1, blue: 0)
        spot.closeness1 = 0.3
        spot.contrast1 = 0.5
        spot.closeness2 = 0
        spot.closeness3 = 0
        spot.inputImage = solid(1, 0, 0, size: 4)
        assertClose(try value(spot.outputImage, 1, 1), [0, 255, 0, 255], "the centre colour replaced")
        spot.inputImage = solid(0.8, 0, 0, size: 4)
        // 0.2 from red: within the closeness (0.3), outside the core (0.15): (0.3 - 0.2) / 0.15 of the way.
        let weight = (0.3 - 0.2) / 0.15
        assertClose(try value(spot.outputImage, 1, 1), [0.8 * 255 * (1 - weight), 255 * weight, 0, 255], "part way")
        spot.inputImage = solid(0, 0, 1, size: 4)
        assertClose(try value(spot.outputImage, 1, 1), [0, 0, 255, 255], "far from every centre, unchanged")
    }
}

/// The page curls: a red page over a blue target, its back green, checked where the curl's
/// geometry puts each layer.
final class CIPageCurlFilterTests: XCTestCase {
    let context = CIContext()

    private func solid(_ red: Double, _ green: Double, _ blue: Double) -> CIImage {
        CIImage(color: CIColor(red: red, green: green, blue: blue)).cropped(to: CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    private func assertClose(_ got: [Double], _ want: [Double], _ message: String, line: UInt = #line) {
        for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: 2.5, "\(message): \(got) for \(want)", line: line) }
    }

    /// The time at which the fold lies at `fold` along +x, for a 100-wide page and a radius of 10.
    private func time(foldAt fold: Double) -> Float { Float((110 - fold) / (100 + 20 + 10 * Double.pi)) }

    func testThePageRollsOffAroundTheCylinderShowingItsBack() throws {
        let curl = CIFilter.pageCurlTransition()
        XCTAssertEqual(curl.radius, 100, "Apple's default")
        XCTAssertEqual(curl.extent, CGRect(x: 0, y: 0, width: 300, height: 300), "Apple's default")
        curl.inputImage = solid(1, 0, 0)
        curl.targetImage = solid(0, 0, 1)
        curl.backsideImage = solid(0, 1, 0)
        curl.extent = CGRect(x: 0, y: 0, width: 100, height: 100)
        curl.radius = 10
        curl.angle = 0
        func at(_ x: Int) throws -> [Double] { Pictures.value(try XCTUnwrap(curl.outputImage), x: x, y: 50, context: context) }
        curl.time = 0
        assertClose(try at(99), [255, 0, 0, 255], "at 0, the page")
        curl.time = 1
        assertClose(try at(1), [0, 0, 255, 255], "at 1, the target")
        curl.time = time(foldAt: 50)
        assertClose(try at(80), [0, 0, 255, 255], "past the cylinder, the target")
        // Over the cylinder, 5.5 past the fold: the back, at the upper angle, lit by 2/3 + sin / 3.
        let ratio = 5.5 / 10
        assertClose(try at(55), [0, 255 * (2.0 / 3 + ratio / 3), 0, 255], "over the cylinder, the back")
        assertClose(try at(45), [0, 255 * 2 / 3, 0, 255], "just before the fold, the back lying on top")
        assertClose(try at(10), [255, 0, 0, 255], "far before it, where the page does not reach back, the page")
        // With the fold near the far edge, the back runs off the page: the face shows over the cylinder.
        curl.time = time(foldAt: 95)
        assertClose(try at(97), [255, 0, 0, 255], "the face on the cylinder")
    }

    func testTheShadowedCurlDarkensTheTargetAheadOfTheCylinder() throws {
        let curl = CIFilter.pageCurlWithShadowTransition()
        XCTAssertEqual(curl.shadowSize, 0.5, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(curl.shadowAmount, 0.7, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(curl.extent, .zero, "Apple's default: the image's own")
        curl.inputImage = solid(1, 0, 0)
        curl.targetImage = solid(0, 0, 1)
        curl.backsideImage = solid(0, 1, 0)
        curl.radius = 10
        curl.time = time(foldAt: 50)
        func at(_ x: Int) throws -> [Double] { Pictures.value(try XCTUnwrap(curl.outputImage), x: x, y: 50, context: context) }
        // 15.5 past the fold: 5.5 past the cylinder, over a shadow 10 long.
        assertClose(try at(65), [0, 0, 255 * (1 - 0.7 * (1 - 5.5 / 10)), 255], "in the shadow")
        assertClose(try at(80), [0, 0, 255, 255], "beyond it")
        curl.shadowExtent = CGRect(x: 0, y: 0, width: 100, height: 20)
        assertClose(try at(65), [0, 0, 255, 255], "outside the shadow extent, no shadow")
    }
}
