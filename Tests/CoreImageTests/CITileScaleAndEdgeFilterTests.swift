import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The triangle, op-art and perspective tiles, the maximum scale, the edge-preserving upsample,
/// the headroom tone map, Canny's and Gabor's edges and the distance gradient, each checked
/// against what its comment computes, worked out here on small pictures.
final class CITileScaleAndEdgeFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func value(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Double] {
        Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context)
    }

    private func assertFrom(_ image: CIImage?, _ x: Int, _ y: Int, _ want: (Double, Double), _ message: String, line: UInt = #line) throws {
        let got = Pictures.rampSource(try XCTUnwrap(image), x: x, y: y, context: context)
        XCTAssertEqual(got.x, want.0, accuracy: 0.3, "\(message): x", line: line)
        XCTAssertEqual(got.y, want.1, accuracy: 0.3, "\(message): y", line: line)
    }

    private func solid(_ red: Double, _ green: Double, _ blue: Double, _ rect: CGRect) -> CIImage {
        CIImage(color: CIColor(red: red, green: green, blue: blue)).cropped(to: rect)
    }

    /// One band of a rendered row (0: red), left to right.
    private func row(_ image: CIImage?, y: Int, width: Int, band: Int = 0) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * 4)
        context.render(
            try XCTUnwrap(image), toBitmap: &pixels, rowBytes: width * 4, bounds: CGRect(x: 0, y: y, width: width, height: 1), format: .RGBA8, colorSpace: nil)
        return (0..<width).map { pixels[$0 * 4 + band] }
    }

    // MARK: Tiles

    func testATriangleTileMirrorsTheTriangleAcrossItsEdges() throws {
        let tile = CIFilter.triangleTile()
        XCTAssertEqual(tile.width, 100, "Apple's default")
        tile.inputImage = ramp
        tile.center = CGPoint(x: 10, y: 10)
        tile.width = 20
        tile.angle = 0
        try assertFrom(tile.outputImage, 14, 12, (14.5, 12.5), "inside the triangle, the image")
        try assertFrom(tile.outputImage, 14, 7, (14.5, 12.5), "below its base, mirrored across it")
        // Across its left side (the line at 60 degrees through the corner): the mirror of (14.5, 12.5).
        let (px, py) = (4.5, 2.5), c = cos(2 * Double.pi / 3), s = sin(2 * Double.pi / 3)
        let mirrored = (10 + px * c + py * s, 10 + px * s - py * c)
        try assertFrom(
            tile.outputImage, Int(mirrored.0), Int(mirrored.1),
            (
                10 + (Double(Int(mirrored.0)) + 0.5 - 10) * c + (Double(Int(mirrored.1)) + 0.5 - 10) * s,
                10 + (Double(Int(mirrored.0)) + 0.5 - 10) * s - (Double(Int(mirrored.1)) + 0.5 - 10) * c
            ), "across the left side")
        let far = try value(tile.outputImage, 200, 150)
        XCTAssertEqual(far[3], 255, "the plane is covered")
    }

    func testATriangleKaleidoscopeIsTheTriangleTileFadingWithDistance() throws {
        let kaleidoscope = CIFilter.triangleKaleidoscope()
        XCTAssertEqual(kaleidoscope.size, 700, "Apple's default")
        XCTAssertEqual(kaleidoscope.rotation, 5.924285296593801, accuracy: 1e-5, "Apple's default")
        XCTAssertEqual(kaleidoscope.decay, 0.85, accuracy: 1e-6, "Apple's default")
        let tile = CIFilter.triangleTile()
        tile.inputImage = ramp
        tile.center = CGPoint(x: 10, y: 10)
        tile.width = 30
        tile.angle = 0.3
        kaleidoscope.inputImage = ramp
        kaleidoscope.point = CGPoint(x: 10, y: 10)
        kaleidoscope.size = 30
        kaleidoscope.rotation = 0.3
        kaleidoscope.decay = 1
        for (x, y) in [(20, 15), (50, 40), (5, 30)] {
            XCTAssertEqual(try value(kaleidoscope.outputImage, x, y), try value(tile.outputImage, x, y), "(\(x), \(y)): without decay, the tile")
        }
        kaleidoscope.decay = 0.5
        let middle = (10 + 30 * (cos(0.3) + cos(0.3 + Double.pi / 3)) / 3, 10 + 30 * (sin(0.3) + sin(0.3 + Double.pi / 3)) / 3)
        let distance = hypot(50.5 - middle.0, 40.5 - middle.1) / 30
        let plain = try value(tile.outputImage, 50, 40), faded = try value(kaleidoscope.outputImage, 50, 40)
        XCTAssertEqual(faded[0], plain[0] * pow(0.5, distance), accuracy: 2, "faded by decay^(distance / size)")
    }

    func testAnOpTileShrinksTheImageAboutEachSquaresMiddle() throws {
        let tile = CIFilter.opTile()
        XCTAssertEqual(tile.scale, 2.8, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(tile.width, 65, "Apple's default")
        tile.inputImage = ramp
        tile.center = CGPoint(x: 32, y: 24)
        tile.width = 16
        tile.scale = 0.5
        try assertFrom(tile.outputImage, 37, 25, (32 + 5.5 * 0.5, 24 + 1.5 * 0.5), "the square about the centre")
        try assertFrom(tile.outputImage, 50, 24, (48 + 2.5 * 0.5, 24 + 0.5 * 0.5), "the next square, about its own middle")
    }

    func testAPerspectiveTileRepeatsTheImageAndDrawsItIntoTheCorners() throws {
        let tile = CIFilter.perspectiveTile()
        XCTAssertEqual(tile.topLeft, CGPoint(x: 118, y: 484), "Apple's default")
        XCTAssertEqual(tile.bottomLeft, CGPoint(x: 155, y: 153), "Apple's default")
        tile.inputImage = ramp
        tile.topLeft = CGPoint(x: 0, y: 96)
        tile.topRight = CGPoint(x: 128, y: 96)
        tile.bottomRight = CGPoint(x: 128, y: 0)
        tile.bottomLeft = .zero
        try assertFrom(tile.outputImage, 20, 20, (10.25, 10.25), "the image doubled into the corners")
        try assertFrom(tile.outputImage, 140, 20, (70.25 - 64, 10.25), "beyond them, its repetition")
        XCTAssertTrue(try XCTUnwrap(tile.outputImage).extent.isInfinite)
    }

    // MARK: Scale and tone

    func testTheMaximumScaleKeepsAThinBrightLineTheMeanWouldGrey() throws {
        let scale = CIFilter.maximumScaleTransform()
        XCTAssertEqual(scale.scale, 1, "Apple's default")
        XCTAssertEqual(scale.aspectRatio, 1, "Apple's default")
        scale.inputImage = solid(1, 1, 1, CGRect(x: 3, y: 5, width: 1, height: 1)).composited(over: solid(0, 0, 0, CGRect(x: 0, y: 0, width: 8, height: 8)))
        scale.scale = 0.25
        let image = try XCTUnwrap(scale.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(try value(image, 0, 1), [255, 255, 255, 255], "the block holding the white pixel is white")
        XCTAssertEqual(try value(image, 1, 1)[0], 0, "the block beside it is black")
        XCTAssertEqual(try value(image, 0, 0)[0], 0, "the block below it is black")
    }

    func testTheEdgePreservingUpsampleKeepsEachSideOfTheGuidesEdge() throws {
        let upsample = CIFilter.edgePreserveUpsample()
        XCTAssertEqual(upsample.spatialSigma, 3, "Apple's default")
        XCTAssertEqual(upsample.lumaSigma, 0.15, accuracy: 1e-6, "Apple's default")
        // The guide: black on the left half, white on the right; the small image: dark red and light blue.
        upsample.inputImage = solid(0, 0, 0, CGRect(x: 0, y: 0, width: 20, height: 40)).composited(
            over: solid(1, 1, 1, CGRect(x: 0, y: 0, width: 40, height: 40)))
        upsample.smallImage = solid(0.1, 0, 0, CGRect(x: 0, y: 0, width: 5, height: 10)).composited(
            over: solid(0.9, 0.9, 1, CGRect(x: 0, y: 0, width: 10, height: 10)))
        let image = try XCTUnwrap(upsample.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 40, height: 40))
        for x in [17, 18, 19] {
            let got = try value(image, x, 20)
            XCTAssertEqual(got[0], 25.5, accuracy: 3, "x \(x): the dark red side: \(got)")
            XCTAssertEqual(got[2], 0, accuracy: 3, "x \(x): no blue from across the edge: \(got)")
        }
        for x in [20, 21, 22] {
            let got = try value(image, x, 20)
            XCTAssertEqual(got[2], 255, accuracy: 3, "x \(x): the light blue side: \(got)")
            XCTAssertEqual(got[1], 229.5, accuracy: 3, "x \(x): \(got)")
        }
    }

    func testToneMappingToALowerHeadroomFollowsTheExtendedReinhardCurve() throws {
        let tone = CIFilter.toneMapHeadroom()
        XCTAssertEqual(tone.targetHeadroom, 1, "Apple's default")
        tone.inputImage = solid(1, 0.5, 0.25, CGRect(x: 0, y: 0, width: 4, height: 4))
        tone.sourceHeadroom = 1
        let same = try value(tone.outputImage, 1, 1)
        for (index, want) in [255, 127.5, 63.75, 255].enumerated() { XCTAssertEqual(same[index], want, accuracy: 1, "equal headrooms: unchanged") }
        tone.sourceHeadroom = 4
        let curve = { (x: Double) in x * (1 + x / 16) / (1 + x) * 255 }
        let got = try value(tone.outputImage, 1, 1)
        for (index, x) in [1.0, 0.5, 0.25].enumerated() { XCTAssertEqual(got[index], curve(x), accuracy: 1.5, "component \(index)") }
    }

    // MARK: Edges and distance

    func testCannyFindsAStepAsAThinLineAndIgnoresAFaintOne() throws {
        let canny = CIFilter.cannyEdgeDetector()
        XCTAssertEqual(canny.gaussianSigma, 1.6, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(canny.thresholdHigh, 0.05, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(canny.thresholdLow, 0.02, accuracy: 1e-6, "Apple's default")
        XCTAssertEqual(canny.hysteresisPasses, 1, "Apple's default")
        XCTAssertFalse(canny.perceptual, "Apple's default")
        let area = CGRect(x: 0, y: 0, width: 40, height: 40)
        canny.inputImage = solid(0, 0, 0, CGRect(x: 0, y: 0, width: 20, height: 40)).composited(over: solid(1, 1, 1, area))
        let line = try row(canny.outputImage, y: 20, width: 40)
        let white = line.indices.filter { line[$0] == 255 }
        XCTAssertTrue(line.allSatisfy { $0 == 0 || $0 == 255 }, "white on black: \(line)")
        XCTAssertFalse(white.isEmpty, "the step is found: \(line)")
        XCTAssertTrue(white.allSatisfy { (18...21).contains($0) } && white.count <= 2, "a thin line at the step: \(white)")
        XCTAssertEqual(try row(canny.outputImage, y: 5, width: 40), line, "the same down the step")
        canny.perceptual = true
        XCTAssertFalse(try row(canny.outputImage, y: 20, width: 40).filter { $0 == 255 }.isEmpty, "perceptual values find it too")
        canny.inputImage = solid(0.5, 0.5, 0.5, CGRect(x: 0, y: 0, width: 20, height: 40)).composited(over: solid(0.51, 0.51, 0.51, area))
        XCTAssertTrue(try row(canny.outputImage, y: 20, width: 40).allSatisfy { $0 == 0 }, "a faint step is below the thresholds")
    }

    /// A step strong above and faint below (its slope between the thresholds): without
    /// hysteresis only the strong part is an edge; each pass carries the edge a pixel down the faint part.
    func testHysteresisGrowsAStrongEdgeAlongItsWeakContinuation() throws {
        let canny = CIFilter.cannyEdgeDetector()
        canny.perceptual = true
        let left = solid(0, 0, 0, CGRect(x: 0, y: 20, width: 20, height: 40)).composited(over: solid(0.3, 0.3, 0.3, CGRect(x: 0, y: 0, width: 20, height: 20)))
        let right = solid(1, 1, 1, CGRect(x: 20, y: 20, width: 20, height: 40)).composited(
            over: solid(0.45, 0.45, 0.45, CGRect(x: 20, y: 0, width: 20, height: 20)))
        canny.inputImage = left.composited(over: right)
        func found(_ y: Int) throws -> Bool { try row(canny.outputImage, y: y, width: 40).contains(255) }
        canny.hysteresisPasses = 0
        XCTAssertTrue(try found(30), "the strong part")
        XCTAssertFalse(try found(12), "the faint part alone is no edge")
        canny.hysteresisPasses = 10
        XCTAssertTrue(try found(30), "the strong part")
        XCTAssertTrue(try found(12), "the faint part within 10 passes of the strong one")
        XCTAssertFalse(try found(2), "the faint part beyond them")
    }

    func testGaborGradientsAreTheSlopeAcrossInRedAndUpInGreen() throws {
        let gabor = CIFilter.gaborGradients()
        let across = CIFilter.linearGradient()
        across.point0 = .zero
        across.point1 = CGPoint(x: 10, y: 0)
        across.color0 = CIColor(red: 0, green: 0, blue: 0)
        across.color1 = CIColor(red: 1, green: 1, blue: 1)
        gabor.inputImage = try XCTUnwrap(across.outputImage).cropped(to: CGRect(x: 0, y: 0, width: 20, height: 20))
        // A slope of 0.1 a pixel, in the middle of the ramp (away from its ends).
        var got = try value(gabor.outputImage, 5, 10)
        XCTAssertEqual(got[0], 25.5, accuracy: 2, "across: \(got)")
        XCTAssertEqual(got[1], 0, accuracy: 1, "nothing up: \(got)")
        across.point1 = CGPoint(x: 0, y: 10)
        gabor.inputImage = try XCTUnwrap(across.outputImage).cropped(to: CGRect(x: 0, y: 0, width: 20, height: 20))
        got = try value(gabor.outputImage, 10, 5)
        XCTAssertEqual(got[1], 25.5, accuracy: 2, "up: \(got)")
        XCTAssertEqual(got[0], 0, accuracy: 1, "nothing across: \(got)")
    }

    func testTheDistanceGradientMeasuresToTheNearestRedPixelUpToTheMaximum() throws {
        let distance = CIFilter.distanceGradientFromRedMask()
        XCTAssertEqual(distance.maximumDistance, 10, "Apple's default")
        distance.inputImage = solid(1, 0, 0, CGRect(x: 20, y: 20, width: 10, height: 10))
        XCTAssertEqual(try value(distance.outputImage, 25, 25), [0, 0, 0, 255], "inside the mask")
        XCTAssertEqual(try value(distance.outputImage, 35, 25)[0], 6.0 / 10 * 255, accuracy: 1, "6 pixels to its right")
        XCTAssertEqual(try value(distance.outputImage, 33, 33)[0], hypot(4, 4) / 10 * 255, accuracy: 1, "diagonally off its corner")
        XCTAssertEqual(try value(distance.outputImage, 60, 60)[0], 255, "beyond the maximum")
        distance.inputImage = solid(0, 0, 1, CGRect(x: 20, y: 20, width: 10, height: 10))
        XCTAssertEqual(try value(distance.outputImage, 25, 25)[0], 255, "no red: everything is far")
    }
}
