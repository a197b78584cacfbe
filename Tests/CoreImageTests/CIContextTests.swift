import CoreGraphics
import CoreImage
import CoreVideo
import ImageIO
import XCTest

/// Rendering into what apps render into: pixel buffers in camera formats, caller memory in
/// Apple's byte orders, and files that appear only when complete.
final class CIContextTests: XCTestCase {
    typealias RGBA = Pictures.RGBA
    let context = CIContext()

    func testRenderingIntoPixelBuffersOfBGRAAndCameraFormats() throws {
        let image = CIImage(cvPixelBuffer: Pictures.quadrants()).applyingFilter("CIColorInvert")
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &buffer)
        let bgra = try XCTUnwrap(buffer)
        context.render(image, to: bgra)
        XCTAssertEqual(Pictures.pixel(bgra, x: 5, y: 5), RGBA(r: 0, g: 255, b: 255, a: 255), "red inverted: cyan, at the top left")
        XCTAssertEqual(Pictures.pixel(bgra, x: 60, y: 40), RGBA(r: 0, g: 0, b: 0, a: 255), "white inverted")
        // A smaller buffer takes the image's region from the origin: the bottom-left quarter.
        CVPixelBufferCreate(nil, 32, 24, kCVPixelFormatType_32BGRA, nil, &buffer)
        let quarter = try XCTUnwrap(buffer)
        context.render(image, to: quarter)
        XCTAssertEqual(Pictures.pixel(quarter, x: 16, y: 12), RGBA(r: 255, g: 255, b: 0, a: 255), "blue inverted: yellow")
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &buffer)
        let yuv = try XCTUnwrap(buffer)
        context.render(image, to: yuv)
        let back = try XCTUnwrap(Pictures.render(CIImage(cvPixelBuffer: yuv)))
        XCTAssertTrue(Pictures.pixel(back, x: 5, y: 5).isClose(to: RGBA(r: 0, g: 255, b: 255, a: 255), tolerance: 6), "\(Pictures.pixel(back, x: 5, y: 5))")
    }

    func testRenderingIntoAGreyPixelBufferGivesEachColoursLuma() throws {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 8, 4, kCVPixelFormatType_OneComponent8, nil, &made)
        let grey = try XCTUnwrap(made)
        // Red on the left half, blue on the right: full-range BT.601 luma, 0.299 and 0.114 of 255.
        let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let blue = CIImage(color: CIColor(red: 0, green: 0, blue: 1)).cropped(to: CGRect(x: 4, y: 0, width: 4, height: 4))
        context.render(blue.composited(over: red), to: grey)
        CVPixelBufferLockBaseAddress(grey, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(grey, .readOnly) }
        let row = try XCTUnwrap(CVPixelBufferGetBaseAddress(grey)).assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(Double(row[1]), 0.299 * 255, accuracy: 2)
        XCTAssertEqual(Double(row[6]), 0.114 * 255, accuracy: 2)
    }

    func testBitmapsAndCGImagesInApplesByteOrders() throws {
        let image = CIImage(cvPixelBuffer: Pictures.solid(RGBA(r: 10, g: 20, b: 30, a: 255)))
        var bytes = [UInt8](repeating: 0, count: 4 * 4 * 4)
        bytes.withUnsafeMutableBytes {
            context.render(image, toBitmap: $0.baseAddress!, rowBytes: 16, bounds: CGRect(x: 0, y: 0, width: 4, height: 4), format: .RGBA8, colorSpace: nil)
        }
        XCTAssertEqual(Array(bytes[0..<4]), [10, 20, 30, 255], "RGBA8: red first")
        bytes.withUnsafeMutableBytes {
            context.render(image, toBitmap: $0.baseAddress!, rowBytes: 16, bounds: CGRect(x: 0, y: 0, width: 4, height: 4), format: .ARGB8, colorSpace: nil)
        }
        XCTAssertEqual(Array(bytes[0..<4]), [255, 10, 20, 30], "ARGB8: alpha first")
        for format in [CIFormat.BGRA8, .RGBA8, .ARGB8] {
            let picture = try XCTUnwrap(context.createCGImage(image, from: image.extent, format: format, colorSpace: nil))
            XCTAssertEqual(Pictures.pixel(picture, x: 1, y: 1), RGBA(r: 10, g: 20, b: 30, a: 255), "\(format)")
        }
        XCTAssertNil(context.createCGImage(image, from: image.extent, format: .A8, colorSpace: nil), "a format not rendered into")
        // Floats: premultiplied R, G, B, A, 1 the full value.
        let floats = try XCTUnwrap(context.createCGImage(image, from: image.extent, format: .RGBAf, colorSpace: nil))
        let values = try XCTUnwrap(floats.dataProvider?.data) as Data
        let pixel = values.withUnsafeBytes { Array($0.bindMemory(to: Float.self)[(4 + 1) * 4..<(4 + 1) * 4 + 4]) }
        for (value, expected) in zip(pixel, [10, 20, 30, 255] as [Float]) { XCTAssertEqual(value, expected / 255, accuracy: 1e-4, "RGBAf \(pixel)") }
        XCTAssertEqual(floats.colorSpace?.name, CGColorSpace.extendedSRGB)
        XCTAssertNil(context.createCGImage(image, from: .null))
    }

    func testFilesAreWrittenWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("CIContextTests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = CIImage(cvPixelBuffer: Pictures.quadrants())
        let space = CGColorSpaceCreateDeviceRGB()
        let jpeg = folder.appendingPathComponent("frame.jpg"), png = folder.appendingPathComponent("frame.png"),
            heic = folder.appendingPathComponent("frame.heic"), tiff = folder.appendingPathComponent("frame.tif")
        try context.writeJPEGRepresentation(of: image, to: jpeg, colorSpace: space)
        try context.writePNGRepresentation(of: image, to: png, format: .RGBA8, colorSpace: space)
        try context.writeHEIFRepresentation(of: image, to: heic, format: .RGBA8, colorSpace: space)
        try context.writeTIFFRepresentation(of: image, to: tiff, format: .RGBA8, colorSpace: space)
        XCTAssertEqual(try Data(contentsOf: tiff).prefix(4), Data([0x49, 0x49, 0x2A, 0x00]), "a little-endian TIFF")
        for url in [jpeg, png, heic, tiff] {
            let decoded = try XCTUnwrap(CIImage(contentsOf: url), url.lastPathComponent)
            XCTAssertEqual(decoded.extent, CGRect(x: 0, y: 0, width: 64, height: 48), url.lastPathComponent)
            let picture = try XCTUnwrap(Pictures.render(decoded))
            XCTAssertTrue(
                Pictures.pixel(picture, x: 8, y: 8).isClose(to: .red, tolerance: 40), "\(url.lastPathComponent): \(Pictures.pixel(picture, x: 8, y: 8))")
        }
        let infinite = CIImage(color: .red)
        let nowhere = folder.appendingPathComponent("infinite.jpg")
        XCTAssertThrowsError(try context.writeJPEGRepresentation(of: infinite, to: nowhere, colorSpace: space))
        XCTAssertFalse(FileManager.default.fileExists(atPath: nowhere.path), "nothing is left behind")
        XCTAssertThrowsError(try context.writeJPEGRepresentation(of: image, to: URL(fileURLWithPath: "/nonexistent/dir/frame.jpg"), colorSpace: space))
    }
}

