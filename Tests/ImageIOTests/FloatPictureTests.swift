import CoreGraphics
import Foundation
import ImageIO
import TestSupport
import XCTest

/// Pictures of floating-point samples (float TIFFs): in floats with `kCGImageSourceShouldAllowFloat`,
/// in 8-bit sRGB without it, their properties, and their images drawn.
final class FloatPictureTests: XCTestCase {
    /// The image at index 0, with or without floats.
    private func image(_ data: Data, allowFloat: Bool?) throws -> CGImage {
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        let options = allowFloat.map { [kCGImageSourceShouldAllowFloat: $0] as CFDictionary }
        return try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, options))
    }

    /// A float image's values, four a pixel.
    private func floats(_ image: CGImage) throws -> [Float] {
        let data = try XCTUnwrap(image.dataProvider?.data) as Data
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self).prefix(image.width * image.height * 4)) }
    }

    /// An 8-bit image's red, green, blue and alpha at pixel `x` of the top row.
    private func bytes(_ image: CGImage, _ x: Int) throws -> [Int] {
        let data = try XCTUnwrap(image.dataProvider?.data) as Data
        let p = data[(x * 4)..<(x * 4 + 4)].map(Int.init)
        switch (image.byteOrderInfo, image.alphaInfo) {
        case (.order32Little, _): return [p[2], p[1], p[0], p[3]]
        case (_, .premultipliedFirst), (_, .noneSkipFirst): return [p[1], p[2], p[3], p[0]]
        default: return p
        }
    }

    /// A 2 x 2 grey PNG, written by Image I/O.
    private func eightBitPNG() throws -> Data {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try XCTUnwrap(context.makeImage()), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        return data as Data
    }

    /// sRGB's encoding of a linear value, on a 0-255 scale.
    private func encoded(_ linear: Double) -> Double {
        (linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055) * 255
    }

    private func assertClose(_ actual: [Int], _ expected: [Double], within: Double = 1, _ message: String, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, message, line: line)
        for (a, e) in zip(actual, expected) { XCTAssertEqual(Double(a), e, accuracy: within, "\(message): \(actual) against \(expected)", line: line) }
    }

    /// Two pixels: linear (0.214, 0.5, 2.0), beyond white in blue, and (-0.5, 1, 0), below black in red.
    private var rgbValues: [Float] { [0.214, 0.5, 2.0, -0.5, 1.0, 0.0] }

    func testAFloatTIFFIsGivenInFloatsWhenAllowed() throws {
        let data = FloatTIFF.encode(width: 2, height: 1, samples: 3, values: rgbValues)
        let image = try image(data, allowFloat: true)
        XCTAssertEqual(image.bitsPerComponent, 32)
        XCTAssertEqual(image.bitsPerPixel, 128)
        XCTAssertTrue(image.bitmapInfo.contains(.floatComponents))
        XCTAssertEqual(image.alphaInfo, .noneSkipLast)
        XCTAssertEqual(image.colorSpace?.name, CGColorSpace.extendedLinearSRGB)
        // The values as the file holds them, beyond 0-1 too.
        let values = try floats(image)
        for (value, expected) in zip(values, [0.214, 0.5, 2.0, 1, -0.5, 1.0, 0.0, 1] as [Float]) {
            XCTAssertEqual(value, expected, accuracy: 1e-6, "\(values)")
        }
    }

    func testAFloatTIFFIsGivenInEightBitSRGBOtherwise() throws {
        let data = FloatTIFF.encode(width: 2, height: 1, samples: 3, values: rgbValues)
        for allow: Bool? in [nil, false] {
            let image = try image(data, allowFloat: allow)
            XCTAssertEqual(image.bitsPerComponent, 8)
            XCTAssertFalse(image.bitmapInfo.contains(.floatComponents))
            // Encoded with sRGB's curve, clamped to 0-255.
            assertClose(try bytes(image, 0), [encoded(0.214), encoded(0.5), 255, 255], "the first pixel")
            assertClose(try bytes(image, 1), [0, 255, 0, 255], "the second pixel")
        }
    }

    func testAFloatTIFFsAlphaIsOneItsFullValue() throws {
        // Unassociated alpha of a half: premultiplied in the float image, 128 in eight bits (libvips
        // alone reads a float alpha on a 0-255 scale, which made it 0).
        let data = FloatTIFF.encode(width: 1, height: 1, samples: 4, values: [0.5, 0.25, 1.0, 0.5])
        let floating = try image(data, allowFloat: true)
        XCTAssertEqual(floating.alphaInfo, .premultipliedLast)
        let values = try floats(floating)
        for (value, expected) in zip(values, [0.25, 0.125, 0.5, 0.5] as [Float]) { XCTAssertEqual(value, expected, accuracy: 1e-6, "\(values)") }
        let eight = try image(data, allowFloat: false)
        XCTAssertNotEqual(eight.alphaInfo, .none)
        let pixel = try bytes(eight, 0)
        XCTAssertEqual(Double(pixel[3]), 127.5, accuracy: 1, "alpha \(pixel)")
        // Premultiplied: the encoded colours times a half.
        assertClose(Array(pixel.prefix(3)), [encoded(0.5) / 2, encoded(0.25) / 2, 255.0 / 2], "the colours \(pixel)")
    }

    func testAFloatGreyTIFFIsReadAsLinearGreyOnAZeroToOneScale() throws {
        let data = FloatTIFF.encode(width: 1, height: 1, samples: 1, values: [0.25])
        assertClose(try bytes(try image(data, allowFloat: false), 0), [encoded(0.25), encoded(0.25), encoded(0.25), 255], "grey in eight bits")
        let values = try floats(try image(data, allowFloat: true))
        for (value, expected) in zip(values, [0.25, 0.25, 0.25, 1] as [Float]) { XCTAssertEqual(value, expected, accuracy: 1e-6, "\(values)") }
    }

    func testTheDepthAndIsFloatPropertiesSayFloat() throws {
        let data = FloatTIFF.encode(width: 2, height: 1, samples: 3, values: rgbValues)
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
        XCTAssertEqual(properties[kCGImagePropertyDepth as String] as? Int, 32)
        XCTAssertEqual(properties[kCGImagePropertyIsFloat as String] as? Bool, true)
        XCTAssertEqual(properties[kCGImagePropertyPixelWidth as String] as? Int, 2)
        // An 8-bit picture says neither, and is given in 8 bits whatever the option.
        let png = try eightBitPNG()
        let pngSource = try XCTUnwrap(CGImageSourceCreateWithData(png as CFData, nil))
        let pngProperties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(pngSource, 0, nil) as? [String: Any])
        XCTAssertEqual(pngProperties[kCGImagePropertyDepth as String] as? Int, 8)
        XCTAssertNil(pngProperties[kCGImagePropertyIsFloat as String])
        XCTAssertEqual(try image(png, allowFloat: true).bitsPerComponent, 8)
    }

    func testAFloatImageIsDrawnEncodedIntoAnSRGBContextAndAsItIsIntoALinearOne() throws {
        let image = try image(FloatTIFF.encode(width: 2, height: 1, samples: 3, values: rgbValues), allowFloat: true)
        for (name, encodes) in [(CGColorSpace.sRGB, true), (CGColorSpace.linearSRGB, false)] {
            let context = try XCTUnwrap(
                CGContext(
                    data: nil, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 0, space: try XCTUnwrap(CGColorSpace(name: name)),
                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
            context.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 1))
            let drawn = try XCTUnwrap(context.makeImage())
            let first: [Double] = encodes ? [encoded(0.214), encoded(0.5), 255, 255] : [0.214 * 255, 127.5, 255, 255]
            assertClose(try bytes(drawn, 0), first, "the first pixel drawn into \(name)")
            assertClose(try bytes(drawn, 1), [0, 255, 0, 255], "the second pixel drawn into \(name)")
        }
    }

    func testAFloatImageIsWrittenToATIFFInFloatsAndReadBackTheSame() throws {
        for (samples, values) in [(3, rgbValues), (4, [0.5, 0.25, 3.0, 0.5, -0.25, 1.0, 0.0, 1.0] as [Float])] {
            let original = try image(FloatTIFF.encode(width: 2, height: 1, samples: samples, values: values), allowFloat: true)
            let data = NSMutableData()
            let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, "public.tiff" as CFString, 1, nil))
            CGImageDestinationAddImage(destination, original, nil)
            XCTAssertTrue(CGImageDestinationFinalize(destination))
            let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
            let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
            XCTAssertEqual(properties[kCGImagePropertyIsFloat as String] as? Bool, true, "written in floats")
            XCTAssertEqual(properties[kCGImagePropertyHasAlpha as String] as? Bool, samples == 4)
            let again = try image(data as Data, allowFloat: true)
            XCTAssertEqual(again.alphaInfo, original.alphaInfo)
            let (before, after) = (try floats(original), try floats(again))
            for (a, b) in zip(before, after) { XCTAssertEqual(a, b, accuracy: 1e-6, "\(before) against \(after)") }
        }
    }
}
