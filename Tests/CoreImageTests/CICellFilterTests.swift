import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Hexagonal pixellation and crystallization on a ramp (red 4 x, green 4 y), whose colours say
/// which point of the plane each pixel was filled from: the hexagons' middles lie on their
/// lattice and are each pixel's nearest; the crystals' sites are each pixel's nearest site.
final class CICellFilterTests: XCTestCase {
    let context = CIContext()
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    /// The point each pixel of a 64 x 48 output was filled from, rows from the bottom; nil where
    /// it was filled from the picture's edge or beyond (where the edge's colours carry on).
    private func sources(_ image: CIImage?) throws -> [[(x: Double, y: Double)?]] {
        var pixels = [UInt8](repeating: 0, count: 64 * 48 * 4)
        context.render(
            try XCTUnwrap(image), toBitmap: &pixels, rowBytes: 64 * 4, bounds: CGRect(x: 0, y: 0, width: 64, height: 48), format: .RGBA8, colorSpace: nil)
        return (0..<48).map { y in
            (0..<64).map { x in
                let at = ((47 - y) * 64 + x) * 4
                XCTAssertEqual(pixels[at + 3], 255, "opaque")
                let (sx, sy) = (Double(pixels[at]) / 4 + 0.5, Double(pixels[at + 1]) / 4 + 0.5)
                return sx < 1 || sx > 63 || sy < 1 || sy > 47 ? nil : (sx, sy)
            }
        }
    }

    func testHexagonsAreFilledFromTheirMiddlesOnTheLattice() throws {
        let filter = CIFilter.hexagonalPixellate()
        XCTAssertEqual(filter.scale, 8, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 32, y: 24)
        filter.scale = 8
        let points = try sources(filter.outputImage)
        let (w, h) = (8.0, 8 * 3.0.squareRoot())
        // Away from the edges (where the blur reads the edge again and again), each pixel's
        // middle is the nearest point of the two grids to it.
        for y in 14..<34 {
            for x in 18..<46 {
                let (px, py) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 24)
                let a = ((px / w).rounded() * w, (py / h).rounded() * h)
                let b = (((px - w / 2) / w).rounded() * w + w / 2, ((py - h / 2) / h).rounded() * h + h / 2)
                let nearest = hypot(px - a.0, py - a.1) < hypot(px - b.0, py - b.1) ? a : b
                let point = try XCTUnwrap(points[y][x])
                XCTAssertEqual(point.x - 32, nearest.0, accuracy: 0.5, "(\(x), \(y)) x")
                XCTAssertEqual(point.y - 24, nearest.1, accuracy: 0.5, "(\(x), \(y)) y")
            }
        }
        // A picture of one colour stays that colour.
        filter.inputImage = CIImage(color: CIColor(red: 0.2, green: 0.6, blue: 0.4)).cropped(to: CGRect(x: 0, y: 0, width: 64, height: 48))
        XCTAssertEqual(Pictures.value(try XCTUnwrap(filter.outputImage), x: 30, y: 20, context: context), [51, 153, 102, 255])
    }

    func testEachCrystalTakesTheColourOfItsNearestSite() throws {
        let filter = CIFilter.crystallize()
        XCTAssertEqual(filter.radius, 20, "Apple's default")
        filter.inputImage = ramp
        filter.center = CGPoint(x: 0, y: 0)
        filter.radius = 10
        let points = try sources(filter.outputImage)
        // The sites seen inside the picture: each pixel filled from one of them is filled from the
        // nearest (to within the ramp's quarter-pixel steps). A pixel whose site lies beyond the
        // picture takes the edge's colour, and its site is unknown.
        var sites: [(Double, Double)] = []
        for row in points {
            for case let point? in row where !sites.contains(where: { abs($0.0 - point.x) < 0.3 && abs($0.1 - point.y) < 0.3 }) {
                sites.append((point.x, point.y))
            }
        }
        XCTAssertGreaterThan(sites.count, 15, "about one site in each 10 x 10 square")
        XCTAssertLessThan(sites.count, 50)
        XCTAssertGreaterThan(points.joined().compactMap { $0 }.count, 64 * 48 / 2, "most pixels' sites lie in the picture")
        for y in stride(from: 0, to: 48, by: 3) {
            for x in stride(from: 0, to: 64, by: 3) {
                guard let point = points[y][x] else { continue }
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                let own = hypot(point.x - px, point.y - py)
                let nearest = sites.map { hypot($0.0 - px, $0.1 - py) }.min()!
                XCTAssertLessThanOrEqual(own, nearest + 0.6, "(\(x), \(y)): filled from its nearest site")
            }
        }
    }
}
