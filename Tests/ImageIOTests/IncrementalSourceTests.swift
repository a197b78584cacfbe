import CoreGraphics
import Foundation
import ImageIO
import XCTest

/// Incremental image sources: the status as a picture's data arrives, images once it is whole (a
/// JPEG's as far as it has arrived), and what a truncated, unknown or finished source says.
final class IncrementalSourceTests: XCTestCase {
    /// A picture of `width` x `height` drawn by `draw`, encoded as `type`.
    private func encoded(
        _ type: String, width: Int = 40, height: Int = 20,
        draw: (CGContext) -> Void = { context in
            context.setFillColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 40, height: 20))
            context.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            context.fill(CGRect(x: 5, y: 5, width: 10, height: 10))
        }
    ) throws -> Data {
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        draw(context)
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData, type as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try XCTUnwrap(context.makeImage()), nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        return data as Data
    }

    func testTheStatusFollowsTheDataAsItArrives() throws {
        for type in ["public.png", "com.compuserve.gif"] {
            let whole = try encoded(type)
            let source = CGImageSourceCreateIncremental(nil)
            XCTAssertEqual(CGImageSourceGetStatus(source), .statusReadingHeader, type)
            XCTAssertEqual(CGImageSourceGetCount(source), 0, "nothing yet")
            XCTAssertNil(CGImageSourceGetType(source))
            // The signature: the type is known, the header not yet read.
            CGImageSourceUpdateData(source, whole.prefix(8) as CFData, false)
            XCTAssertEqual(CGImageSourceGetType(source) as String?, type)
            XCTAssertEqual(CGImageSourceGetStatusAtIndex(source, 0), .statusReadingHeader, type)
            // All but the end: the header read, the image not yet whole.
            CGImageSourceUpdateData(source, whole.dropLast(whole.count / 3) as CFData, false)
            XCTAssertEqual(CGImageSourceGetStatus(source), .statusIncomplete, type)
            XCTAssertEqual(CGImageSourceGetStatusAtIndex(source, 0), .statusIncomplete, type)
            XCTAssertEqual((CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])?[kCGImagePropertyPixelWidth as String] as? Int, 40)
            // All of it, with more said to come: the image is whole, the source not yet.
            CGImageSourceUpdateData(source, whole as CFData, false)
            XCTAssertEqual(CGImageSourceGetStatusAtIndex(source, 0), .statusComplete, type)
            XCTAssertEqual(CGImageSourceGetStatus(source), .statusIncomplete, type)
            CGImageSourceUpdateData(source, whole as CFData, true)
            XCTAssertEqual(CGImageSourceGetStatus(source), .statusComplete, type)
            let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil), type)
            XCTAssertEqual([image.width, image.height], [40, 20])
            // Nothing is taken after the final data.
            CGImageSourceUpdateData(source, whole.prefix(10) as CFData, true)
            XCTAssertEqual(CGImageSourceGetStatus(source), .statusComplete, type)
        }
    }

    /// The red, green and blue of an image's pixel at (x, y) from the top.
    private func colour(_ image: CGImage, x: Int, y: Int) throws -> [Int] {
        let data = try XCTUnwrap(image.dataProvider?.data) as Data
        let at = y * image.bytesPerRow + x * 4
        let p = data[at..<(at + 4)].map(Int.init)
        return image.byteOrderInfo == .order32Little ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]
    }

    /// 64 x 256: rows of changing colour (so that the picture's data outweighs its tables), the
    /// bottom quarter orange, encoded as `type`.
    private func striped(_ type: String) throws -> Data {
        try encoded(type, width: 64, height: 256) { context in
            for row in 0..<256 {
                let shade = CGFloat((row * 37) % 256) / 255
                context.setFillColor(red: shade, green: 1 - shade, blue: 0.5, alpha: 1)
                context.fill(CGRect(x: 0, y: row, width: 64, height: 1))
            }
            context.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 64, height: 64))
        }
    }

    func testAJPEGIsDrawnAsFarAsItHasArrivedAndIsWholeAtItsEnd() throws {
        let whole = try striped("public.jpeg")
        let complete = try XCTUnwrap(CGImageSourceCreateImageAtIndex(try XCTUnwrap(CGImageSourceCreateWithData(whole as CFData, nil)), 0, nil))

        let source = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(source, whole.prefix(whole.count * 6 / 10) as CFData, false)
        XCTAssertEqual(CGImageSourceGetStatusAtIndex(source, 0), .statusIncomplete, "the end has not come")
        XCTAssertEqual(CGImageSourceGetStatus(source), .statusIncomplete)
        // What has arrived is drawn: the top as the whole picture has it, the bottom not yet.
        let part = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        XCTAssertEqual([part.width, part.height], [64, 256])
        for (a, b) in zip(try colour(part, x: 10, y: 3), try colour(complete, x: 10, y: 3)) { XCTAssertEqual(a, b, accuracy: 4, "the top has come") }
        let bottom = try colour(complete, x: 10, y: 250)
        XCTAssertGreaterThan(bottom[0], 200, "orange at the bottom")
        XCTAssertGreaterThan(zip(try colour(part, x: 10, y: 250), bottom).map { abs($0 - $1) }.max() ?? 0, 40, "the bottom has not come")

        CGImageSourceUpdateData(source, whole as CFData, false)
        XCTAssertEqual(CGImageSourceGetStatusAtIndex(source, 0), .statusComplete, "its end has come")
        XCTAssertEqual(CGImageSourceGetStatus(source), .statusIncomplete, "more may come")
        CGImageSourceUpdateData(source, whole as CFData, true)
        XCTAssertEqual(CGImageSourceGetStatus(source), .statusComplete)

        // Cut short for good: an unexpected end, and the part there is still drawn.
        let cut = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(cut, whole.prefix(whole.count * 6 / 10) as CFData, true)
        XCTAssertEqual(CGImageSourceGetStatusAtIndex(cut, 0), .statusUnexpectedEOF)
        XCTAssertNotNil(CGImageSourceCreateImageAtIndex(cut, 0, nil))
    }

    /// Checks that a striped picture of `type`, half of it arrived, is drawn as far as it has come
    /// (the first rows exactly, the last transparent) and whole at the end; the whole picture's data.
    @discardableResult
    private func assertDrawnAsItArrives(_ type: String, line: UInt = #line) throws -> Data {
        let whole = try striped(type)
        let complete = try XCTUnwrap(CGImageSourceCreateImageAtIndex(try XCTUnwrap(CGImageSourceCreateWithData(whole as CFData, nil)), 0, nil))
        let source = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(source, whole.prefix(whole.count / 2) as CFData, false)
        XCTAssertEqual(CGImageSourceGetStatusAtIndex(source, 0), .statusIncomplete, line: line)
        let part = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil), "the part that has arrived is drawn", line: line)
        XCTAssertEqual([part.width, part.height], [64, 256], line: line)
        XCTAssertEqual(try colour(part, x: 10, y: 3), try colour(complete, x: 10, y: 3), "the first rows have come, exactly", line: line)
        // The last row has not: transparent.
        let data = try XCTUnwrap(part.dataProvider?.data) as Data
        XCTAssertEqual(Array(data[(255 * part.bytesPerRow + 40)..<(255 * part.bytesPerRow + 44)]), [0, 0, 0, 0], line: line)
        XCTAssertNotEqual(part.alphaInfo, .noneSkipFirst, "a picture with rows to come has transparency", line: line)
        CGImageSourceUpdateData(source, whole as CFData, true)
        XCTAssertEqual(CGImageSourceGetStatus(source), .statusComplete, line: line)
        XCTAssertEqual(
            try colour(try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil)), x: 10, y: 250), try colour(complete, x: 10, y: 250), line: line)
        return whole
    }

    func testAPNGIsDrawnRowByRowAsItArrives() throws {
        try assertDrawnAsItArrives("public.png")
    }

    func testAGIFIsDrawnAsFarAsItHasArrived() throws {
        let whole = try assertDrawnAsItArrives("com.compuserve.gif")
        // A GIF that is not incremental and cut short is still refused, as before.
        XCTAssertNil(CGImageSourceCreateWithData(whole.prefix(whole.count / 2) as CFData, nil).flatMap { CGImageSourceCreateImageAtIndex($0, 0, nil) })
    }

    func testTruncatedUnknownAndEmptyDataSayWhatTheyAre() throws {
        let whole = try encoded("public.png")
        let truncated = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(truncated, whole.dropLast(whole.count / 3) as CFData, true)
        XCTAssertEqual(CGImageSourceGetStatusAtIndex(truncated, 0), .statusUnexpectedEOF)
        XCTAssertNotNil(CGImageSourceCreateImageAtIndex(truncated, 0, nil), "the part that came is drawn")
        let headless = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(headless, whole.prefix(20) as CFData, true)
        XCTAssertNil(CGImageSourceCreateImageAtIndex(headless, 0, nil), "nothing to draw before the header")
        let unknown = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(unknown, Data(repeating: 0x41, count: 64) as CFData, false)
        XCTAssertEqual(CGImageSourceGetStatus(unknown), .statusUnknownType)
        let empty = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateData(empty, Data() as CFData, true)
        XCTAssertEqual(CGImageSourceGetStatus(empty), .statusUnexpectedEOF)
        let provided = CGImageSourceCreateIncremental(nil)
        CGImageSourceUpdateDataProvider(provided, try XCTUnwrap(CGDataProvider(data: whole as CFData)), true)
        XCTAssertEqual(CGImageSourceGetStatus(provided), .statusComplete)
        XCTAssertEqual(CGImageSourceGetStatusAtIndex(provided, 1), .statusInvalidData, "no second image")
        // A source made from whole data is complete from the start.
        XCTAssertEqual(CGImageSourceGetStatus(try XCTUnwrap(CGImageSourceCreateWithData(whole as CFData, nil))), .statusComplete)
    }
}
