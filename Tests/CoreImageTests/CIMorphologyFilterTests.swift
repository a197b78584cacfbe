import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// The circular morphology filters against a brute-force search of each pixel's disc.
final class CIMorphologyFilterTests: XCTestCase {
    let context = CIContext()
    let side = 24

    /// A picture of scattered values: red a hash of the position, opaque.
    private func scattered() -> (CIImage, [[Int]]) {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, side, side, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = buffer!
        var reds = [[Int]](repeating: [Int](repeating: 0, count: side), count: side)
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for row in 0..<side {
            for x in 0..<side {
                let red = (x * 37 + row * 91 + (x * row) % 13 * 17) % 256
                reds[row][x] = red
                let pixel = base + row * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (0, 0, UInt8(red), 255)
            }
        }
        return (CIImage(cvPixelBuffer: frame), reds)
    }

    /// The output's reds over the picture, top row first.
    private func reds(_ image: CIImage?) throws -> [[Int]] {
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        context.render(
            try XCTUnwrap(image), toBitmap: &pixels, rowBytes: side * 4, bounds: CGRect(x: 0, y: 0, width: side, height: side), format: .RGBA8, colorSpace: nil)
        return (0..<side).map { row in (0..<side).map { Int(pixels[(row * side + $0) * 4]) } }
    }

    /// The largest (or smallest) red within `radius` of each pixel, beyond the picture counted as 0.
    private func bruteForce(_ reds: [[Int]], radius: Double, maximum: Bool) -> [[Int]] {
        let reach = Int(radius)
        return (0..<side).map { row in
            (0..<side).map { x in
                var best = maximum ? Int.min : Int.max
                for dy in -reach...reach {
                    for dx in -reach...reach where Double(dx * dx + dy * dy) <= radius * radius {
                        let (r, c) = (row + dy, x + dx)
                        let value = r >= 0 && r < side && c >= 0 && c < side ? reds[r][c] : 0
                        best = maximum ? max(best, value) : min(best, value)
                    }
                }
                return best
            }
        }
    }

    func testTheMaximumAndMinimumAreOverTheDiscOfTheRadius() throws {
        let (image, reds) = scattered()
        for radius in [1.0, 2.5, 4, 6.2] {
            let maximum = CIFilter.morphologyMaximum()
            XCTAssertEqual(maximum.radius, 0, "Apple's default")
            maximum.inputImage = image
            maximum.radius = Float(radius)
            XCTAssertEqual(try self.reds(maximum.outputImage), bruteForce(reds, radius: radius, maximum: true), "maximum, radius \(radius)")
            let minimum = CIFilter.morphologyMinimum()
            minimum.inputImage = image
            minimum.radius = Float(radius)
            XCTAssertEqual(try self.reds(minimum.outputImage), bruteForce(reds, radius: radius, maximum: false), "minimum, radius \(radius)")
        }
        let grown = CIFilter.morphologyMaximum()
        grown.inputImage = image
        grown.radius = 3
        XCTAssertEqual(grown.outputImage?.extent, image.extent.insetBy(dx: -3, dy: -3), "a maximum spreads beyond the image")
    }

    func testTheGradientIsTheMaximumLessTheMinimum() throws {
        let (image, reds) = scattered()
        let gradient = CIFilter.morphologyGradient()
        XCTAssertEqual(gradient.radius, 5, "Apple's default")
        gradient.inputImage = image
        gradient.radius = 2
        let (largest, smallest) = (bruteForce(reds, radius: 2, maximum: true), bruteForce(reds, radius: 2, maximum: false))
        let want = zip(largest, smallest).map { zip($0, $1).map { $0 - $1 } }
        XCTAssertEqual(try self.reds(gradient.outputImage), want)
    }
}
