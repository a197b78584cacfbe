import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// The area average against the mean of the frame's own pixels, summed here.
final class CIReductionFilterTests: XCTestCase {
    let context = CIContext()
    let frame = Pictures.quadrants(width: 64, height: 48)

    /// The mean R, G, B, A of the frame over a rectangle in Core Image's coordinates (y up), pixels
    /// outside the frame counted as transparent.
    private func mean(over rect: CGRect) -> [Double] {
        var sums = [0.0, 0, 0, 0]
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) where x >= 0 && x < 64 && y >= 0 && y < 48 {
                let pixel = Pictures.pixel(frame, x: x, y: 47 - y)
                for (band, value) in [pixel.r, pixel.g, pixel.b, pixel.a].enumerated() { sums[band] += Double(value) }
            }
        }
        return sums.map { $0 / Double(rect.width * rect.height) }
    }

    /// The one pixel of a reduction's output, R, G, B, A on a 0-255 scale.
    private func pixel(_ image: CIImage) -> [Double] {
        var bytes = [UInt8](repeating: 0, count: 4)
        context.render(image, toBitmap: &bytes, rowBytes: 4, bounds: image.extent, format: .RGBA8, colorSpace: nil)
        return bytes.map(Double.init)
    }

    func testTheAverageIsTheMeanOfThePixelsInTheExtent() throws {
        let filter = CIFilter.areaAverage()
        XCTAssertEqual(filter.extent, CGRect(x: 0, y: 0, width: 640, height: 80), "Apple's default extent")
        filter.inputImage = CIImage(cvPixelBuffer: frame)
        for rect in [CGRect(x: 0, y: 0, width: 64, height: 48), CGRect(x: 0, y: 0, width: 48, height: 24), CGRect(x: 10, y: 5, width: 40, height: 30)] {
            filter.extent = rect
            let output = try XCTUnwrap(filter.outputImage)
            XCTAssertEqual(output.extent, CGRect(x: rect.minX, y: rect.minY, width: 1, height: 1), "one pixel at the region's origin")
            let got = pixel(output), want = mean(over: rect)
            for band in 0..<4 { XCTAssertEqual(got[band], want[band], accuracy: 1, "\(rect): \(got) against \(want)") }
        }
        // Half the region outside the frame: transparent there, so every band halves.
        filter.extent = CGRect(x: 32, y: 0, width: 64, height: 48)
        let got = pixel(try XCTUnwrap(filter.outputImage)), want = mean(over: CGRect(x: 32, y: 0, width: 64, height: 48))
        XCTAssertEqual(got[3], 127.5, accuracy: 1)
        for band in 0..<4 { XCTAssertEqual(got[band], want[band], accuracy: 1, "\(got) against \(want)") }
        // A region four times the frame: a quarter of each band. One of a million pixels a side
        // reads only the frame's pixels, and is all but transparent.
        filter.extent = CGRect(x: 0, y: 0, width: 128, height: 96)
        XCTAssertEqual(pixel(try XCTUnwrap(filter.outputImage))[3], 63.75, accuracy: 1)
        filter.extent = CGRect(x: -500_000, y: -500_000, width: 1_000_000, height: 1_000_000)
        XCTAssertEqual(pixel(try XCTUnwrap(filter.outputImage)), [0, 0, 0, 0])
    }

    func testByNameAndAnEmptyOrUnnumberedExtentGivesNothing() throws {
        let byName = try XCTUnwrap(
            CIFilter(
                name: "CIAreaAverage", parameters: [kCIInputImageKey: CIImage(cvPixelBuffer: frame), kCIInputExtentKey: CIVector(x: 0, y: 24, z: 32, w: 24)]))
        XCTAssertEqual(pixel(try XCTUnwrap(byName.outputImage)), [255, 0, 0, 255], "the red quarter")
        byName.setValue(CIVector(x: 0, y: 0, z: 0, w: 10), forKey: kCIInputExtentKey)
        XCTAssertEqual(byName.outputImage?.extent, .null)
        byName.setValue(CIVector(x: 0, y: 0, z: .nan, w: 10), forKey: kCIInputExtentKey)
        XCTAssertEqual(byName.outputImage?.extent, .null)
        XCTAssertEqual(CIFilter.filterNames(inCategory: kCICategoryReduction), ["CIAreaAverage"])
    }
}
