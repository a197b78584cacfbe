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
        XCTAssertEqual(
            Set(CIFilter.filterNames(inCategory: kCICategoryReduction)),
            [
                "CIAreaAverage", "CIAreaMaximum", "CIAreaMinimum", "CIAreaMinMax", "CIAreaMinMaxRed", "CIRowAverage", "CIColumnAverage", "CIAreaHistogram",
                "CIAreaLogarithmicHistogram", "CIHistogramDisplayFilter", "CIAreaMaximumAlpha", "CIAreaMinimumAlpha", "CIKMeans", "CIAreaBoundsRed",
                "CIAreaAlphaWeightedHistogram",
            ])
    }

    /// A ramp: red 4 x, green 4 y (from the bottom), blue 0, opaque.
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func reduced(_ filter: CIFilter & CIAreaReductionFilter, _ rect: CGRect) throws -> CIImage {
        filter.inputImage = ramp
        filter.extent = rect
        return try XCTUnwrap(filter.outputImage)
    }

    func testTheExtremesAreTheLargestAndSmallestOfEachBandInTheExtent() throws {
        let rect = CGRect(x: 10, y: 5, width: 20, height: 10)
        // Red runs 4 x over x 10-29, green 4 y over y 5-14.
        let maximum = try reduced(CIFilter.areaMaximum(), rect), minimum = try reduced(CIFilter.areaMinimum(), rect)
        XCTAssertEqual(maximum.extent, CGRect(x: 10, y: 5, width: 1, height: 1))
        XCTAssertEqual(pixel(maximum), [116, 56, 0, 255])
        XCTAssertEqual(pixel(minimum), [40, 20, 0, 255])
        let both = try reduced(CIFilter.areaMinMax(), rect)
        XCTAssertEqual(both.extent, CGRect(x: 10, y: 5, width: 2, height: 1), "two pixels: the smallest, then the largest")
        XCTAssertEqual(Pictures.value(both, x: 10, y: 5, context: context), [40, 20, 0, 255])
        XCTAssertEqual(Pictures.value(both, x: 11, y: 5, context: context), [116, 56, 0, 255])
        let red = try reduced(CIFilter.areaMinMaxRed(), rect)
        XCTAssertEqual(Array(pixel(red)[0..<2]), [40, 116], "red's smallest in red, its largest in green")
        // Beyond the frame the image is transparent: the smallest of every band is 0 there.
        XCTAssertEqual(pixel(try reduced(CIFilter.areaMinimum(), CGRect(x: 50, y: 10, width: 30, height: 5))), [0, 0, 0, 0])
        XCTAssertEqual(pixel(try reduced(CIFilter.areaMaximum(), CGRect(x: 50, y: 10, width: 30, height: 5))), [252, 56, 0, 255])
    }

    func testRowAndColumnAveragesAreEachLinesMean() throws {
        let rows = try reduced(CIFilter.rowAverage(), CGRect(x: 0, y: 2, width: 64, height: 4))
        XCTAssertEqual(rows.extent, CGRect(x: 0, y: 2, width: 1, height: 4), "a pixel a row")
        for y in 2..<6 {
            let got = Pictures.value(rows, x: 0, y: y, context: context)
            XCTAssertEqual(got[0], 126, accuracy: 1, "red's mean over a row: 4 x 31.5")
            XCTAssertEqual(got[1], Double(4 * y), accuracy: 0.5, "the row's own green")
        }
        let columns = try reduced(CIFilter.columnAverage(), CGRect(x: 3, y: 0, width: 8, height: 48))
        XCTAssertEqual(columns.extent, CGRect(x: 3, y: 0, width: 8, height: 1), "a pixel a column")
        for x in 3..<11 {
            let got = Pictures.value(columns, x: x, y: 0, context: context)
            XCTAssertEqual(got[0], Double(4 * x), accuracy: 0.5, "the column's own red")
            XCTAssertEqual(got[1], 94, accuracy: 1, "green's mean over a column: 4 x 23.5")
        }
        // Rows half outside the frame: the mean over the whole row, transparent beyond the frame.
        let half = try reduced(CIFilter.rowAverage(), CGRect(x: 32, y: 0, width: 64, height: 2))
        let got = Pictures.value(half, x: 32, y: 1, context: context)
        XCTAssertEqual(got[0], 95, accuracy: 1, "4 x 47.5, halved")
        XCTAssertEqual(got[3], 127.5, accuracy: 1)
    }

    func testAReductionOverAHugeRegionOfAnEndlessImageFailsRatherThanReadingIt() throws {
        let filter = CIFilter.areaMaximum()
        filter.inputImage = CIImage(color: CIColor(red: 1, green: 0, blue: 0))
        filter.extent = CGRect(x: 0, y: 0, width: 1_000_000, height: 1_000_000)
        var bytes = [UInt8](repeating: 9, count: 4)
        context.render(
            try XCTUnwrap(filter.outputImage), toBitmap: &bytes, rowBytes: 4, bounds: CGRect(x: 0, y: 0, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        XCTAssertNotNil(CIContext.lastRenderingProblem, "a clear error")
        filter.extent = CGRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(pixel(try XCTUnwrap(filter.outputImage)), [255, 0, 0, 255], "a region it can read")
    }
}
