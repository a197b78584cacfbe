import CoreGraphics
import XCTest

/// Bitmap contexts drawn into with cairo: Quartz's coordinates (origin at the bottom left, the
/// first row in memory at the top), the layouts Apple supports, and the drawing model.
final class CGContextTests: XCTestCase {
    private let bgra = CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue
    private let rgba = CGImageAlphaInfo.premultipliedLast.rawValue

    /// The four bytes of pixel (x, y), counted from the top left of memory.
    private func pixel(_ context: CGContext, _ x: Int, _ y: Int) -> [UInt8] {
        let row = context.data!.advanced(by: y * context.bytesPerRow).assumingMemoryBound(to: UInt8.self)
        return Array(UnsafeBufferPointer(start: row + x * context.bitsPerPixel / 8, count: context.bitsPerPixel / 8))
    }

    private func context(_ width: Int = 40, _ height: Int = 30, info: UInt32? = nil, space: CGColorSpace = CGColorSpaceCreateDeviceRGB()) -> CGContext {
        CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: space, bitmapInfo: info ?? bgra)!
    }

    func testAFilledRectangleLandsAtTheBottomLeftInBGRAMemory() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 40 * 4 * 30, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 40 * 4 * 30)
        let context = CGContext(
            data: memory, width: 40, height: 30, bitsPerComponent: 8, bytesPerRow: 160, space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: bgra)!
        XCTAssertEqual(context.data, memory, "the caller's memory is drawn into")
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 5))
        XCTAssertEqual(pixel(context, 0, 29), [0, 0, 255, 255], "Quartz's origin is the bottom-left: the last row in memory, B G R A")
        XCTAssertEqual(pixel(context, 9, 25), [0, 0, 255, 255])
        XCTAssertEqual(pixel(context, 10, 29), [0, 0, 0, 0], "nothing right of the rectangle")
        XCTAssertEqual(pixel(context, 0, 24), [0, 0, 0, 0], "nothing above it")
        XCTAssertEqual(pixel(context, 0, 0), [0, 0, 0, 0])
    }

    func testRGBAAndGreyContextsAreWrittenInTheirOwnLayouts() {
        let colour = context(info: rgba)
        colour.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        colour.fill(CGRect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertEqual(pixel(colour, 5, 5), [0, 255, 0, 255], "R G B A in memory")
        let skipLast = context(info: CGImageAlphaInfo.noneSkipLast.rawValue)
        skipLast.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        skipLast.fill(CGRect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertEqual(Array(pixel(skipLast, 3, 3).prefix(3)), [0, 0, 255])
        let grey = context(info: CGImageAlphaInfo.none.rawValue, space: CGColorSpaceCreateDeviceGray())
        XCTAssertEqual(grey.bitsPerPixel, 8)
        grey.setFillColor(gray: 0.5, alpha: 1)
        grey.fill(CGRect(x: 0, y: 0, width: 20, height: 30))
        XCTAssertEqual(Int(pixel(grey, 0, 0)[0]), 128, accuracy: 1)
        XCTAssertEqual(pixel(grey, 39, 0), [0], "the right half untouched")
        // A colour drawn into grey becomes its luma (Rec. 601).
        grey.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        grey.fill(CGRect(x: 20, y: 0, width: 20, height: 30))
        XCTAssertEqual(Int(pixel(grey, 30, 10)[0]), 76, accuracy: 1)
    }

    func testLayoutsAppleDoesNotDrawIntoAreRefused() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        XCTAssertNil(
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: CGImageAlphaInfo.last.rawValue),
            "unpremultiplied alpha")
        XCTAssertNil(
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: CGImageAlphaInfo.none.rawValue), "24-bit RGB"
        )
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0, space: rgb, bitmapInfo: rgba))
        XCTAssertNil(
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 8, space: rgb, bitmapInfo: rgba), "rows shorter than a row of pixels")
        XCTAssertNil(CGContext(data: nil, width: 0, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: rgba))
        XCTAssertNotNil(
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: CGImageAlphaInfo.noneSkipFirst.rawValue))
    }

    func testMakeImageIsACopyOfThePixelsAsTheyAreNow() throws {
        let context = context()
        context.setFillColor(gray: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 40, height: 30))
        let image = try XCTUnwrap(context.makeImage())
        context.setFillColor(gray: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(image.height, 30)
        XCTAssertEqual(image.bitsPerPixel, 32)
        XCTAssertEqual(image.alphaInfo, .premultipliedFirst)
        XCTAssertEqual(image.byteOrderInfo, .order32Little)
        let data = try XCTUnwrap(image.dataProvider?.data)
        XCTAssertEqual(Array(data.prefix(4)), [255, 255, 255, 255], "the image kept the white it was made with")
    }

    func testAnImageIsDrawnUprightScaledAndWithItsAlpha() throws {
        // A 2x2 RGBA image: top row red, bottom row blue.
        let bytes: [UInt8] = [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255]
        let image = try XCTUnwrap(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(alphaInfo: .premultipliedLast), provider: CGDataProvider(data: Data(bytes) as CFData)!, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent))
        let context = context(20, 20)
        context.interpolationQuality = .none
        context.draw(image, in: CGRect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertEqual(pixel(context, 10, 2), [0, 0, 255, 255], "the image's top row at the top of memory: red")
        XCTAssertEqual(pixel(context, 10, 17), [255, 0, 0, 255], "its bottom row at the bottom: blue")
        context.clear(CGRect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertEqual(pixel(context, 10, 10), [0, 0, 0, 0], "cleared to transparent")
        context.setAlpha(0.5)
        context.draw(image, in: CGRect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertEqual(Int(pixel(context, 10, 2)[2]), 128, accuracy: 1, "premultiplied red at half alpha")
        XCTAssertEqual(Int(pixel(context, 10, 2)[3]), 128, accuracy: 1)
    }

    func testTheTransformMovesScalesAndTurnsWhatIsDrawnAndStateIsSavedAndRestored() {
        let context = context(40, 40)
        context.saveGState()
        context.translateBy(x: 20, y: 20)
        context.scaleBy(x: 2, y: 2)
        context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        XCTAssertEqual(context.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 20, ty: 20))
        context.restoreGState()
        XCTAssertEqual(context.ctm, .identity, "restored")
        // (20...30, 20...30) in Quartz's coordinates: rows 10..<20 of memory.
        XCTAssertEqual(pixel(context, 25, 15), [0, 255, 0, 255])
        XCTAssertEqual(pixel(context, 25, 25), [0, 0, 0, 0])
        XCTAssertEqual(pixel(context, 31, 15), [0, 0, 0, 0])
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(pixel(context, 0, 39), [0, 0, 0, 255], "the fill colour was restored to black")
        // A quarter turn counterclockwise about the origin takes (1...5, 0...1) to (-1...0, 1...5): nothing shows.
        context.rotate(by: .pi / 2)
        context.translateBy(x: 10, y: -30)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 2))
        // The rectangle lands at x 28...30, y 10...14 in Quartz's coordinates: memory rows 26..<30.
        XCTAssertEqual(pixel(context, 29, 28), [0, 0, 255, 255])
        XCTAssertEqual(pixel(context, 27, 28), [0, 0, 0, 0])
    }

    func testPathsEllipsesStrokesDashesAndClips() {
        let context = context(40, 40)
        context.setFillColor(gray: 1, alpha: 1)
        context.fillEllipse(in: CGRect(x: 0, y: 0, width: 40, height: 40))
        XCTAssertEqual(pixel(context, 20, 20), [255, 255, 255, 255], "inside the circle")
        XCTAssertEqual(pixel(context, 1, 1), [0, 0, 0, 0], "the corner is outside it")
        context.clear(CGRect(x: 0, y: 0, width: 40, height: 40))
        context.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
        context.setLineWidth(4)
        context.stroke(CGRect(x: 10, y: 10, width: 20, height: 20))
        XCTAssertEqual(pixel(context, 20, 10), [255, 0, 0, 255], "the top edge, 4 wide across y = 30")
        XCTAssertEqual(pixel(context, 20, 20), [0, 0, 0, 0], "the inside is not filled")
        context.clear(CGRect(x: 0, y: 0, width: 40, height: 40))
        context.setLineDash(phase: 0, lengths: [4, 4])
        context.setLineWidth(2)
        context.move(to: CGPoint(x: 0, y: 20))
        context.addLine(to: CGPoint(x: 40, y: 20))
        context.strokePath()
        XCTAssertTrue(context.isPathEmpty, "stroking discards the path")
        XCTAssertEqual(pixel(context, 2, 20)[0], 255, "a dash")
        XCTAssertEqual(pixel(context, 6, 20), [0, 0, 0, 0], "a gap")
        context.clear(CGRect(x: 0, y: 0, width: 40, height: 40))
        context.saveGState()
        context.clip(to: CGRect(x: 0, y: 0, width: 10, height: 40))
        context.setFillColor(gray: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        context.restoreGState()
        XCTAssertEqual(pixel(context, 5, 5), [255, 255, 255, 255], "inside the clip")
        XCTAssertEqual(pixel(context, 15, 5), [0, 0, 0, 0], "outside it")
        // Even-odd: a square inside a square leaves a hole.
        context.addRect(CGRect(x: 0, y: 0, width: 40, height: 40))
        context.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fillPath(using: .evenOdd)
        XCTAssertEqual(pixel(context, 20, 20), [0, 0, 0, 0], "the inner square is a hole")
        XCTAssertEqual(pixel(context, 2, 2), [0, 0, 255, 255])
    }

    func testBlendModesComposite() {
        let context = context(10, 10)
        context.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        context.setBlendMode(.multiply)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(pixel(context, 5, 5), [0, 0, 255, 255], "white times red is red")
        context.setBlendMode(.copy)
        context.setFillColor(red: 0, green: 0, blue: 0, alpha: 0)
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
        XCTAssertEqual(pixel(context, 2, 5), [0, 0, 0, 0], "copy replaces, alpha and all")
    }
}

