import CoreGraphics
import CoreImage
import CoreVideo
import ImageIO
import TestSupport
import XCTest

/// Images as recipes: their sources, extents and geometry, checked pixel by pixel once rendered.
final class CIImageTests: XCTestCase {
    typealias RGBA = Pictures.RGBA
    let context = CIContext()

    func testAFrameBecomesACGImageWithItsPixelsTheRightWayUp() throws {
        let frame = Pictures.quadrants()
        let image = CIImage(cvPixelBuffer: frame)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 64, height: 48))
        XCTAssertTrue(image.pixelBuffer === frame, "the image keeps the frame it was made from")
        let picture = try XCTUnwrap(context.createCGImage(image, from: image.extent), String(describing: CIContext.lastRenderingProblem))
        XCTAssertEqual([picture.width, picture.height], [64, 48])
        XCTAssertEqual(Pictures.pixel(picture, x: 5, y: 5), .red, "top left")
        XCTAssertEqual(Pictures.pixel(picture, x: 60, y: 5), .green, "top right")
        XCTAssertEqual(Pictures.pixel(picture, x: 5, y: 40), .blue, "bottom left")
        XCTAssertEqual(Pictures.pixel(picture, x: 60, y: 40), .white, "bottom right")
    }

    func testAFrameInACameraFormatIsConvertedAsItsColourAttachmentsSay() throws {
        // The quadrants converted to 4:2:0, as a camera delivers them.
        let bgra = Pictures.quadrants()
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
        let yuv = try XCTUnwrap(buffer)
        let converted = try XCTUnwrap(context.createCGImage(CIImage(cvPixelBuffer: bgra), from: CGRect(x: 0, y: 0, width: 64, height: 48)))
        XCTAssertNotNil(converted)
        context.render(CIImage(cvPixelBuffer: bgra), to: yuv)
        let picture = try XCTUnwrap(Pictures.render(CIImage(cvPixelBuffer: yuv)))
        XCTAssertTrue(Pictures.pixel(picture, x: 5, y: 5).isClose(to: .red, tolerance: 6), "\(Pictures.pixel(picture, x: 5, y: 5))")
        XCTAssertTrue(Pictures.pixel(picture, x: 60, y: 5).isClose(to: .green, tolerance: 6), "\(Pictures.pixel(picture, x: 60, y: 5))")
        XCTAssertTrue(Pictures.pixel(picture, x: 5, y: 40).isClose(to: .blue, tolerance: 6), "\(Pictures.pixel(picture, x: 5, y: 40))")
        XCTAssertTrue(Pictures.pixel(picture, x: 60, y: 40).isClose(to: .white, tolerance: 6), "\(Pictures.pixel(picture, x: 60, y: 40))")
    }

    func testCroppingKeepsTheRectangleInCoreImagesCoordinatesWithTheOriginAtTheBottomLeft() throws {
        let image = CIImage(cvPixelBuffer: Pictures.quadrants())
        // The bottom-left quarter in Core Image's coordinates is the picture's bottom left: blue.
        let crop = image.cropped(to: CGRect(x: 0, y: 0, width: 32, height: 24))
        XCTAssertEqual(crop.extent, CGRect(x: 0, y: 0, width: 32, height: 24))
        let picture = try XCTUnwrap(Pictures.render(crop))
        XCTAssertEqual([picture.width, picture.height], [32, 24])
        XCTAssertEqual(Pictures.pixel(picture, x: 0, y: 0), .blue)
        XCTAssertEqual(Pictures.pixel(picture, x: 31, y: 23), .blue)
        XCTAssertEqual(image.cropped(to: CGRect(x: 100, y: 100, width: 10, height: 10)).extent, .null, "nothing of it is there")
        // A region beyond the extent renders transparent.
        let wider = try XCTUnwrap(context.createCGImage(crop, from: CGRect(x: 0, y: 0, width: 40, height: 24)))
        XCTAssertEqual(Pictures.pixel(wider, x: 35, y: 10), .clear)
    }

    func testMovesScalesAndTurnsCarryThePixelsAndTheExtent() throws {
        let image = CIImage(cvPixelBuffer: Pictures.quadrants())
        let moved = image.transformed(by: CGAffineTransform(translationX: 10, y: -5))
        XCTAssertEqual(moved.extent, CGRect(x: 10, y: -5, width: 64, height: 48))
        let movedPicture = try XCTUnwrap(Pictures.render(moved))
        XCTAssertEqual(Pictures.pixel(movedPicture, x: 0, y: 0), .red, "the same pixels at the new place")
        XCTAssertEqual(Pictures.pixel(movedPicture, x: 63, y: 47), .white)

        let doubled = image.transformed(by: CGAffineTransform(scaleX: 2, y: 2))
        XCTAssertEqual(doubled.extent, CGRect(x: 0, y: 0, width: 128, height: 96))
        let doubledPicture = try XCTUnwrap(Pictures.render(doubled))
        XCTAssertEqual(Pictures.pixel(doubledPicture, x: 20, y: 20), .red)
        XCTAssertEqual(Pictures.pixel(doubledPicture, x: 100, y: 20), .green)
        XCTAssertEqual(Pictures.pixel(doubledPicture, x: 20, y: 80), .blue)
        XCTAssertEqual(Pictures.pixel(doubledPicture, x: 100, y: 80), .white)
        // The edge between red and green: half of each, within a pixel of where it was times two.
        XCTAssertEqual(Pictures.pixel(doubledPicture, x: 62, y: 20), .red)
        XCTAssertEqual(Pictures.pixel(doubledPicture, x: 65, y: 20), .green)

        // Turned as an orientation says: .right is seen after a quarter turn clockwise.
        let turned = image.oriented(.right)
        XCTAssertEqual(turned.extent, CGRect(x: 0, y: 0, width: 48, height: 64))
        let turnedPicture = try XCTUnwrap(Pictures.render(turned))
        XCTAssertEqual(Pictures.pixel(turnedPicture, x: 5, y: 5), .blue, "the bottom left comes to the top left")
        XCTAssertEqual(Pictures.pixel(turnedPicture, x: 43, y: 5), .red)
        XCTAssertEqual(Pictures.pixel(turnedPicture, x: 43, y: 60), .green)
        XCTAssertEqual(Pictures.pixel(turnedPicture, x: 5, y: 60), .white)
        let expected: [CGImagePropertyOrientation: [RGBA]] = [
            // Top left, top right, bottom left, bottom right, as seen.
            .up: [.red, .green, .blue, .white], .upMirrored: [.green, .red, .white, .blue], .down: [.white, .blue, .green, .red],
            .downMirrored: [.blue, .white, .red, .green], .left: [.green, .white, .red, .blue], .right: [.blue, .red, .white, .green],
            .leftMirrored: [.red, .blue, .green, .white], .rightMirrored: [.white, .green, .blue, .red],
        ]
        for (orientation, corners) in expected {
            let picture = try XCTUnwrap(Pictures.render(image.oriented(orientation)))
            let (w, h) = (picture.width, picture.height)
            let seen = [
                Pictures.pixel(picture, x: 2, y: 2), Pictures.pixel(picture, x: w - 3, y: 2), Pictures.pixel(picture, x: 2, y: h - 3),
                Pictures.pixel(picture, x: w - 3, y: h - 3),
            ]
            XCTAssertEqual(seen, corners, "\(orientation)")
            XCTAssertEqual(image.oriented(forExifOrientation: Int32(orientation.rawValue)).extent, image.oriented(orientation).extent)
        }
    }

    func testAColourIsInfiniteUntilCroppedAndClampingCarriesTheEdgesOut() throws {
        let colour = CIImage(color: CIColor(red: 1, green: 0.5, blue: 0, alpha: 1))
        XCTAssertTrue(colour.extent.isInfinite)
        XCTAssertNil(context.createCGImage(colour, from: colour.extent), "an infinite image cannot be rendered whole")
        let tile = try XCTUnwrap(
            Pictures.render(colour.cropped(to: CGRect(x: -3, y: 7, width: 5, height: 5))), String(describing: CIContext.lastRenderingProblem))
        XCTAssertEqual([tile.width, tile.height], [5, 5])
        XCTAssertTrue(Pictures.pixel(tile, x: 2, y: 2).isClose(to: RGBA(r: 255, g: 128, b: 0, a: 255), tolerance: 1))

        let clamped = CIImage(cvPixelBuffer: Pictures.quadrants()).clampedToExtent()
        XCTAssertTrue(clamped.extent.isInfinite)
        let around = try XCTUnwrap(context.createCGImage(clamped, from: CGRect(x: -10, y: -10, width: 84, height: 68)))
        XCTAssertEqual(Pictures.pixel(around, x: 0, y: 0), .red, "beyond the top-left corner: the corner's colour")
        XCTAssertEqual(Pictures.pixel(around, x: 83, y: 67), .white)
        XCTAssertEqual(Pictures.pixel(around, x: 0, y: 67), .blue)
        let far = try XCTUnwrap(context.createCGImage(clamped, from: CGRect(x: 500, y: 500, width: 4, height: 4)))
        XCTAssertEqual(Pictures.pixel(far, x: 1, y: 1), .green, "far above and to the right: the top-right corner's colour")
    }

    func testASmallImageOverALargeOneBlendsItsOwnAreaAndAnOpaqueFrameHidesWhatIsUnder() throws {
        // Half-transparent red, 8x8 at (4, 4) in Core Image's coordinates, over a 32x32 blue frame.
        let top = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).cropped(to: CGRect(x: 4, y: 4, width: 8, height: 8))
        let blue = CIImage(cvPixelBuffer: Pictures.solid(.blue))
        let picture = try XCTUnwrap(Pictures.render(top.composited(over: blue)), String(describing: CIContext.lastRenderingProblem))
        XCTAssertEqual([picture.width, picture.height], [32, 32])
        // Rows are counted from the top in the picture: y = 4...11 up is rows 20...27 down.
        XCTAssertTrue(Pictures.pixel(picture, x: 6, y: 24).isClose(to: RGBA(r: 128, g: 0, b: 128, a: 255)), "\(Pictures.pixel(picture, x: 6, y: 24))")
        XCTAssertEqual(Pictures.pixel(picture, x: 3, y: 24), .blue, "left of it, untouched")
        XCTAssertEqual(Pictures.pixel(picture, x: 6, y: 19), .blue, "above it, untouched")
        XCTAssertEqual(Pictures.pixel(picture, x: 20, y: 5), .blue)

        // A camera frame has no alpha: over anything, it is all that shows; beside it, what is under.
        var frame: CVPixelBuffer?
        CVPixelBufferCreate(nil, 32, 32, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &frame)
        let black = try XCTUnwrap(frame)
        CVPixelBufferLockBaseAddress(black, [])
        for (plane, value) in [(0, UInt8(0)), (1, UInt8(128))] {
            let bytes = CVPixelBufferGetBytesPerRowOfPlane(black, plane) * CVPixelBufferGetHeightOfPlane(black, plane)
            CVPixelBufferGetBaseAddressOfPlane(black, plane)!.initializeMemory(as: UInt8.self, repeating: value, count: bytes)
        }
        CVPixelBufferUnlockBaseAddress(black, [])
        let camera = CIImage(cvPixelBuffer: black)
        let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: -8, y: 0, width: 48, height: 32))
        let covered = try XCTUnwrap(context.createCGImage(camera.composited(over: red), from: CGRect(x: -8, y: 0, width: 48, height: 32)))
        XCTAssertEqual(Pictures.pixel(covered, x: 2, y: 10), .red, "beside the frame, what is under shows")
        let inside = Pictures.pixel(covered, x: 20, y: 10)
        XCTAssertTrue(inside.r < 20 && inside.g < 20 && inside.b < 20 && inside.a == 255, "the frame (black) hides the red: \(inside)")
    }

    func testImagesFromCGImagesAndFilesKeepTheirPixels() throws {
        let picture = try XCTUnwrap(Pictures.render(CIImage(cvPixelBuffer: Pictures.quadrants())))
        let image = CIImage(cgImage: picture)
        XCTAssertTrue(image.cgImage === picture)
        XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 64, height: 48))
        let again = try XCTUnwrap(Pictures.render(image.cropped(to: CGRect(x: 32, y: 24, width: 32, height: 24))))
        XCTAssertEqual(Pictures.pixel(again, x: 3, y: 3), .green, "the top right quarter")

        let png = try XCTUnwrap(context.pngRepresentation(of: image, format: .RGBA8, colorSpace: CGColorSpaceCreateDeviceRGB()))
        let decoded = try XCTUnwrap(CIImage(data: png))
        XCTAssertEqual(decoded.extent, image.extent)
        let decodedPicture = try XCTUnwrap(Pictures.render(decoded))
        XCTAssertEqual(Pictures.pixel(decodedPicture, x: 60, y: 40), .white)
        XCTAssertNotNil(decoded.properties[kCGImagePropertyPixelWidth as String], "the file's properties: \(decoded.properties)")
        // A camera's JPEG whose EXIF says 6: as stored, or turned upright when asked.
        let jpeg = JPEGOrientation.tagged(try XCTUnwrap(context.jpegRepresentation(of: image, colorSpace: CGColorSpaceCreateDeviceRGB(), options: [:])), 6)
        let stored = try XCTUnwrap(CIImage(data: jpeg))
        XCTAssertEqual(stored.extent, CGRect(x: 0, y: 0, width: 64, height: 48))
        XCTAssertEqual((stored.properties[kCGImagePropertyOrientation as String] as? Int), 6)
        let upright = try XCTUnwrap(CIImage(data: jpeg, options: [.applyOrientationProperty: true]))
        XCTAssertEqual(upright.extent, CGRect(x: 0, y: 0, width: 48, height: 64))
        let uprightPicture = try XCTUnwrap(Pictures.render(upright))
        XCTAssertTrue(
            Pictures.pixel(uprightPicture, x: 40, y: 5).isClose(to: .red, tolerance: 40),
            "the top left, turned clockwise to the top right: \(Pictures.pixel(uprightPicture, x: 40, y: 5))")
        XCTAssertNil(CIImage(data: Data("not a picture".utf8)))
        XCTAssertNil(CIImage(contentsOf: URL(fileURLWithPath: "/nonexistent/picture.png")))
    }
}
