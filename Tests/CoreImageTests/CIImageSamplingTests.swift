import CoreGraphics
import CoreImage
import Foundation
import XCTest

/// An image's sampling mode: nearest-neighbour keeps each pixel whole when the image is scaled
/// up; bilinear blends neighbours.
final class CIImageSamplingTests: XCTestCase {
    let context = CIContext()
    /// Red, green / blue, white: 2 x 2, opaque.
    let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]

    private func small() -> CIImage {
        CIImage(bitmapData: Data(colours.flatMap { $0 }), bytesPerRow: 8, size: CGSize(width: 2, height: 2), format: .RGBA8, colorSpace: nil)
    }

    /// The 8 x 8 pixels (rows from the top) of an image scaled by four.
    private func rendered(_ image: CIImage) -> [[UInt8]] {
        var bytes = [UInt8](repeating: 0, count: 8 * 8 * 4)
        context.render(image, toBitmap: &bytes, rowBytes: 32, bounds: CGRect(x: 0, y: 0, width: 8, height: 8), format: .RGBA8, colorSpace: nil)
        return (0..<64).map { Array(bytes[($0 * 4)..<($0 * 4 + 4)]) }
    }

    func testNearestSamplingKeepsEachPixelWholeAndLinearBlendsThem() throws {
        let quadruple = CGAffineTransform(scaleX: 4, y: 4)
        let nearest = rendered(small().samplingNearest().transformed(by: quadruple))
        // Every pixel one of the four colours, each 4 x 4 block one colour.
        for (index, pixel) in nearest.enumerated() {
            XCTAssertTrue(colours.contains(pixel), "pixel \(index): \(pixel)")
            let (x, y) = (index % 8, index / 8)
            XCTAssertEqual(pixel, nearest[(y / 4 * 4) * 8 + x / 4 * 4], "pixel \(x), \(y) as its block's corner")
        }
        XCTAssertEqual(Set(nearest.map { $0 }).count, 4, "all four colours")

        let linear = rendered(small().transformed(by: quadruple))
        XCTAssertTrue(linear.contains { !colours.contains($0) }, "bilinear sampling blends neighbours")
        XCTAssertEqual(rendered(small().samplingNearest().samplingLinear().transformed(by: quadruple)), linear, "linear again")
        // Two scales after the mode are one nearest scale.
        let twice = small().samplingNearest().transformed(by: CGAffineTransform(scaleX: 2, y: 2)).transformed(by: CGAffineTransform(scaleX: 2, y: 2))
        XCTAssertEqual(rendered(twice), nearest)
        XCTAssertEqual(small().samplingNearest().extent, small().extent)
    }

    func testTheNearestSamplingOptionMarksAnImageFromACGImage() throws {
        let picture = try XCTUnwrap(context.createCGImage(small(), from: CGRect(x: 0, y: 0, width: 2, height: 2)))
        let marked = CIImage(cgImage: picture, options: [.nearestSampling: true])
        XCTAssertEqual(
            rendered(marked.transformed(by: CGAffineTransform(scaleX: 4, y: 4))),
            rendered(small().samplingNearest().transformed(by: CGAffineTransform(scaleX: 4, y: 4))))
        let unmarked = CIImage(cgImage: picture, options: [.nearestSampling: false])
        XCTAssertTrue(rendered(unmarked.transformed(by: CGAffineTransform(scaleX: 4, y: 4))).contains { !colours.contains($0) })
    }
}
