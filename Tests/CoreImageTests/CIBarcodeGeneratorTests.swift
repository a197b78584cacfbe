import AVFoundation
import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import Foundation
import XCTest

/// The Aztec, PDF417 and Code 128 generators, each code read back by the metadata output's reader.
final class CIBarcodeGeneratorTests: XCTestCase {
    let context = CIContext()

    /// The codes read from an image scaled up as apps show it, on white.
    private func read(_ code: CIImage, _ types: [AVMetadataObject.ObjectType], scale: CGFloat = 4) throws -> [String] {
        let transform = CGAffineTransform(scaleX: scale, y: scale)
        let shown = code.transformed(by: transform).composited(over: CIImage(color: .white)).cropped(
            to: code.extent.applying(transform).insetBy(dx: -24, dy: -24))
        let png = try XCTUnwrap(context.pngRepresentation(of: shown, format: .RGBA8, colorSpace: CGColorSpaceCreateDeviceRGB()))
        return try AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: png, types: types).compactMap(\.stringValue)
    }

    func testAnAztecCodeReadsBackAndGrowsWithItsCorrectionAndLayers() throws {
        let generator = CIFilter.aztecCodeGenerator()
        XCTAssertEqual(generator.correctionLevel, 23, "Apple's default")
        XCTAssertNil(generator.outputImage, "no message, no code")
        generator.message = Data("LinuxAVFoundation 1234".utf8)
        let code = try XCTUnwrap(generator.outputImage)
        XCTAssertEqual(code.extent.width, code.extent.height, "square")
        XCTAssertEqual(try read(code, [.aztec]), ["LinuxAVFoundation 1234"])
        generator.correctionLevel = 80
        XCTAssertGreaterThan(try XCTUnwrap(generator.outputImage).extent.width, code.extent.width, "more correction, more modules")
        generator.correctionLevel = 23
        generator.layers = 10
        let ten = try XCTUnwrap(generator.outputImage)
        // A full Aztec symbol of L layers is 15 + 4 L modules (and a reference grid line every 16), plus the white module around.
        XCTAssertEqual(Int(ten.extent.width), 15 + 4 * 10 + 2 + 2, "\(ten.extent)")
        XCTAssertEqual(try read(ten, [.aztec]), ["LinuxAVFoundation 1234"])
        generator.compactStyle = 1
        generator.layers = 9
        XCTAssertNil(generator.outputImage, "a compact symbol has at most four layers")
    }

    func testAPDF417CodeReadsBackWithItsColumnsAndRows() throws {
        let generator = CIFilter.pdf417BarcodeGenerator()
        generator.message = Data("PDF417 from Core Image".utf8)
        let code = try XCTUnwrap(generator.outputImage)
        XCTAssertEqual(try read(code, [.pdf417]), ["PDF417 from Core Image"])
        generator.dataColumns = 2
        let narrow = try XCTUnwrap(generator.outputImage)
        generator.dataColumns = 6
        let wide = try XCTUnwrap(generator.outputImage)
        // Each data column is 17 modules: four more columns, 68 more modules across, and fewer rows.
        XCTAssertEqual(wide.extent.width - narrow.extent.width, 68)
        XCTAssertLessThan(wide.extent.height, narrow.extent.height)
        XCTAssertEqual(try read(wide, [.pdf417]), ["PDF417 from Core Image"])
        generator.dataColumns = 31
        XCTAssertNil(generator.outputImage, "at most 30 data columns")
    }

    func testACode128BarcodeHasItsQuietSpaceAndHeightAndReadsBack() throws {
        let generator = CIFilter.code128BarcodeGenerator()
        XCTAssertEqual(generator.quietSpace, 7)
        XCTAssertEqual(generator.barcodeHeight, 32)
        generator.message = Data("AVF-128".utf8)
        let code = try XCTUnwrap(generator.outputImage)
        XCTAssertEqual(code.extent.height, 32 + 2 * 7)
        let picture = try XCTUnwrap(context.createCGImage(code, from: code.extent))
        XCTAssertEqual(Pictures.pixel(picture, x: 6, y: 20), .white, "the quiet space")
        XCTAssertEqual(Pictures.pixel(picture, x: 7, y: 20), Pictures.RGBA(r: 0, g: 0, b: 0, a: 255), "the start character's first bar")
        XCTAssertEqual(Pictures.pixel(picture, x: 7, y: 6), .white, "above the bars")
        XCTAssertEqual(try read(code, [.code128], scale: 3), ["AVF-128"])
        generator.quietSpace = 0
        generator.barcodeHeight = 10
        XCTAssertEqual(try XCTUnwrap(generator.outputImage).extent.size, CGSize(width: code.extent.width - 14, height: 10))
        generator.message = Data([0xC3, 0xA9])
        XCTAssertNil(generator.outputImage, "Code 128 holds ASCII only")
    }
}