/// Values no picture has: refused with a reason, never a crash.
final class HostileValuesTests: XCTestCase {
    func testHugeNaNAndInfiniteValuesAreRefusedWithAReason() throws {
        let context = CIContext()
        let image = CIImage(cvPixelBuffer: Pictures.solid(.red))
        XCTAssertNil(context.createCGImage(image, from: CGRect(x: 0, y: 0, width: 1e30, height: 1e30)))
        XCTAssertTrue(CIContext.lastRenderingProblem?.contains("16384") == true, String(describing: CIContext.lastRenderingProblem))
        XCTAssertNil(context.createCGImage(image, from: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)))
        XCTAssertNil(context.createCGImage(image, from: .infinite))
        let blurred = image.applyingGaussianBlur(sigma: 1e12)
        XCTAssertNil(context.createCGImage(blurred, from: CGRect(x: 0, y: 0, width: 8, height: 8)), "a blur reaching further than any picture")
        XCTAssertTrue(CIContext.lastRenderingProblem?.contains("too large") == true, String(describing: CIContext.lastRenderingProblem))
        let nowhere = image.transformed(by: CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        _ = context.createCGImage(nowhere, from: CGRect(x: 0, y: 0, width: 8, height: 8))
        let far = image.transformed(by: CGAffineTransform(translationX: 1e15, y: -1e15))
        _ = context.createCGImage(far, from: CGRect(x: 0, y: 0, width: 8, height: 8))
        let scaled = image.applyingFilter("CILanczosScaleTransform", parameters: [kCIInputScaleKey: 1e9])
        _ = context.createCGImage(scaled, from: CGRect(x: 0, y: 0, width: 8, height: 8))
        XCTAssertNotNil(context.createCGImage(image, from: image.extent), "and the context still works")
    }
}
