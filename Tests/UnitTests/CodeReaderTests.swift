import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing

/// ZXing-C++ 3 behind the metadata output: every symbology it draws is read back, in every
/// pixel format cameras deliver, and many one-dimensional codes in one picture never abort.
final class CodeReaderTests: XCTestCase {
    /// A grey picture with `bitmap` printed at `scale` pixels a module with its top-left corner at `origin`.
    private func print(_ bitmaps: [(CodeBitmap, CGPoint)], scale: Int, width: Int = 640, height: Int = 480) -> [UInt8] {
        var picture = [UInt8](repeating: 200, count: width * height)
        for (bitmap, origin) in bitmaps {
            for y in 0..<bitmap.height * scale {
                for x in 0..<bitmap.width * scale {
                    let px = Int(origin.x) + x, py = Int(origin.y) + y
                    guard px < width, py < height else { continue }
                    picture[py * width + px] = bitmap.pixels[(y / scale) * bitmap.width + x / scale] < 128 ? 20 : 235
                }
            }
        }
        return picture
    }

    /// A pixel buffer over a grey picture.
    private func buffer(_ picture: [UInt8], width: Int = 640, height: Int = 480) throws -> CVPixelBuffer {
        var image: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_OneComponent8, nil, &image), kCVReturnSuccess)
        let buffer = try XCTUnwrap(image)
        CVPixelBufferLockBaseAddress(buffer, [])
        let base = try XCTUnwrap(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<height { for x in 0..<width { base[y * stride + x] = picture[y * width + x] } }
        CVPixelBufferUnlockBaseAddress(buffer, [])
        return buffer
    }

    func testEverySymbologyTheWriterDrawsIsReadBackWithItsPayloadAndCorners() throws {
        for (symbology, payload) in CodePayloads.valid.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let bitmap = try CodeBitmap(symbology, payload: payload)
            let scale = max(1, min(6, 300 / max(bitmap.width, bitmap.height)))
            let origin = CGPoint(x: 40, y: 30)
            let image = try buffer(print([(bitmap, origin)], scale: scale))
            let codes = CodeReader(symbologies: [symbology]).read(image)
            XCTAssertEqual(codes.count, 1, "\(symbology)")
            guard let code = codes.first else { continue }
            XCTAssertEqual(code.symbology, symbology)
            let expected = symbology == .ean13 && payload.count == 12 ? "0" + payload : payload
            XCTAssertEqual(code.text, expected, "\(symbology)")
            if symbology.isMatrix {
                let symbol = bitmap.symbolBounds
                let topLeft = CGPoint(x: origin.x + symbol.minX * CGFloat(scale), y: origin.y + symbol.minY * CGFloat(scale))
                XCTAssertEqual(code.corners[0].x, topLeft.x, accuracy: CGFloat(scale) + 1, "\(symbology) top left")
                XCTAssertEqual(code.corners[0].y, topLeft.y, accuracy: CGFloat(scale) + 1, "\(symbology) top left")
                XCTAssertEqual(code.corners[2].x, origin.x + symbol.maxX * CGFloat(scale), accuracy: CGFloat(scale) + 1, "\(symbology) bottom right")
            }
        }
    }

    func testOnlyTheSymbologiesAskedForAndTheRegionAreSearched() throws {
        let qr = try CodeBitmap(.qr, payload: "left"), ean = try CodeBitmap(.ean13, payload: "4006381333931")
        let image = try buffer(print([(qr, CGPoint(x: 20, y: 20)), (ean, CGPoint(x: 290, y: 200))], scale: 3))
        XCTAssertEqual(CodeReader(symbologies: [.qr]).read(image).map(\.text), ["left"])
        XCTAssertEqual(Set(CodeReader(symbologies: [.qr, .ean13]).read(image).compactMap(\.text)), ["left", "4006381333931"])
        let right = CodeReader(symbologies: [.qr, .ean13]).read(image, region: CGRect(x: 280, y: 0, width: 360, height: 480))
        XCTAssertEqual(right.map(\.text), ["4006381333931"], "the QR code lies outside the region")
        XCTAssertGreaterThan(try XCTUnwrap(right.first).corners[0].x, 280, "corners are in the whole picture's pixels")
    }

    func testManyOneDimensionalCodesInOnePictureAreReadWithoutAborting() throws {
        // Debian's ZXing 1.4 aborts the process (an assertion in Result::operator==) on pictures like this.
        var placed: [(CodeBitmap, CGPoint)] = []
        let kinds: [CodeSymbology] = [.ean13, .code128, .code39, .ean8, .codabar, .code93]
        for row in 0..<6 {
            for column in 0..<2 {
                let symbology = kinds[(row + column) % kinds.count]
                placed.append((try CodeBitmap(symbology, payload: CodePayloads.valid[symbology]!), CGPoint(x: 10 + column * 320, y: 8 + row * 78)))
            }
        }
        let image = try buffer(print(placed, scale: 2, width: 640, height: 480))
        let reader = CodeReader(symbologies: Set(kinds), maximumCodes: 20)
        let codes = reader.read(image)
        XCTAssertGreaterThanOrEqual(codes.count, 8, "most of the twelve: \(codes.map(\.symbology))")
        XCTAssertEqual(CodeReader(symbologies: Set(kinds)).read(image).count, 4, "four at most unless more are asked for")
    }

    func testUPCENumbersAreGivenAsTheirEightDigits() {
        XCTAssertEqual(CodeReader.upcE(fromExpanded: "0012345000065"), "01234565", "the fourth rule: 0000 and a last digit of 5 to 9")
        XCTAssertEqual(CodeReader.upcE(fromExpanded: "012000003455"), "01234505", "the first rule: a manufacturer ending 000, 100 or 200")
        XCTAssertEqual(CodeReader.upcE(fromExpanded: "012300000645"), "01236435", "the second rule: ending 00")
        XCTAssertEqual(CodeReader.upcE(fromExpanded: "012340000055"), "01234545", "the third rule: ending 0")
        XCTAssertNil(CodeReader.upcE(fromExpanded: "036000291452"), "a UPC-A number with no UPC-E form")
    }

    func testAPartialReadOfATurnedITF14CodeIsLeftOut() {
        let itf14 = DetectedCode(
            symbology: .itf14, text: "10012345678902", bytes: Array("10012345678902".utf8),
            corners: [CGPoint(x: 100, y: 100), CGPoint(x: 400, y: 200), CGPoint(x: 380, y: 260), CGPoint(x: 80, y: 160)])
        let partial = DetectedCode(
            symbology: .interleaved2of5, text: "1001234567", bytes: Array("1001234567".utf8),
            corners: [CGPoint(x: 120, y: 130), CGPoint(x: 330, y: 200), CGPoint(x: 330, y: 200), CGPoint(x: 120, y: 130)])
        let elsewhere = DetectedCode(
            symbology: .interleaved2of5, text: "12345678", bytes: Array("12345678".utf8),
            corners: [CGPoint(x: 500, y: 440), CGPoint(x: 600, y: 440), CGPoint(x: 600, y: 470), CGPoint(x: 500, y: 470)])
        XCTAssertEqual(CodeReader.withoutPartialReads([partial, itf14, elsewhere]).map(\.text), ["10012345678902", "12345678"])
    }

    func testInvalidPayloadsAreRefusedWithAReason() {
        XCTAssertThrowsError(try CodeBitmap(.ean13, payload: "not digits")) { XCTAssertFalse("\($0)".isEmpty) }
        XCTAssertThrowsError(try CodeBitmap(.code39Mod43, payload: "lower case"))
        XCTAssertThrowsError(try CodeBitmap(.microQR, payload: "x"), "the writer draws no Micro QR codes")
    }
}
