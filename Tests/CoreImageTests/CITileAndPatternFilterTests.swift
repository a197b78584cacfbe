import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The affine clamp and tile, and the checkerboard and stripes generators, read back pixel by pixel
/// at places whose colour follows from the definitions.
final class CITileAndPatternFilterTests: XCTestCase {
    let context = CIContext()
    let red = CIColor(red: 1, green: 0, blue: 0), blue = CIColor(red: 0, green: 0, blue: 1)

    /// 8 x 4: red on the left half, blue on the right.
    private var halves: CIImage {
        CIImage(color: red).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4)).composited(
            over: CIImage(color: blue).cropped(to: CGRect(x: 4, y: 0, width: 4, height: 4)))
    }

    /// "red", "blue" or the RGBA of the pixel at (x, y) of an image.
    private func colour(_ image: CIImage?, _ x: Int, _ y: Int) throws -> String {
        var pixel = [UInt8](repeating: 0, count: 4)
        context.render(try XCTUnwrap(image), toBitmap: &pixel, rowBytes: 4, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        switch pixel {
        case [255, 0, 0, 255]: return "red"
        case [0, 0, 255, 255]: return "blue"
        default: return "\(pixel)"
        }
    }

    func testAffineClampCarriesTheTransformedEdgesOn() throws {
        let filter = CIFilter.affineClamp()
        XCTAssertEqual(filter.transform, .identity, "Apple's default")
        filter.inputImage = halves
        filter.transform = CGAffineTransform(translationX: 10, y: 0)
        XCTAssertTrue(try XCTUnwrap(filter.outputImage).extent.isInfinite)
        XCTAssertEqual(try colour(filter.outputImage, 0, 2), "red", "left of the moved image: its left edge")
        XCTAssertEqual(try colour(filter.outputImage, 12, 50), "red", "above it: its top edge")
        XCTAssertEqual(try colour(filter.outputImage, 100, -30), "blue", "beyond its right edge")
    }

    func testAffineTileRepeatsTheTransformedImageInStep() throws {
        let filter = CIFilter.affineTile()
        filter.inputImage = halves
        XCTAssertEqual(try colour(filter.outputImage, 9, 1), "red", "the next tile's left half")
        XCTAssertEqual(try colour(filter.outputImage, 13, 5), "blue", "its right half, a row of tiles up")
        XCTAssertEqual(try colour(filter.outputImage, -3, -2), "blue", "left of the first: -3 is 5 in its tile")
        filter.transform = CGAffineTransform(translationX: 2, y: 0)
        XCTAssertEqual(try colour(filter.outputImage, 2, 0), "red", "the tiles start where the image was moved to")
        XCTAssertEqual(try colour(filter.outputImage, 1, 0), "blue")
        XCTAssertEqual(try colour(filter.outputImage, 802, 0), "red", "a hundred tiles on")
    }

    func testTheCheckerboardAlternatesFromItsCentre() throws {
        let filter = CIFilter.checkerboardGenerator()
        XCTAssertEqual(filter.center, CGPoint(x: 150, y: 150), "Apple's defaults")
        XCTAssertEqual([filter.width, filter.sharpness], [80, 1])
        filter.center = CGPoint(x: 3, y: 5)
        filter.width = 4
        filter.color0 = red
        filter.color1 = blue
        XCTAssertTrue(try XCTUnwrap(filter.outputImage).extent.isInfinite)
        for (x, y, expected) in [(3, 5, "red"), (6, 8, "red"), (7, 5, "blue"), (7, 9, "red"), (-1, 5, "blue"), (3, 1, "blue"), (-1, 1, "red"), (43, 45, "red")]
        {
            XCTAssertEqual(try colour(filter.outputImage, x, y), expected, "(\(x), \(y))")
        }
    }

    func testStripesAlternateAcrossAndRunUp() throws {
        let filter = CIFilter.stripesGenerator()
        filter.center = CGPoint(x: 3, y: 0)
        filter.width = 4
        filter.color0 = red
        filter.color1 = blue
        for (x, expected) in [(3, "red"), (6, "red"), (7, "blue"), (10, "blue"), (11, "red"), (-1, "blue"), (-5, "red")] {
            XCTAssertEqual(try colour(filter.outputImage, x, 0), expected, "x \(x)")
            XCTAssertEqual(try colour(filter.outputImage, x, 77), expected, "x \(x), higher up")
        }
        let none = try XCTUnwrap(CIFilter(name: "CIStripesGenerator", parameters: [kCIInputWidthKey: 0]))
        XCTAssertEqual(none.outputImage?.extent, .null, "stripes of no width are nothing")
    }
}