/// Degenerate and hostile input draws nothing and leaves the context usable, as Quartz does.
final class CGContextRobustnessTests: XCTestCase {
    func testAFlatTransformNaNAndInfinityDrawNothingAndLaterDrawingStillWorks() {
        let context = CGContext(
            data: nil, width: 8, height: 8, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue)!
        context.setFillColor(gray: 1, alpha: 1)
        context.saveGState()
        context.scaleBy(x: 0, y: 0)
        context.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        context.restoreGState()
        context.saveGState()
        context.translateBy(x: CGFloat.nan, y: 1)
        context.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        context.restoreGState()
        context.fill(CGRect(x: CGFloat.nan, y: 0, width: 8, height: 8))
        context.fill(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 8))
        context.move(to: CGPoint(x: CGFloat.nan, y: 0))
        context.addLine(to: CGPoint(x: 4, y: CGFloat.infinity))
        context.strokePath()
        context.setLineDash(phase: CGFloat.nan, lengths: [CGFloat.nan, -1])
        context.setFillColor(red: CGFloat.nan, green: 2, blue: -1, alpha: CGFloat.infinity)
        context.setFillColor(gray: 1, alpha: 1)
        let row = context.data!.assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(row[0], 0, "nothing was drawn by any of that")
        context.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        XCTAssertEqual(Array(UnsafeBufferPointer(start: row, count: 4)), [255, 255, 255, 255], "the context still draws")
    }

    func testRowsNotAMultipleOfFourBytesApartAreRefusedOrLeftUndrawn() throws {
        let rgb = CGColorSpaceCreateDeviceRGB()
        XCTAssertNil(
            CGContext(
                data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 18, space: rgb, bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue),
            "32-bit rows 18 bytes apart")
        let grey = try XCTUnwrap(
            CGContext(data: nil, width: 5, height: 3, bitsPerComponent: 8, bytesPerRow: 7, space: CGColorSpaceCreateDeviceGray(), bitmapInfo: 0),
            "grey rows may be any number of bytes apart")
        grey.setFillColor(gray: 1, alpha: 1)
        grey.fill(CGRect(x: 0, y: 0, width: 5, height: 3))
        XCTAssertEqual(grey.data!.load(fromByteOffset: 7 * 2 + 4, as: UInt8.self), 255)
        // An RGBA image whose rows are 18 bytes apart is not drawn, and nothing breaks.
        let odd = try XCTUnwrap(
            CGImage(
                width: 4, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 18, space: rgb,
                bitmapInfo: CGBitmapInfo(alphaInfo: .premultipliedLast),
                provider: CGDataProvider(data: Data(repeating: 255, count: 36) as CFData)!, decode: nil, shouldInterpolate: true, intent: .defaultIntent))
        let context = try XCTUnwrap(
            CGContext(
                data: nil, width: 4, height: 2, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue))
        context.draw(odd, in: CGRect(x: 0, y: 0, width: 4, height: 2))
        XCTAssertEqual(context.data!.load(as: UInt32.self), 0)
    }
}
