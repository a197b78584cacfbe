import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Pixellate, motion blur and luminance sharpening, against what their definitions make of simple
/// pictures, worked out here.
final class CIStylizeFilterTests: XCTestCase {
    let context = CIContext()

    /// R, G, B, A of every pixel of a `width` x `height` area from the origin, by (x, y) from the bottom left, 0-255.
    private func grid(_ image: CIImage?, _ width: Int, _ height: Int) throws -> [[[Int]]] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        context.render(
            try XCTUnwrap(image), toBitmap: &pixels, rowBytes: width * 4, bounds: CGRect(x: 0, y: 0, width: width, height: height), format: .RGBA8,
            colorSpace: nil)
        return (0..<height).map { y in (0..<width).map { x in (0..<4).map { Int(pixels[((height - 1 - y) * width + x) * 4 + $0]) } } }
    }

    func testPixellateAveragesBlocksOnAGridThroughTheCentre() throws {
        // 16 x 8: red on the left half, blue on the right.
        let picture = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 8))
            .composited(over: CIImage(color: CIColor(red: 0, green: 0, blue: 1)).cropped(to: CGRect(x: 8, y: 0, width: 8, height: 8)))
        let filter = CIFilter.pixellate()
        XCTAssertEqual(filter.center, CGPoint(x: 150, y: 150), "Apple's defaults")
        XCTAssertEqual(filter.scale, 8)
        filter.inputImage = picture
        filter.center = .zero
        filter.scale = 4
        XCTAssertEqual(filter.outputImage?.extent, picture.extent)
        XCTAssertEqual(try grid(filter.outputImage, 16, 8), try grid(picture, 16, 8), "blocks that hold one colour each keep it")
        filter.center = CGPoint(x: 2, y: 0)
        let got = try grid(filter.outputImage, 16, 8)
        for y in 0..<8 {
            XCTAssertEqual(got[y][7], [128, 0, 128, 255], "the block from 6 to 10 holds two of each")
            XCTAssertEqual(got[y][4], [255, 0, 0, 255], "the block from 2 to 6 is all red")
            XCTAssertEqual(got[y][0], [128, 0, 0, 128], "the block from -2 to 2 is half outside: half transparent")
        }
    }

    func testMotionBlurSpreadsAPixelAlongItsAngle() throws {
        let dot = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 10, y: 10, width: 1, height: 1))
            .composited(over: CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 21, height: 21)))
        let filter = CIFilter.motionBlur()
        XCTAssertEqual([filter.radius, filter.angle], [20, 0], "Apple's defaults")
        filter.inputImage = dot
        filter.radius = 3
        var got = try grid(filter.outputImage, 21, 21)
        for x in 0..<21 {
            XCTAssertEqual(Double(got[10][x][0]), (7...13).contains(x) ? 255.0 / 7 : 0, accuracy: 1, "across, x \(x)")
            XCTAssertEqual(got[11][x][0], 0, "nothing above")
        }
        filter.angle = .pi / 2
        got = try grid(filter.outputImage, 21, 21)
        for y in 0..<21 { XCTAssertEqual(Double(got[y][10][0]), (7...13).contains(y) ? 255.0 / 7 : 0, accuracy: 1, "up, y \(y)") }
    }

    func testSharpenLuminanceAddsTheLumaDetailToEveryColourAlike() throws {
        // A step from dark red to light blue-green: its luma steps up.
        let (dark, light) = ([0.4, 0.1, 0.2], [0.2, 0.6, 0.5])
        let picture = CIImage(color: CIColor(red: dark[0], green: dark[1], blue: dark[2])).cropped(to: CGRect(x: 0, y: 0, width: 16, height: 4))
            .composited(over: CIImage(color: CIColor(red: light[0], green: light[1], blue: light[2])).cropped(to: CGRect(x: 16, y: 0, width: 16, height: 4)))
        let filter = CIFilter.sharpenLuminance()
        XCTAssertEqual(filter.sharpness, 0.4, accuracy: 1e-6, "Apple's defaults")
        XCTAssertEqual(filter.radius, 1.69, accuracy: 1e-6)
        filter.inputImage = picture
        filter.sharpness = 1
        filter.radius = 1
        let before = try grid(picture, 32, 4)[2], after = try grid(filter.outputImage, 32, 4)[2]
        XCTAssertEqual(after[2], before[2], "flat parts stay")
        XCTAssertEqual(after[29], before[29])
        // At the edge every colour moves by the same amount: down on the dark side, up on the light.
        let darkShift = (0..<3).map { after[15][$0] - before[15][$0] }, lightShift = (0..<3).map { after[16][$0] - before[16][$0] }
        XCTAssertLessThan(darkShift[0], -5)
        XCTAssertGreaterThan(lightShift[0], 5)
        for band in 1..<3 {
            XCTAssertEqual(Double(darkShift[band]), Double(darkShift[0]), accuracy: 1.5, "\(darkShift)")
            XCTAssertEqual(Double(lightShift[band]), Double(lightShift[0]), accuracy: 1.5, "\(lightShift)")
        }
    }
}
