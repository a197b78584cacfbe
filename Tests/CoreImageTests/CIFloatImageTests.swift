import CoreGraphics
import CoreImage
import Foundation
import ImageIO
import TestSupport
import XCTest

/// Core Image's images of float pictures: values kept beyond 0-1, rendered in floats, filtered.
final class CIFloatImageTests: XCTestCase {
    /// sRGB's encoding of a linear value, on a 0-255 scale.
    private func encoded(_ linear: Double) -> Double {
        (linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055) * 255
    }

    /// A float image's values, four a pixel.
    private func floats(_ image: CGImage) throws -> [Float] {
        let data = try XCTUnwrap(image.dataProvider?.data) as Data
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self).prefix(image.width * image.height * 4)) }
    }

    /// A float TIFF's image of two pixels, linear (0.214, 0.5, 2.0) and (-0.5, 1, 0), in floats.
    private func floatImage() throws -> CGImage {
        let data = FloatTIFF.encode(width: 2, height: 1, samples: 3, values: [0.214, 0.5, 2.0, -0.5, 1.0, 0.0])
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
        return try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, [kCGImageSourceShouldAllowFloat: true] as CFDictionary))
    }

    func testCoreImageKeepsAFloatImagesValuesBeyondOne() throws {
        let image = try floatImage()
        let ciImage = CIImage(cgImage: image)
        XCTAssertEqual(ciImage.colorSpace?.name, CGColorSpace.extendedSRGB)
        let context = CIContext()
        // Rendered in floats into extended linear sRGB: the file's values back, 2 and -0.5 too.
        let linear = try XCTUnwrap(
            context.createCGImage(ciImage, from: ciImage.extent, format: .RGBAf, colorSpace: CGColorSpace(name: CGColorSpace.extendedLinearSRGB)))
        XCTAssertEqual(linear.bitsPerComponent, 32)
        XCTAssertTrue(linear.bitmapInfo.contains(.floatComponents))
        XCTAssertEqual(linear.colorSpace?.name, CGColorSpace.extendedLinearSRGB)
        let values = try floats(linear)
        for (value, expected) in zip(values, [0.214, 0.5, 2.0, 1, -0.5, 1.0, 0.0, 1] as [Float]) {
            XCTAssertEqual(value, expected, accuracy: 1e-3, "\(values)")
        }
        // In extended sRGB, encoded: 2 is 1.353, -0.5 is -0.735.
        var bitmap = [Float](repeating: 0, count: 8)
        bitmap.withUnsafeMutableBytes {
            context.render(ciImage, toBitmap: $0.baseAddress!, rowBytes: 32, bounds: ciImage.extent, format: .RGBAf, colorSpace: nil)
        }
        XCTAssertEqual(Double(bitmap[2]), encoded(2) / 255, accuracy: 1e-3, "\(bitmap)")
        XCTAssertEqual(Double(bitmap[4]), -encoded(0.5) / 255, accuracy: 1e-3, "\(bitmap)")
        // A filter works on the extended values: halved, 2 is within white again (1.353 / 2 encoded).
        let halved = ciImage.applyingFilter("CIColorMatrix", parameters: ["inputBVector": CIVector(x: 0, y: 0, z: 0.5, w: 0)])
        bitmap.withUnsafeMutableBytes {
            context.render(halved, toBitmap: $0.baseAddress!, rowBytes: 32, bounds: ciImage.extent, format: .RGBAf, colorSpace: nil)
        }
        XCTAssertEqual(Double(bitmap[2]), encoded(2) / 255 / 2, accuracy: 1e-3, "\(bitmap)")
    }

    func testHalfFloatImagesAreMadeDrawnAndReadBack() throws {
        let image = CIImage(cgImage: try floatImage())
        let context = CIContext()
        let half = try XCTUnwrap(
            context.createCGImage(image, from: image.extent, format: .RGBAh, colorSpace: CGColorSpace(name: CGColorSpace.extendedLinearSRGB)))
        XCTAssertEqual(half.bitsPerComponent, 16)
        XCTAssertEqual(half.bitsPerPixel, 64)
        XCTAssertEqual(half.byteOrderInfo, .order16Little)
        XCTAssertTrue(half.bitmapInfo.contains(.floatComponents))
        let data = try XCTUnwrap(half.dataProvider?.data) as Data
        let values = data.withUnsafeBytes { Array($0.bindMemory(to: Float16.self).prefix(8)).map(Float.init) }
        // Half floats hold 2, -0.5 and 0.214 to three figures.
        for (value, expected) in zip(values, [0.214, 0.5, 2.0, 1, -0.5, 1.0, 0.0, 1] as [Float]) {
            XCTAssertEqual(value, expected, accuracy: 2e-3, "\(values)")
        }
        // Drawn into an 8-bit sRGB context: encoded, clamped.
        let bitmap = try XCTUnwrap(
            CGContext(
                data: nil, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 0, space: try XCTUnwrap(CGColorSpace(name: CGColorSpace.sRGB)),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        bitmap.draw(half, in: CGRect(x: 0, y: 0, width: 2, height: 1))
        let drawn = try XCTUnwrap(bitmap.data).assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(Double(drawn[0]), encoded(0.214), accuracy: 1.5)
        XCTAssertEqual(Double(drawn[1]), encoded(0.5), accuracy: 1.5)
        XCTAssertEqual(drawn[2], 255)
        XCTAssertEqual(drawn[4], 0)
        // Read back by Core Image: 2 is still beyond 1.
        let again = CIImage(cgImage: half)
        var floats = [Float](repeating: 0, count: 8)
        floats.withUnsafeMutableBytes {
            context.render(again, toBitmap: $0.baseAddress!, rowBytes: 32, bounds: again.extent, format: .RGBAf, colorSpace: nil)
        }
        XCTAssertEqual(Double(floats[2]), encoded(2) / 255, accuracy: 2e-3, "\(floats)")
    }
}
