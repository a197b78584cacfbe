import CoreGraphics
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import XCTest

/// Render tasks into pixel buffers and bitmaps: placement, flipping, alpha modes, blending with
/// what is there, clearing, and the errors a bad destination gives.
final class CIRenderDestinationTests: XCTestCase {
    let context = CIContext()
    let quadrants = CIImage(cvPixelBuffer: Pictures.quadrants(width: 16, height: 16))

    private func buffer() -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &buffer)
        return buffer!
    }

    func testAnImageIsRenderedIntoAPixelBufferAsItIsSeen() throws {
        let frame = buffer()
        let destination = CIRenderDestination(pixelBuffer: frame)
        XCTAssertEqual(destination.width, 16)
        XCTAssertEqual(destination.alphaMode, .premultiplied)
        let info = try context.startTask(toRender: quadrants, to: destination).waitUntilCompleted()
        XCTAssertEqual(info.pixelsProcessed, 256)
        XCTAssertEqual(info.passCount, 1)
        XCTAssertGreaterThanOrEqual(info.kernelExecutionTime, 0)
        XCTAssertEqual(Pictures.pixel(frame, x: 2, y: 2), .red, "the top-left quarter at the top left")
        XCTAssertEqual(Pictures.pixel(frame, x: 13, y: 13), .white)
        // Flipped: the destination's first row is the image's bottom row.
        destination.isFlipped = true
        _ = try context.startTask(toRender: quadrants, to: destination).waitUntilCompleted()
        XCTAssertEqual(Pictures.pixel(frame, x: 2, y: 2), .blue, "the image upside down")
    }

    func testAPartOfAnImageGoesToAPointAndClearingEmptiesIt() throws {
        let frame = buffer()
        let destination = CIRenderDestination(pixelBuffer: frame)
        _ = try context.startTask(toClear: destination).waitUntilCompleted()
        XCTAssertEqual(Pictures.pixel(frame, x: 8, y: 8), .clear)
        // The image's top-right quarter (green) drawn with its corner at (0, 0): the bottom-left quarter of the destination.
        _ = try context.startTask(toRender: quadrants, from: CGRect(x: 8, y: 8, width: 8, height: 8), to: destination, at: .zero).waitUntilCompleted()
        XCTAssertEqual(Pictures.pixel(frame, x: 3, y: 12), .green)
        XCTAssertEqual(Pictures.pixel(frame, x: 3, y: 3), .clear, "nothing drawn above it")
        destination.alphaMode = .none
        _ = try context.startTask(toClear: destination).waitUntilCompleted()
        XCTAssertEqual(Pictures.pixel(frame, x: 3, y: 3), Pictures.RGBA(r: 0, g: 0, b: 0, a: 255), "an opaque destination clears to black")
    }

    func testABlendKernelBlendsWithTheDestinationsContents() throws {
        let frame = buffer()
        let destination = CIRenderDestination(pixelBuffer: frame)
        _ = try context.startTask(toRender: quadrants, to: destination).waitUntilCompleted()
        destination.blendKernel = .multiply
        let tint = CIImage(color: CIColor(red: 0.5, green: 1, blue: 1))
        _ = try context.startTask(toRender: tint, to: destination).waitUntilCompleted()
        XCTAssertTrue(Pictures.pixel(frame, x: 13, y: 13).isClose(to: Pictures.RGBA(r: 128, g: 255, b: 255, a: 255), tolerance: 1), "white multiplied")
        XCTAssertTrue(Pictures.pixel(frame, x: 2, y: 2).isClose(to: Pictures.RGBA(r: 128, g: 0, b: 0, a: 255), tolerance: 1), "red multiplied")
    }

    func testBitmapsInEachFormatAndUnpremultipliedAlpha() throws {
        var bytes = [UInt8](repeating: 0, count: 4 * 4 * 4)
        let translucent = CIImage(color: CIColor(red: 1, green: 0.5, blue: 0, alpha: 0.5))
        try bytes.withUnsafeMutableBytes { raw in
            let destination = CIRenderDestination(bitmapData: raw.baseAddress!, width: 4, height: 4, bytesPerRow: 16, format: .RGBA8)
            _ = try context.startTask(toRender: translucent, to: destination).waitUntilCompleted()
            XCTAssertEqual(Array(raw[0..<4]), [128, 64, 0, 128], "premultiplied RGBA")
            destination.alphaMode = .unpremultiplied
            _ = try context.startTask(toRender: translucent, to: destination).waitUntilCompleted()
            XCTAssertEqual(Array(raw[0..<4]), [255, 128, 0, 128], "unpremultiplied RGBA")
            let argb = CIRenderDestination(bitmapData: raw.baseAddress!, width: 4, height: 4, bytesPerRow: 16, format: .ARGB8)
            _ = try context.startTask(toRender: translucent, to: argb).waitUntilCompleted()
            XCTAssertEqual(Array(raw[0..<4]), [128, 128, 64, 0], "premultiplied ARGB")
            let luminance = CIRenderDestination(bitmapData: raw.baseAddress!, width: 4, height: 4, bytesPerRow: 16, format: .L8)
            XCTAssertThrowsError(try context.startTask(toRender: translucent, to: luminance), "no one-component bitmaps here")
            let shortFloats = CIRenderDestination(bitmapData: raw.baseAddress!, width: 4, height: 4, bytesPerRow: 16, format: .RGBAf)
            XCTAssertThrowsError(try context.startTask(toRender: translucent, to: shortFloats), "rows too short for 16 bytes a pixel")
            let narrow = CIRenderDestination(bitmapData: raw.baseAddress!, width: 4, height: 4, bytesPerRow: 8, format: .RGBA8)
            XCTAssertThrowsError(try context.startTask(toRender: translucent, to: narrow), "rows too short")
        }
    }

    func testAnImageFromBitmapDataReadsEachFormat() throws {
        // One red pixel and one translucent blue, as RGBA, then as ARGB.
        let rgba = Data([255, 0, 0, 255, 0, 0, 128, 128])
        let image = CIImage(bitmapData: rgba, bytesPerRow: 8, size: CGSize(width: 2, height: 1), format: .RGBA8, colorSpace: nil)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 2, height: 1))
        XCTAssertEqual(Pictures.value(image, x: 0, y: 0, context: context), [255, 0, 0, 255])
        XCTAssertEqual(Pictures.value(image, x: 1, y: 0, context: context), [0, 0, 128, 128])
        let argb = CIImage(bitmapData: Data([255, 255, 0, 0]), bytesPerRow: 4, size: CGSize(width: 1, height: 1), format: .ARGB8, colorSpace: nil)
        XCTAssertEqual(Pictures.value(argb, x: 0, y: 0, context: context), [255, 0, 0, 255])
        XCTAssertEqual(
            CIImage(bitmapData: Data([1, 2, 3]), bytesPerRow: 4, size: CGSize(width: 1, height: 1), format: .RGBA8, colorSpace: nil).extent, .null,
            "too little data")
    }
}

