import AppleStyleCode
import CoreImage
import XCTest

/// Core Image's detectors through code written as iOS apps use them: a QR code drawn by
/// CIQRCodeGenerator and read back from a CGImage, and scikit-image's astronaut photograph (from
/// Debian, fetched by scripts/fetch-test-pictures.sh) searched for faces.
final class PhotoFeatureFinderTests: XCTestCase {
    func testTheQRCodesLinkIsReadFromACGImage() throws {
        let generator = try XCTUnwrap(CIFilter(name: "CIQRCodeGenerator", parameters: ["inputMessage": Data("https://example.org/menu".utf8)]))
        let symbol = try XCTUnwrap(generator.outputImage).transformed(by: CGAffineTransform(scaleX: 8, y: 8))
        let image = try XCTUnwrap(CIContext().createCGImage(symbol, from: symbol.extent))
        XCTAssertEqual(PhotoFeatureFinder.qrCodeLinks(in: image), ["https://example.org/menu"])
        let blank = try XCTUnwrap(CIContext().createCGImage(CIImage(color: .white), from: CGRect(x: 0, y: 0, width: 64, height: 64)))
        XCTAssertEqual(PhotoFeatureFinder.qrCodeLinks(in: blank), [])
    }

    func testTheAstronautsFaceIsFoundWithItsEyesAboveItsMouth() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-pictures/astronaut.png")
        guard FileManager.default.fileExists(atPath: url.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(url.path) is missing: scripts/fetch-test-pictures.sh fetches it") }
            throw XCTSkip("astronaut.png is not fetched: run scripts/fetch-test-pictures.sh")
        }
        let faces = PhotoFeatureFinder.faces(inPhotoAt: url)
        XCTAssertEqual(faces.count, 1)
        let face = try XCTUnwrap(faces.first)
        // dlib finds her face at (179, 83), 88 pixels square, from the top left of the 512-pixel picture.
        XCTAssertEqual(face.bounds.midX, 223, accuracy: 6)
        XCTAssertEqual(face.bounds.midY, 512 - 127, accuracy: 6)
        let left = try XCTUnwrap(face.leftEye), right = try XCTUnwrap(face.rightEye), mouth = try XCTUnwrap(face.mouth)
        XCTAssertLessThan(left.x, right.x)
        XCTAssertGreaterThan(min(left.y, right.y), mouth.y)
        XCTAssertNotNil(face.angle)
        XCTAssertTrue(PhotoFeatureFinder.faces(inPhotoAt: url.deletingLastPathComponent().appendingPathComponent("no-such.png")).isEmpty)
    }
}
