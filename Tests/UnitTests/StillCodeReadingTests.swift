import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// Still pictures are looked at again where the camera path's one read finds nothing: each way
/// of looking finds what it is there for, corners come back in the picture's own pixels, and a
/// picture with no code gives no false read however hard it is looked at.
final class StillCodeReadingTests: XCTestCase {
    private let (width, height) = (640, 480)

    /// A 640x480 grey picture of the virtual scene's light page (or its busy scene) with `codes` printed on it.
    private func picture(_ codes: [SceneCode], busy: Bool = false, defocus: Float = 0, noise: Int = 0) throws -> CVPixelBuffer {
        let renderer = try XCTUnwrap(SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        let frame = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        let page = try XCTUnwrap(CVPixelBuffer(width: 16, height: 16, pixelFormatType: kCVPixelFormatType_32BGRA))
        memset(page.planes[0].baseAddress, 0xF0, page.planes[0].bytesPerRow * 16)
        var parameters = SceneFrameParameters(
            frameNumber: 0, seconds: 1, zoom: 1, brightness: 1, colourGains: (1, 1, 1), defocus: defocus,
            image: busy ? nil : page)
        parameters.codes = codes
        renderer.render(into: frame, parameters)
        let grey = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_OneComponent8))
        let (from, to) = (frame.planes[0], grey.planes[0])
        var random = SystemRandomNumberGenerator()
        for y in 0..<height {
            for x in 0..<width {
                let value = Int(from.baseAddress.load(fromByteOffset: y * from.bytesPerRow + x, as: UInt8.self))
                let noisy = noise > 0 ? value + Int.random(in: -noise...noise, using: &random) : value
                to.baseAddress.storeBytes(of: UInt8(clamping: noisy), toByteOffset: y * to.bytesPerRow + x, as: UInt8.self)
            }
        }
        return grey
    }

    private func code(_ symbology: CodeSymbology, _ payload: String, center: CGPoint, width: CGFloat, rotation: CGFloat = 0) throws -> SceneCode {
        let bitmap = try CodeBitmap(symbology, payload: payload)
        return SceneCode(
            id: 1, symbology: symbology, payload: payload, bitmap: bitmap,
            corners: SceneCode.corners(for: bitmap, center: center, width: width, rotation: rotation, aspectRatio: 4.0 / 3.0))
    }

    private func centre(_ points: [CGPoint]) -> CGPoint {
        CGPoint(x: points.map(\.x).reduce(0, +) / CGFloat(points.count), y: points.map(\.y).reduce(0, +) / CGFloat(points.count))
    }

    func testACode128TurnedPastTheScanLinesIsReadTurnedAndFoundWhereItIs() throws {
        let center = CGPoint(x: 0.6, y: 0.62)
        let image = try picture([code(.code128, "Code 128 text", center: center, width: 0.6, rotation: 0.35)])
        let reader = CodeReader(symbologies: [.code128])
        XCTAssertEqual(reader.read(image), [], "the camera path's one read misses it")
        let (codes, attempt) = reader.readStill(image, attempts: CodeReader.StillAttempt.allCases)
        XCTAssertEqual(codes.map(\.text), ["Code 128 text"])
        XCTAssertTrue(attempt == .turnedLeft || attempt == .turnedRight, "\(String(describing: attempt))")
        // A linear code's corners are the ends of the line read across it: their middle is the code's.
        let found = centre(try XCTUnwrap(codes.first).corners)
        XCTAssertEqual(found.x, center.x * CGFloat(width), accuracy: 25)
        XCTAssertEqual(found.y, center.y * CGFloat(height), accuracy: 25)
    }

    func testABlurredCodeIsReadThresholdedAtOneLevelOrSharpened() throws {
        let image = try picture([code(.ean13, "4006381333931", center: CGPoint(x: 0.5, y: 0.55), width: 0.6)], defocus: 0.05)
        let reader = CodeReader(symbologies: [.ean13])
        XCTAssertEqual(reader.read(image), [], "the camera path's one read misses it")
        let (codes, attempt) = reader.readStill(image, attempts: CodeReader.StillAttempt.allCases)
        XCTAssertEqual(codes.map(\.text), ["4006381333931"])
        XCTAssertTrue(attempt == .fixedThreshold || attempt == .sharpened, "\(String(describing: attempt))")
        XCTAssertEqual(reader.readStill(image, attempts: [.sharpened]).codes.map(\.text), ["4006381333931"], "sharpening alone reads it")
    }

    func testEveryAttemptGivesCornersInThePicturesOwnPixels() throws {
        // Off the centre (and clear of the scene's counter, top left), so that a turn about the wrong
        // centre or the wrong way moves the corners far.
        let image = try picture([code(.qr, "https://example.com/still", center: CGPoint(x: 0.7, y: 0.65), width: 0.3, rotation: 0.2)])
        let reader = CodeReader(symbologies: [.qr])
        let expected = try XCTUnwrap(reader.read(image).first).corners
        for attempt in CodeReader.StillAttempt.allCases {
            let found = reader.readStill(image, attempts: [attempt]).codes
            XCTAssertEqual(found.map(\.text), ["https://example.com/still"], "\(attempt)")
            for (corner, wanted) in zip(found.first?.corners ?? [], expected) {
                XCTAssertEqual(corner.x, wanted.x, accuracy: 4, "\(attempt)")
                XCTAssertEqual(corner.y, wanted.y, accuracy: 4, "\(attempt)")
            }
        }
    }

    func testPicturesWithNoCodeGiveNoFalseReadsHoweverHardTheyAreLookedAt() throws {
        let reader = CodeReader(symbologies: Set(CodeSymbology.allCases))
        for (busy, noise) in [(true, 0), (true, 14), (false, 14)] {
            let image = try picture([], busy: busy, noise: noise)
            for attempt in CodeReader.StillAttempt.allCases {
                XCTAssertEqual(reader.readStill(image, attempts: [attempt]).codes, [], "\(attempt), busy \(busy), noise \(noise)")
            }
        }
    }

    func testAStillPictureIsReadThroughTheMetadataOutputWithTheSameAttempts() throws {
        let image = try picture([code(.code128, "Code 128 text", center: CGPoint(x: 0.5, y: 0.5), width: 0.6, rotation: 0.35)])
        let plane = image.planes[0]
        var pgm = Data("P5\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height { pgm.append(Data(bytes: plane.baseAddress + y * plane.bytesPerRow, count: width)) }
        let codes = try AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: pgm, types: [.code128])
        XCTAssertEqual(codes.map(\.stringValue), ["Code 128 text"])
        let found = centre(try XCTUnwrap(codes.first).corners)
        XCTAssertEqual(found.x, 0.5, accuracy: 0.04)
        XCTAssertEqual(found.y, 0.5, accuracy: 0.05)
    }
}

