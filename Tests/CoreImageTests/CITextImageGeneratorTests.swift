import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The text image generator: black text on transparent, sized by the font size, the scale factor and the padding.
final class CITextImageGeneratorTests: XCTestCase {
    let context = CIContext()

    /// The alpha of every pixel of an image, top row first.
    private func alphas(_ image: CIImage) throws -> [[Int]] {
        let (width, height) = (Int(image.extent.width), Int(image.extent.height))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        context.render(image, toBitmap: &pixels, rowBytes: width * 4, bounds: image.extent, format: .RGBA8, colorSpace: nil)
        XCTAssertEqual(stride(from: 0, to: pixels.count, by: 4).map { max(pixels[$0], pixels[$0 + 1], pixels[$0 + 2]) }.max(), 0, "black")
        return (0..<height).map { row in (0..<width).map { Int(pixels[(row * width + $0) * 4 + 3]) } }
    }

    func testTextIsDrawnBlackOnTransparentAtTheFontsSizeAndScale() throws {
        let generator = CIFilter.textImageGenerator()
        XCTAssertEqual(generator.fontName, "HelveticaNeue", "Apple's default")
        XCTAssertEqual(generator.fontSize, 12)
        XCTAssertEqual(generator.scaleFactor, 1)
        XCTAssertNil(generator.outputImage, "no text, no image")
        generator.text = "Hello, Linux"
        let small = try XCTUnwrap(generator.outputImage)
        XCTAssertGreaterThan(small.extent.width, small.extent.height * 3, "a line of text is wide")
        XCTAssertEqual(small.extent.height, 12, accuracy: 8, "about the font's size high")
        let covered = try alphas(small).joined()
        XCTAssertEqual(covered.max(), 255, "solid strokes")
        XCTAssertGreaterThan(covered.filter { $0 == 0 }.count, covered.count / 3, "and space between them")
        generator.scaleFactor = 2
        let large = try XCTUnwrap(generator.outputImage)
        XCTAssertEqual(large.extent.width / small.extent.width, 2, accuracy: 0.25, "twice the scale, twice as wide")
        XCTAssertEqual(large.extent.height / small.extent.height, 2, accuracy: 0.25)
        generator.scaleFactor = 1
        generator.padding = 5
        let padded = try XCTUnwrap(generator.outputImage)
        XCTAssertEqual(padded.extent.size, CGSize(width: small.extent.width + 10, height: small.extent.height + 10))
        let rows = try alphas(padded)
        XCTAssertEqual(rows[0].max(), 0, "the padding is transparent")
        XCTAssertEqual(rows.map { $0[0] }.max(), 0)
    }

    func testMarkupCharactersAreDrawnAsTheyAreWritten() throws {
        let generator = CIFilter.textImageGenerator()
        generator.text = "a < b & c > d"
        let image = try XCTUnwrap(generator.outputImage, "Pango's markup characters do not stop the drawing")
        generator.text = "a"
        XCTAssertGreaterThan(image.extent.width, try XCTUnwrap(generator.outputImage).extent.width * 5)
        let byName = CIFilter(name: "CITextImageGenerator", parameters: ["inputText": "Name", "inputFontSize": 24])
        XCTAssertEqual(byName?.outputImage?.extent.height ?? 0, 24, accuracy: 14)
    }
}

/// Hostile sizes: a text too long to draw at its size gives nothing rather than a huge picture.
final class CITextImageGeneratorLimitTests: XCTestCase {
    func testATextTooLargeToDrawGivesAnEmptyImage() throws {
        let generator = CIFilter.textImageGenerator()
        generator.text = String(repeating: "W", count: 20_000)
        generator.fontSize = 200
        XCTAssertEqual(generator.outputImage?.extent, .null)
        generator.text = "W"
        XCTAssertNotEqual(generator.outputImage?.extent, .null, "a letter at that size is drawn")
    }
}
