import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// Gamma, clamp, polynomial, the sRGB transfer functions and the tone curve, on a ramp of every
/// 8-bit grey, each against its formula computed here.
final class CIToneCurveFilterTests: XCTestCase {
    let context = CIContext()

    /// An opaque ramp 256 pixels wide: column x is grey x.
    private let ramp: CIImage = {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 256, 2, kCVPixelFormatType_32BGRA, nil, &buffer)
        let frame = buffer!
        CVPixelBufferLockBaseAddress(frame, [])
        let base = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<2 {
            for x in 0..<256 {
                let pixel = base + y * CVPixelBufferGetBytesPerRow(frame) + x * 4
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (UInt8(x), UInt8(x), UInt8(x), 255)
            }
        }
        CVPixelBufferUnlockBaseAddress(frame, [])
        return CIImage(cvPixelBuffer: frame)
    }()

    /// R, G, B, A of each column of a filter's output over the ramp, 0-255.
    private func columns(_ filter: CIFilter) throws -> [[Int]] {
        var pixels = [UInt8](repeating: 0, count: 256 * 4)
        context.render(
            try XCTUnwrap(filter.outputImage), toBitmap: &pixels, rowBytes: 256 * 4, bounds: CGRect(x: 0, y: 0, width: 256, height: 1), format: .RGBA8,
            colorSpace: nil)
        return (0..<256).map { x in (0..<4).map { Int(pixels[x * 4 + $0]) } }
    }

    /// Asserts that every column's band is `curve` of the column's grey, within one step.
    private func assertCurve(_ got: [[Int]], band: Int, _ curve: (Double) -> Double, _ what: String, line: UInt = #line) {
        for x in 0..<256 {
            let want = min(255, max(0, curve(Double(x) / 255) * 255))
            XCTAssertEqual(Double(got[x][band]), want, accuracy: 1.01, "\(what), grey \(x)", line: line)
        }
    }

    func testGammaRaisesEachColourToThePower() throws {
        let filter = CIFilter.gammaAdjust()
        XCTAssertEqual(filter.power, 1, "Apple's default")
        filter.inputImage = ramp
        filter.power = 2.2
        let got = try columns(filter)
        for band in 0..<3 { assertCurve(got, band: band, { pow($0, 2.2) }, "gamma 2.2") }
        assertCurve(got, band: 3, { _ in 1 }, "alpha is kept")
    }

    func testColorClampHoldsEachBandAndAlphaBetweenItsBounds() throws {
        let filter = CIFilter.colorClamp()
        XCTAssertEqual(filter.minComponents, CIVector(x: 0, y: 0, z: 0, w: 0))
        XCTAssertEqual(filter.maxComponents, CIVector(x: 1, y: 1, z: 1, w: 1))
        filter.inputImage = ramp
        filter.minComponents = CIVector(x: 0.2, y: 0.1, z: 0, w: 0)
        filter.maxComponents = CIVector(x: 0.6, y: 1, z: 0.3, w: 0.5)
        let got = try columns(filter)
        // Alpha held at a half: the colours, premultiplied, are halved too.
        assertCurve(got, band: 0, { min(0.6, max(0.2, $0)) * 0.5 }, "red")
        assertCurve(got, band: 1, { max(0.1, $0) * 0.5 }, "green")
        assertCurve(got, band: 2, { min(0.3, $0) * 0.5 }, "blue")
        assertCurve(got, band: 3, { _ in 0.5 }, "alpha")
    }

    func testColorPolynomialEvaluatesEachBandsCubic() throws {
        let filter = CIFilter.colorPolynomial()
        XCTAssertEqual(filter.redCoefficients, CIVector(x: 0, y: 1, z: 0, w: 0), "Apple's default: the identity")
        filter.inputImage = ramp
        filter.redCoefficients = CIVector(x: 0, y: 0, z: 1, w: 0)
        filter.greenCoefficients = CIVector(x: 0.1, y: 0.3, z: 0, w: 0.5)
        filter.blueCoefficients = CIVector(x: 1, y: -1, z: 0, w: 0)
        let got = try columns(filter)
        assertCurve(got, band: 0, { $0 * $0 }, "red, c²")
        assertCurve(got, band: 1, { 0.1 + 0.3 * $0 + 0.5 * $0 * $0 * $0 }, "green, a cubic")
        assertCurve(got, band: 2, { 1 - $0 }, "blue, 1 - c")
    }

    func testTheSRGBTransferFunctionsFollowTheStandard() throws {
        let toSRGB = CIFilter.linearToSRGBToneCurve()
        toSRGB.inputImage = ramp
        assertCurve(try columns(toSRGB), band: 1, { $0 <= 0.003_130_8 ? 12.92 * $0 : 1.055 * pow($0, 1 / 2.4) - 0.055 }, "linear to sRGB")
        let toLinear = CIFilter.sRGBToneCurveToLinear()
        toLinear.inputImage = ramp
        assertCurve(try columns(toLinear), band: 1, { $0 <= 0.040_45 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }, "sRGB to linear")
        XCTAssertEqual(try columns(toLinear)[188][1], 128, "sRGB's 188 is about half the light")
    }

    func testTheToneCurvePassesThroughItsPointsAndIsFlatBeyondThem() throws {
        let filter = CIFilter.toneCurve()
        XCTAssertEqual([filter.point0, filter.point2, filter.point4], [.zero, CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 1)], "Apple's defaults")
        filter.inputImage = ramp
        assertCurve(try columns(filter), band: 0, { $0 }, "the default is the diagonal")
        // An S curve: darker shadows, lighter highlights, rising all the way.
        (filter.point0, filter.point1, filter.point2, filter.point3, filter.point4) = (
            CGPoint(x: 0.2, y: 0.1), CGPoint(x: 0.35, y: 0.2), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 0.65, y: 0.8), CGPoint(x: 0.8, y: 0.9)
        )
        let got = try columns(filter).map { $0[0] }
        for (x, y) in [(0.2, 0.1), (0.35, 0.2), (0.5, 0.5), (0.65, 0.8), (0.8, 0.9)] {
            XCTAssertEqual(Double(got[Int((x * 255).rounded())]), y * 255, accuracy: 2, "through (\(x), \(y))")
        }
        XCTAssertEqual(got[0], got[40], "flat below the first point")
        XCTAssertEqual(got[255], got[215], "flat above the last")
        for x in 51..<204 { XCTAssertLessThanOrEqual(got[x], got[x + 1], "rising at \(x)") }
    }

    func testTransparentPixelsStayTransparent() throws {
        let filter = CIFilter.colorPolynomial()
        filter.inputImage = CIImage(color: CIColor(red: 0, green: 0, blue: 0, alpha: 0)).cropped(to: CGRect(x: 0, y: 0, width: 256, height: 1))
        filter.redCoefficients = CIVector(x: 1, y: 0, z: 0, w: 0)
        XCTAssertEqual(try columns(filter)[7], [0, 0, 0, 0], "a colour where alpha is nothing is nothing")
    }
}
