import CoreGraphics
import CoreImage
import Foundation
import XCTest

/// The built-in blend kernels, and clamping to a rectangle.
final class CIBlendKernelTests: XCTestCase {
    let context = CIContext()
    let square = CGRect(x: 0, y: 0, width: 4, height: 4)

    private func colour(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> CIImage {
        CIImage(color: CIColor(red: r, green: g, blue: b, alpha: a)).cropped(to: square)
    }

    /// Premultiplied R, G, B, A at (x, y), 0-255.
    private func pixel(_ image: CIImage?, _ x: Int = 1, _ y: Int = 1) throws -> [Int] {
        var bytes = [UInt8](repeating: 0, count: 4)
        context.render(try XCTUnwrap(image), toBitmap: &bytes, rowBytes: 4, bounds: CGRect(x: x, y: y, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        return bytes.map(Int.init)
    }

    func testTheKernelsBlendAsTheirFiltersAndOperatorsDo() throws {
        let (front, back) = (colour(0.8, 0.3, 0.5, 0.75), colour(0.4, 0.6, 0.2, 0.5))
        for (kernel, name) in [
            (CIBlendKernel.multiply, "CIMultiplyBlendMode"), (.screen, "CIScreenBlendMode"), (.softLight, "CISoftLightBlendMode"),
            (.componentAdd, "CIAdditionCompositing"),
        ] {
            let filter = CIFilter(name: name, parameters: [kCIInputImageKey: front, kCIInputBackgroundImageKey: back])
            XCTAssertEqual(try pixel(kernel.apply(foreground: front, background: back)), try pixel(filter?.outputImage), name)
        }
        XCTAssertEqual(try pixel(CIBlendKernel.sourceOver.apply(foreground: front, background: back)), try pixel(front.composited(over: back)))
        XCTAssertEqual(try pixel(CIBlendKernel.destinationOver.apply(foreground: front, background: back)), try pixel(back.composited(over: front)))
    }

    func testTheDestinationOperatorsSwapTheRoles() throws {
        let (front, back) = (colour(1, 0, 0, 0.25), colour(0, 0, 1))
        XCTAssertEqual(
            try pixel(CIBlendKernel.destinationIn.apply(foreground: front, background: back)), [0, 0, 64, 64], "the background where the foreground is")
        XCTAssertEqual(try pixel(CIBlendKernel.destinationOut.apply(foreground: front, background: back)), [0, 0, 191, 191], "where it is not")
        XCTAssertEqual(try pixel(CIBlendKernel.destinationAtop.apply(foreground: front, background: back)), [0, 0, 64, 64], "inside the foreground's shape")
        XCTAssertEqual(
            try pixel(CIBlendKernel.componentMultiply.apply(foreground: colour(1, 0.5, 1, 0.5), background: colour(0.5, 1, 0, 1))), [64, 64, 0, 128])
    }

    func testClampedToARectangleCarriesItsEdgesOn() throws {
        let halves = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
            .composited(over: CIImage(color: CIColor(red: 0, green: 0, blue: 1)).cropped(to: CGRect(x: 4, y: 0, width: 4, height: 4)))
        let clamped = halves.clamped(to: CGRect(x: 2, y: 0, width: 4, height: 4))
        XCTAssertTrue(clamped.extent.isInfinite)
        XCTAssertEqual(try pixel(clamped, -100, 2), [255, 0, 0, 255], "the rectangle's left edge is red")
        XCTAssertEqual(try pixel(clamped, 100, 50), [0, 0, 255, 255], "its right edge blue")
        XCTAssertEqual(try pixel(clamped, 7, 1), [0, 0, 255, 255], "beyond the rectangle, its edge, not the image")
    }
}
