import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// Histograms of an area, their display, and the pixels of largest and smallest alpha, against
/// counts made here.
final class CIHistogramFilterTests: XCTestCase {
    let context = CIContext()
    /// A ramp 64 wide: red 4 x, green 4 y (y from the bottom, 0-47), blue 0, opaque.
    let ramp = CIImage(cvPixelBuffer: Pictures.ramp(width: 64, height: 48))

    private func row(_ image: CIImage?, width: Int) throws -> [[Double]] {
        let image = try XCTUnwrap(image)
        var pixels = [UInt8](repeating: 0, count: width * 4)
        context.render(
            image, toBitmap: &pixels, rowBytes: width * 4, bounds: CGRect(x: image.extent.minX, y: image.extent.minY, width: CGFloat(width), height: 1),
            format: .RGBA8, colorSpace: nil)
        return (0..<width).map { x in (0..<4).map { Double(pixels[x * 4 + $0]) } }
    }

    func testTheAreaHistogramCountsEachBandsSharesInEqualBins() throws {
        let filter = CIFilter.areaHistogram()
        XCTAssertEqual(filter.count, 64, "Apple's default")
        filter.inputImage = ramp
        filter.extent = ramp.extent
        filter.count = 8
        filter.scale = 4
        let image = try XCTUnwrap(filter.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 8, height: 1))
        let bins = try row(image, width: 8)
        // Red 4 x for x 0-63: bin floor(4 x / 255 * 8): count the columns of each bin, 48 rows each.
        var reds = [Double](repeating: 0, count: 8)
        for x in 0..<64 { reds[min(7, Int(Double(4 * x) / 255 * 8))] += 48 }
        for bin in 0..<8 {
            XCTAssertEqual(bins[bin][0], min(255, reds[bin] / (64 * 48) * 4 * 255), accuracy: 1.5, "red, bin \(bin)")
        }
        // Every pixel is opaque: all the alpha in the last bin.
        XCTAssertEqual(bins[7][3], 255, "alpha's share, scaled, clipped")
        XCTAssertEqual(bins[0][3], 0)
        // Blue is 0 everywhere: its share is all in the first bin (1 x 4, clipped to 255).
        XCTAssertEqual(bins[0][2], 255)
    }

    func testTheAlphaWeightedHistogramWeighsEachUnpremultipliedColourByItsAlpha() throws {
        // 10 x 10: columns 0-3 opaque red; 4-7 green 0.6 and blue 1 at half alpha; 8-9 transparent.
        func patch(_ color: CIColor, _ x: CGFloat, _ width: CGFloat) -> CIImage {
            CIImage(color: color).cropped(to: CGRect(x: x, y: 0, width: width, height: 10))
        }
        let image = patch(CIColor(red: 1, green: 0, blue: 0), 0, 4)
            .composited(over: patch(CIColor(red: 0, green: 0.6, blue: 1, alpha: 0.5), 4, 4))
            .composited(over: patch(CIColor(red: 0, green: 0, blue: 0, alpha: 0), 0, 10))
        let filter = CIFilter.areaAlphaWeightedHistogram()
        XCTAssertEqual(filter.name, "CIAreaAlphaWeightedHistogram")
        XCTAssertEqual(filter.count, 64, "Apple's default")
        XCTAssertEqual(filter.scale, 1, "Apple's default")
        filter.inputImage = image
        filter.extent = CGRect(x: -50, y: -50, width: 200, height: 200)
        filter.count = 4
        func bins(_ filter: CIFilter) throws -> [[Float]] {
            let output = try XCTUnwrap(filter.outputImage)
            XCTAssertEqual(output.extent, CGRect(x: 0, y: 0, width: 4, height: 1), "at the origin, as Apple's")
            var values = [Float](repeating: -1, count: 16)
            context.render(output, toBitmap: &values, rowBytes: 64, bounds: output.extent, format: .RGBAf, colorSpace: nil)
            return (0..<4).map { Array(values[($0 * 4)..<($0 * 4 + 4)]) }
        }
        // Over the image's 100 pixels (the extent input reaches beyond it): red 1 on 40 opaque
        // pixels (bin 3), red 0 on 40 pixels of half alpha (bin 0: 20), the transparent 20 nothing.
        let expected: [[Float]] = [[0.2, 0.4, 0.4, 1], [0, 0, 0, 1], [0, 0.2, 0, 1], [0.4, 0, 0.2, 1]]
        var found = try bins(filter)
        for bin in 0..<4 {
            for band in 0..<4 { XCTAssertEqual(found[bin][band], expected[bin][band], accuracy: 0.01, "bin \(bin), band \(band)") }
        }
        // The scale multiplies every bin; the extent input limits the area (the red columns only).
        filter.scale = 2
        found = try bins(filter)
        XCTAssertEqual(found[3][0], 0.8, accuracy: 0.01)
        XCTAssertEqual(found[2][1], 0.4, accuracy: 0.01)
        filter.scale = 1
        filter.extent = CGRect(x: 0, y: 0, width: 4, height: 10)
        found = try bins(filter)
        XCTAssertEqual(found[3][0], 1, accuracy: 0.01, "all of the opaque red")
        XCTAssertEqual(found[0][1], 1, accuracy: 0.01)
        XCTAssertEqual(found[2][1], 0, accuracy: 0.01)
        // By name, with Apple's inputs.
        let named = try XCTUnwrap(CIFilter(name: "CIAreaAlphaWeightedHistogram"))
        XCTAssertEqual(Set(named.inputKeys), [kCIInputImageKey, kCIInputExtentKey, kCIInputScaleKey, "inputCount"])
        XCTAssertTrue(CIFilter.filterNames(inCategory: kCICategoryReduction).contains("CIAreaAlphaWeightedHistogram"))
    }

    func testTheLogarithmicHistogramBinsByStops() throws {
        let filter = CIFilter.areaLogarithmicHistogram()
        XCTAssertEqual(filter.minimumStop, -10)
        XCTAssertEqual(filter.maximumStop, 4)
        filter.inputImage = CIImage(color: CIColor(red: 0.25, green: 0.5, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 10, height: 10))
        filter.extent = CGRect(x: 0, y: 0, width: 10, height: 10)
        filter.count = 14
        let bins = try row(filter.outputImage, width: 14)
        // One bin a stop from -10: log2(0.25) = -2 is bin 8, -1 bin 9, 0 bin 10 (all the pixels: 255).
        XCTAssertEqual(bins[8][0], 255, accuracy: 1, "red at a quarter")
        XCTAssertEqual(bins[9][1], 255, accuracy: 1, "green at a half")
        XCTAssertEqual(bins[10][2], 255, accuracy: 1, "blue at one")
        XCTAssertEqual(bins[9][0], 0)
    }

    func testTheHistogramDisplayDrawsBarsAsHighAsEachBin() throws {
        // Two bins: red at 0.5 in the first, green at 1 in the second.
        let histogram = CIImage(color: CIColor(red: 0.5, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1)).composited(
            over: CIImage(color: CIColor(red: 0, green: 1, blue: 0)).cropped(to: CGRect(x: 1, y: 0, width: 1, height: 1)))
        let display = CIFilter.histogramDisplay()
        XCTAssertEqual(display.height, 100)
        display.inputImage = histogram
        display.height = 10
        let image = try XCTUnwrap(display.outputImage)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 2, height: 10))
        XCTAssertEqual(Pictures.value(image, x: 0, y: 2, context: context), [255, 0, 0, 255], "low in the red bar")
        XCTAssertEqual(Pictures.value(image, x: 0, y: 7, context: context), [0, 0, 0, 255], "above the red bar's half")
        XCTAssertEqual(Pictures.value(image, x: 1, y: 9, context: context), [0, 255, 0, 255], "the green bar's full height")
    }

    func testTheAlphaExtremesAreThePixelsOfLargestAndSmallestAlpha() throws {
        // A translucent ramp of alpha: the pixel at column x has alpha 4 x (premultiplied grey of the same value).
        let columns = (0..<8).map { x in
            CIImage(color: CIColor(red: 1, green: 1, blue: 1, alpha: Double(4 * x + 100) / 255)).cropped(to: CGRect(x: x, y: 0, width: 1, height: 4))
        }
        let image = columns.dropFirst().reduce(columns[0]) { $1.composited(over: $0) }
        let maximum = CIFilter.areaMaximumAlpha()
        maximum.inputImage = image
        maximum.extent = CGRect(x: 0, y: 0, width: 8, height: 4)
        XCTAssertEqual(try row(maximum.outputImage, width: 1)[0], [128, 128, 128, 128], "the last column's pixel")
        let minimum = CIFilter.areaMinimumAlpha()
        minimum.inputImage = image
        minimum.extent = CGRect(x: 0, y: 0, width: 8, height: 4)
        XCTAssertEqual(try row(minimum.outputImage, width: 1)[0], [100, 100, 100, 100], "the first column's pixel")
        minimum.extent = CGRect(x: 0, y: 0, width: 9, height: 4)
        XCTAssertEqual(try row(minimum.outputImage, width: 1)[0], [0, 0, 0, 0], "a transparent pixel beyond the image")
    }
}
