import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The convolution filters: one white pixel on black shows each weight at its place, and the
/// bias and the RGB forms' alpha are checked by value.
final class CIConvolutionFilterTests: XCTestCase {
    let context = CIContext()
    let size = 21

    /// Opaque black, `size` square, with one white pixel at (10, 10) from the bottom left.
    private var dot: CIImage {
        CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 10, y: 10, width: 1, height: 1))
            .composited(over: CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: size, height: size)))
    }

    /// R and A of each pixel by (x, y) from the bottom left, 0-255.
    private func grid(_ image: CIImage?) throws -> [[(r: Int, a: Int)]] {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        context.render(
            try XCTUnwrap(image), toBitmap: &pixels, rowBytes: size * 4, bounds: CGRect(x: 0, y: 0, width: size, height: size), format: .RGBA8, colorSpace: nil)
        return (0..<size).map { y in (0..<size).map { x in (Int(pixels[((size - 1 - y) * size + x) * 4]), Int(pixels[((size - 1 - y) * size + x) * 4 + 3])) } }
    }

    func testEachWeightLandsWhereItsNeighbourSeesThePixel() throws {
        let filter = CIFilter.convolution3X3()
        XCTAssertEqual((0..<9).map { filter.weights.value(at: $0) }, [0, 0, 0, 0, 1, 0, 0, 0, 0], "Apple's default: the identity")
        XCTAssertEqual(filter.bias, 0)
        filter.inputImage = dot
        let weights: [CGFloat] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map { $0 / 45 }
        filter.weights = weights.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: 9) }
        XCTAssertEqual(filter.outputImage?.extent, CGRect(x: -1, y: -1, width: size + 2, height: size + 2))
        let got = try grid(filter.outputImage)
        // The weight in row i (the top first), column j, weighs the neighbour up 1 - i and across j - 1,
        // so the white pixel shows it at (10 - (j - 1), 10 - (1 - i)).
        for i in 0..<3 {
            for j in 0..<3 {
                XCTAssertEqual(Double(got[9 + i][11 - j].r), Double(weights[3 * i + j]) * 255, accuracy: 1, "weight (\(i), \(j))")
            }
        }
        XCTAssertEqual(got[5][5].r, 0, "far from the pixel, black")
        XCTAssertEqual(got[5][5].a, 255, "weights summing to 1 keep alpha")
    }

    func testTheBiasIsAddedAndTheRGBFormsKeepAlpha() throws {
        let plain = CIFilter.convolution5X5(), rgb = CIFilter.convolutionRGB5X5()
        var half = [CGFloat](repeating: 0, count: 25)
        half[12] = 0.5
        for filter in [plain, rgb] {
            filter.inputImage = dot
            filter.weights = half.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: 25) }
            filter.bias = 0.1
        }
        let (plainGrid, rgbGrid) = (try grid(plain.outputImage), try grid(rgb.outputImage))
        XCTAssertEqual(Double(plainGrid[10][10].r), 0.6 * 255, accuracy: 1, "half the white plus the bias")
        XCTAssertEqual(Double(plainGrid[3][3].r), 0.1 * 255, accuracy: 1, "black plus the bias")
        XCTAssertEqual(Double(plainGrid[3][3].a), 0.6 * 255, accuracy: 1, "alpha halved, and biased too")
        XCTAssertEqual(Double(rgbGrid[10][10].r), 0.6 * 255, accuracy: 1)
        XCTAssertEqual(rgbGrid[3][3].a, 255, "the RGB form leaves alpha alone")
    }

    func testTheRowAndColumnFormsReachOneWayOnly() throws {
        let across = CIFilter.convolution9Horizontal(), down = CIFilter.convolution9Vertical()
        let spread = [CGFloat](repeating: 1.0 / 9, count: 9)
        for filter in [across, down] {
            filter.inputImage = dot
            filter.weights = spread.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: 9) }
        }
        XCTAssertEqual(across.outputImage?.extent, CGRect(x: -4, y: 0, width: size + 8, height: size))
        XCTAssertEqual(down.outputImage?.extent, CGRect(x: 0, y: -4, width: size, height: size + 8))
        let (row, column) = (try grid(across.outputImage), try grid(down.outputImage))
        for offset in -4...4 {
            XCTAssertEqual(Double(row[10][10 + offset].r), 255.0 / 9, accuracy: 1, "across \(offset)")
            XCTAssertEqual(Double(column[10 + offset][10].r), 255.0 / 9, accuracy: 1, "down \(offset)")
        }
        XCTAssertEqual(row[11][10].r, 0, "nothing above")
        XCTAssertEqual(column[10][11].r, 0, "nothing beside")
        XCTAssertEqual(CIFilter.filterNames(inCategory: kCICategoryStylize).count, 28)
    }
}
