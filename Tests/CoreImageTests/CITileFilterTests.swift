import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The lattice tiles and the kaleidoscope, by the symmetries each promises: the base cell shows
/// the image itself, and the rest of the plane repeats it by translations, reflections and turns.
final class CITileFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func value(_ image: CIImage?, _ x: Int, _ y: Int) throws -> [Double] { Pictures.value(try XCTUnwrap(image), x: x, y: y, context: context) }

    private func assertSame(_ a: [Double], _ b: [Double], _ message: String, line: UInt = #line) {
        for band in 0..<4 { XCTAssertEqual(a[band], b[band], accuracy: 1.5, "\(message): \(a) against \(b)", line: line) }
    }

    /// A tile filter set on the ramp, centre (10, 10), width 20, angle 0.
    private func tile(_ filter: CIFilter) -> CIImage? {
        filter.setValue(ramp, forKey: kCIInputImageKey)
        filter.setValue(CIVector(x: 10, y: 10), forKey: kCIInputCenterKey)
        filter.setValue(20, forKey: kCIInputWidthKey)
        filter.setValue(0, forKey: kCIInputAngleKey)
        return filter.outputImage
    }

    func testTheBaseCellIsTheImageItselfAndTheTranslatedTileRepeatsIt() throws {
        let filter = CIFilter.fourfoldTranslatedTile()
        XCTAssertEqual(filter.width, 100, "Apple's default")
        XCTAssertEqual(filter.acuteAngle, Float.pi / 2, accuracy: 1e-6, "Apple's default")
        let image = try XCTUnwrap(tile(filter))
        XCTAssertTrue(image.extent.isInfinite)
        assertSame(try value(image, 15, 17), try value(ramp, 15, 17), "the base cell")
        for (dx, dy) in [(20, 0), (0, 20), (-40, 60), (100, -100)] {
            assertSame(try value(image, 15 + dx, 17 + dy), try value(ramp, 15, 17), "moved by (\(dx), \(dy))")
        }
    }

    func testTheReflectedTileMirrorsAlternateCells() throws {
        let image = try XCTUnwrap(tile(CIFilter.fourfoldReflectedTile()))
        assertSame(try value(image, 15, 17), try value(ramp, 15, 17), "the base cell")
        // The cell to the right is the base mirrored about x = 30: the pixel at 35 shows the one at 24.
        assertSame(try value(image, 35, 17), try value(ramp, 24, 17), "mirrored across")
        assertSame(try value(image, 15, 37), try value(ramp, 15, 22), "mirrored up")
        assertSame(try value(image, 55, 17), try value(ramp, 15, 17), "two cells on, as the base")
    }

    func testTheRotatedTileTurnsByQuarterTurnsAboutTheBlocksMiddle() throws {
        let image = try XCTUnwrap(tile(CIFilter.fourfoldRotatedTile()))
        // A quarter turn about (30, 30) takes the pixel centre (35.5, 22.5) to (37.5, 35.5).
        assertSame(try value(image, 35, 22), try value(image, 37, 35), "a quarter turn")
        assertSame(try value(image, 35, 22), try value(image, 24, 37), "a half turn")
        assertSame(try value(image, 35, 22), try value(image, 22, 24), "three quarters")
    }

    func testTheEightfoldTileIsAlsoMirroredAcrossItsDiagonal() throws {
        let image = try XCTUnwrap(tile(CIFilter.eightfoldReflectedTile()))
        assertSame(try value(image, 15, 22), try value(image, 22, 15), "(5.5, 12.5) and (12.5, 5.5) from the centre")
        assertSame(try value(image, 35, 17), try value(image, 24, 17), "and across, as the fourfold")
    }

    func testTheGlideTileMirrorsAndShiftsAlternateRows() throws {
        let image = try XCTUnwrap(tile(CIFilter.glideReflectedTile()))
        assertSame(try value(image, 15, 17), try value(image, 15, 57), "two rows on, the same")
        XCTAssertNotEqual(try value(image, 15, 17), try value(image, 15, 37), "the next row differs")
    }

    func testTheKaleidoscopeRepeatsAWedgeMirroredAroundTheCentre() throws {
        let filter = CIFilter.kaleidoscope()
        XCTAssertEqual(filter.count, 6, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.count = 4
        filter.angle = 0
        let image = try XCTUnwrap(filter.outputImage)
        // Count 4: a quarter turn about (32, 24) takes (36.5, 26.5) to (29.5, 28.5).
        assertSame(try value(image, 36, 26), try value(image, 29, 28), "a quarter turn")
        // Mirrored about the angle's line: (36.5, 26.5) and (36.5, 21.5).
        assertSame(try value(image, 36, 26), try value(image, 36, 21), "mirrored")
        // Inside the first wedge (from the angle through an eighth of a turn), the image itself.
        assertSame(try value(image, 40, 26), try value(ramp, 40, 26), "the first wedge")
    }
}

/// The hexagonal tiles: each pixel drawn from the wedge at the centre its direction folds into,
/// at its own distance; the lattice repeating the whole every width along the angle.
final class CIHexagonalTileFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    /// Checks each pixel near the centre (32, 24) was drawn from the same distance, in a direction
    /// within the first `span` degrees, turned from its own by a multiple of `step` (or, mirrored,
    /// its negative).
    private func assertFolds(_ filter: CIFilter, span: Double, step: Double, mirrored: Bool, line: UInt = #line) throws {
        filter.setValue(ramp, forKey: kCIInputImageKey)
        filter.setValue(CIVector(x: 32, y: 24), forKey: kCIInputCenterKey)
        filter.setValue(20, forKey: kCIInputWidthKey)
        filter.setValue(0, forKey: kCIInputAngleKey)
        let image = try XCTUnwrap(filter.outputImage)
        for (x, y) in [(36, 26), (29, 27), (27, 20), (34, 17), (30, 24), (38, 23)] {
            let (px, py) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 24)
            let source = Pictures.rampSource(image, x: x, y: y, context: context)
            let (sx, sy) = (source.x - 32, source.y - 24)
            XCTAssertEqual(hypot(sx, sy), hypot(px, py), accuracy: 0.35, "\(filter.name) (\(x), \(y)): the same distance", line: line)
            var from = atan2(sy, sx) * 180 / .pi, to = atan2(py, px) * 180 / .pi
            if from < -1 { from += 360 }
            if to < 0 { to += 360 }
            XCTAssertLessThanOrEqual(from, span + 3, "\(filter.name) (\(x), \(y)): from the first wedge (\(from))", line: line)
            func isMultiple(_ a: Double) -> Bool { let r = (a / step).rounded(); return abs(a - r * step) < 4 }
            XCTAssertTrue(isMultiple(to - from) || (mirrored && isMultiple(to + from)), "\(filter.name) (\(x), \(y)): \(to) from \(from)", line: line)
        }
        // One lattice step along the angle: the same pixel.
        XCTAssertEqual(Pictures.value(image, x: 34, y: 25, context: context), Pictures.value(image, x: 54, y: 25, context: context), line: line)
    }

    func testTheHexagonalTilesFoldEachDirectionIntoTheirWedge() throws {
        try assertFolds(CIFilter.sixfoldRotatedTile(), span: 60, step: 60, mirrored: false)
        try assertFolds(CIFilter.sixfoldReflectedTile(), span: 60, step: 120, mirrored: true)
        try assertFolds(CIFilter.twelvefoldReflectedTile(), span: 30, step: 60, mirrored: true)
    }
}
