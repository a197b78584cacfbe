import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Box, disc and median blurs and the rectangle morphology filters, on pictures whose result is
/// counted here: one white pixel, or a white block, on opaque black.
final class CIBlurAndMorphologyFilterTests: XCTestCase {
    let context = CIContext()
    let size = 21

    /// Opaque black `size` pixels square with white pixels where `white` says (x, y from the bottom left).
    private func picture(_ white: (Int, Int) -> Bool) -> CIImage {
        var image = CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: size, height: size))
        for y in 0..<size {
            for x in 0..<size where white(x, y) {
                image = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: x, y: y, width: 1, height: 1)).composited(over: image)
            }
        }
        return image
    }

    /// The red band of every pixel of the square, by (x, y) from the bottom left, 0-255.
    private func grid(_ image: CIImage?) throws -> [[Int]] {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        context.render(
            try XCTUnwrap(image), toBitmap: &pixels, rowBytes: size * 4, bounds: CGRect(x: 0, y: 0, width: size, height: size), format: .RGBA8, colorSpace: nil)
        // Rows come top first.
        return (0..<size).map { y in (0..<size).map { x in Int(pixels[((size - 1 - y) * size + x) * 4]) } }
    }

    func testBoxBlurSpreadsAPixelEvenlyOverItsSquare() throws {
        let filter = CIFilter.boxBlur()
        XCTAssertEqual(filter.radius, 10, "Apple's default")
        filter.inputImage = picture { $0 == 10 && $1 == 10 }
        filter.radius = 2
        XCTAssertEqual(filter.outputImage?.extent, CGRect(x: -2, y: -2, width: size + 4, height: size + 4), "grown by the radius")
        let got = try grid(filter.outputImage)
        for y in 0..<size {
            for x in 0..<size {
                let inside = abs(x - 10) <= 2 && abs(y - 10) <= 2
                XCTAssertEqual(Double(got[y][x]), inside ? 255.0 / 25 : 0, accuracy: 1, "(\(x), \(y))")
            }
        }
    }

    func testDiscBlurSpreadsAPixelOverTheDisc() throws {
        let filter = CIFilter.discBlur()
        XCTAssertEqual(filter.radius, 8, "Apple's default")
        filter.inputImage = picture { $0 == 10 && $1 == 10 }
        filter.radius = 3
        let inDisc = { (x: Int, y: Int) in (x - 10) * (x - 10) + (y - 10) * (y - 10) <= 9 }
        let count = (0..<size).flatMap { y in (0..<size).map { x in inDisc(x, y) ? 1 : 0 } }.reduce(0, +)
        XCTAssertEqual(count, 29)
        let got = try grid(filter.outputImage)
        for y in 0..<size {
            for x in 0..<size {
                XCTAssertEqual(Double(got[y][x]), inDisc(x, y) ? 255.0 / Double(count) : 0, accuracy: 1, "(\(x), \(y))")
            }
        }
    }

    func testTheMedianRemovesALonePixelAndKeepsABlock() throws {
        let filter = CIFilter.median()
        filter.inputImage = picture { ($0 == 3 && $1 == 3) || ((8...12).contains($0) && (8...12).contains($1)) }
        let got = try grid(filter.outputImage)
        XCTAssertEqual(got[3][3], 0, "a lone white pixel is noise")
        XCTAssertEqual(got[10][10], 255, "the block's middle stays")
        XCTAssertEqual(got[8][8], 0, "a corner has five of its nine black")
        XCTAssertEqual(got[10][8], 255, "an edge has six of nine white")
    }

    func testTheRectangleMaximumAndMinimumGrowAndShrinkABlock() throws {
        let block = picture { (8...12).contains($0) && (8...12).contains($1) }
        let maximum = CIFilter.morphologyRectangleMaximum()
        XCTAssertEqual([maximum.width, maximum.height], [5, 5], "Apple's defaults")
        maximum.inputImage = block
        maximum.width = 3
        maximum.height = 6  // the nearest odd number: 7
        var got = try grid(maximum.outputImage)
        for y in 0..<size {
            for x in 0..<size { XCTAssertEqual(got[y][x], (7...13).contains(x) && (5...15).contains(y) ? 255 : 0, "maximum (\(x), \(y))") }
        }
        let minimum = CIFilter.morphologyRectangleMinimum()
        minimum.inputImage = block
        minimum.width = 3
        minimum.height = 3
        got = try grid(minimum.outputImage)
        for y in 0..<size {
            for x in 0..<size { XCTAssertEqual(got[y][x], (9...11).contains(x) && (9...11).contains(y) ? 255 : 0, "minimum (\(x), \(y))") }
        }
    }

    func testByNameInTheBlurCategory() {
        let blurs = Set(CIFilter.filterNames(inCategory: kCICategoryBlur))
        XCTAssertTrue(
            blurs.isSuperset(of: [
                "CIBoxBlur", "CIDiscBlur", "CIMedianFilter", "CIMorphologyRectangleMaximum", "CIMorphologyRectangleMinimum", "CIGaussianBlur",
            ]))
        XCTAssertNotNil(CIFilter(name: "CIBoxBlur", parameters: [kCIInputRadiusKey: Double.infinity]), "a radius that is not finite is the default")
    }

    func testWindowsAndDiscsAreHeldToApplesRanges() throws {
        // A window's cost is its area: 10,000 pixels is taken as 49, the largest of Apple's slider.
        let maximum = CIFilter.morphologyRectangleMaximum()
        maximum.inputImage = picture { $0 == 10 && $1 == 10 }
        maximum.width = 10_000
        maximum.height = 1
        XCTAssertEqual(maximum.outputImage?.extent, CGRect(x: -24, y: 0, width: size + 48, height: size))
        XCTAssertEqual(try grid(maximum.outputImage)[10], Array(repeating: 255, count: size), "the row is white from end to end")
        let disc = CIFilter.discBlur()
        disc.inputImage = picture { _, _ in true }
        disc.radius = 1e9
        XCTAssertEqual(disc.outputImage?.extent, CGRect(x: -100, y: -100, width: size + 200, height: size + 200), "a radius of 100 at most")
    }
    /// A flat colour stays that colour under a Gaussian blur at any radius (at a sigma of 0.5 a
    /// flat white came out 247 of 255: libvips's integer mask was rounded).
    func testAGaussianBlurKeepsAFlatColourAtSmallAndLargeRadii() throws {
        let context = CIContext()
        let flat = CIImage(color: CIColor(red: 1, green: 0.5, blue: 0.25)).cropped(to: CGRect(x: 0, y: 0, width: 60, height: 60))
        for sigma in [0.3, 0.5, 1, 1.5, 2, 3, 8] {
            let blurred = flat.clampedToExtent().applyingGaussianBlur(sigma: sigma).cropped(to: flat.extent)
            let middle = Pictures.value(blurred, x: 30, y: 30, context: context)
            XCTAssertEqual(middle[0], 255, accuracy: 1, "sigma \(sigma): red")
            XCTAssertEqual(middle[1], 127.5, accuracy: 1, "sigma \(sigma): green")
            XCTAssertEqual(middle[2], 63.75, accuracy: 1, "sigma \(sigma): blue")
            XCTAssertEqual(middle[3], 255, accuracy: 1, "sigma \(sigma): alpha")
        }
    }
}