/// Alpha changes on images: premultiplying, unpremultiplying and setting alpha to one.
final class CIImageAlphaTests: XCTestCase {
    let context = CIContext()

    func testPremultiplyingUnpremultiplyingAndSettingAlphaOne() throws {
        // Bytes 200, 100, 0 at alpha 128, taken as they are (premultiplied).
        let image = CIImage(bitmapData: Data([200, 100, 0, 128]), bytesPerRow: 4, size: CGSize(width: 1, height: 1), format: .RGBA8, colorSpace: nil)
        XCTAssertEqual(Pictures.value(image.premultiplyingAlpha(), x: 0, y: 0, context: context), [100, 50, 0, 128], "times 128/255")
        XCTAssertEqual(Pictures.value(image.unpremultiplyingAlpha(), x: 0, y: 0, context: context), [255, 199, 0, 128], "over 128/255, clipped")
        let opaque = image.settingAlphaOne(in: CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(Pictures.value(opaque, x: 0, y: 0, context: context), [200, 100, 0, 255])
        XCTAssertEqual(image.settingAlphaOne(in: CGRect(x: 5, y: 5, width: 1, height: 1)).extent, .null, "nothing outside the rectangle")
        XCTAssertTrue(image.insertingIntermediate() === image)
        context.clearCaches()
        context.reclaimResources()
        XCTAssertEqual(Pictures.value(image, x: 0, y: 0, context: context), [200, 100, 0, 128], "the context renders after letting its buffer go")
    }
}