/// Still pictures are read through the project's one JPEG interface, and a damaged one is refused with libjpeg's reason.
final class GreyPictureTests: XCTestCase {
    func testAJPEGIsReadGreyAndADamagedOneIsRefusedWithItsReason() throws {
        let frame = try XCTUnwrap(CVPixelBuffer(width: 320, height: 240, pixelFormatType: kCVPixelFormatType_32BGRA))
        let plane = frame.planes[0]
        for y in 0..<240 {
            let row = plane.baseAddress.assumingMemoryBound(to: UInt8.self) + y * plane.bytesPerRow
            for x in 0..<320 { let value: UInt8 = x < 160 ? 30 : 220; row[4 * x] = value; row[4 * x + 1] = value; row[4 * x + 2] = value; row[4 * x + 3] = 255 }
        }
        let jpeg = try XCTUnwrap(JPEGEncoder().encode(frame, quality: 90, fullChroma: false, accurateDCT: true))
        let grey = try GreyPicture.decode(jpeg)
        XCTAssertEqual(grey.width, 320)
        XCTAssertEqual(grey.height, 240)
        XCTAssertEqual(grey.pixelFormatType, kCVPixelFormatType_OneComponent8)
        let pixels = grey.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        let row = 120 * grey.planes[0].bytesPerRow
        XCTAssertEqual(Double(pixels[row + 40]), 30, accuracy: 4, "the dark half")
        XCTAssertEqual(Double(pixels[row + 280]), 220, accuracy: 4, "the light half")

        for (name, damaged) in [("cut short", jpeg.prefix(jpeg.count / 2)), ("no picture after its start", Data([0xFF, 0xD8, 0xFF, 0x00, 1, 2, 3, 4]))] {
            XCTAssertThrowsError(try GreyPicture.decode(Data(damaged)), name) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("a damaged JPEG: "), "\(name): \(text)")
                XCTAssertGreaterThan(text.count, "a damaged JPEG: ".count + 5, "libjpeg's reason is given: \(text)")
            }
        }
    }

    /// A picture larger than the working size is decoded scaled (libjpeg's 1/2 here), its content where it was.
    func testALargePictureIsDecodedAtTheWorkingSize() throws {
        let (width, height) = (6000, 4000)
        let frame = try XCTUnwrap(CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA))
        let plane = frame.planes[0]
        for y in 0..<height {
            let row = plane.baseAddress.assumingMemoryBound(to: UInt8.self) + y * plane.bytesPerRow
            for x in 0..<width {
                let value: UInt8 = x < width / 2 ? 30 : 220; row[4 * x] = value; row[4 * x + 1] = value; row[4 * x + 2] = value; row[4 * x + 3] = 255
            }
        }
        let jpeg = try XCTUnwrap(JPEGEncoder().encode(frame, quality: 80, fullChroma: false, accurateDCT: false))
        let grey = try GreyPicture.decode(jpeg)
        XCTAssertLessThanOrEqual(grey.width * grey.height, GreyPicture.workingPixels)
        XCTAssertEqual([grey.width, grey.height], [3000, 2000], "a half, libjpeg's scale that fits")
        let pixels = grey.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        let row = 1000 * grey.planes[0].bytesPerRow
        XCTAssertEqual(Double(pixels[row + 200]), 30, accuracy: 4, "the dark half")
        XCTAssertEqual(Double(pixels[row + 2800]), 220, accuracy: 4, "the light half")
        XCTAssertEqual(DecodingBudget.shared.inUse, 0, "the decode gave its share back")
    }

    /// Decodes share one memory budget: one that does not fit waits until another gives its share back.
    func testDecodesWaitForTheirShareOfOneBudget() {
        let budget = DecodingBudget(bytes: 100)
        let first = budget.reserve(bytes: 80)
        let granted = LockedFlag()
        let done = expectation(description: "the second reservation is granted")
        Thread.detachNewThread {
            let second = budget.reserve(bytes: 50)
            granted.set()
            budget.release(second)
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertFalse(granted.value, "80 + 50 is more than 100: the second waits")
        budget.release(first)
        wait(for: [done], timeout: 30)
        XCTAssertTrue(granted.value)
        XCTAssertEqual(budget.inUse, 0)
        // One larger than the whole budget is granted when nothing else is reserved.
        let whole = budget.reserve(bytes: 1_000)
        XCTAssertEqual(budget.inUse, 1_000)
        budget.release(whole)
    }
}

/// A flag one thread sets and another reads.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}
