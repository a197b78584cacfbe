import CoreImage
import Foundation
import XCTest

/// CIDetector on pictures whose features are known: QR codes placed at known places in a white
/// picture (made by CIQRCodeGenerator, read back by the detector), and scikit-image's astronaut
/// photograph (from Debian, fetched by scripts/fetch-test-pictures.sh), whose face dlib finds at
/// (179, 83), 88 pixels square, counted from the top left.
final class CIDetectorTests: XCTestCase {
    /// The astronaut's face in Core Image's coordinates (the picture is 512 pixels high; rows count up).
    private static let face = CGRect(x: 179, y: 512 - 83 - 88, width: 88, height: 88)

    private func astronaut() throws -> CIImage {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-pictures/astronaut.png")
        guard FileManager.default.fileExists(atPath: url.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(url.path) is missing: scripts/fetch-test-pictures.sh fetches it") }
            throw XCTSkip("astronaut.png is not fetched: run scripts/fetch-test-pictures.sh")
        }
        return try XCTUnwrap(CIImage(contentsOf: url))
    }

    /// A 400 x 300 white picture with a QR code of `message`, each module 6 units, its lower-left corner at `origin`.
    private func code(_ message: String, at origin: CGPoint) throws -> (image: CIImage, placed: CGRect) {
        let generator = try XCTUnwrap(CIFilter(name: "CIQRCodeGenerator"))
        generator.setValue(Data(message.utf8), forKey: "inputMessage")
        generator.setValue("M", forKey: "inputCorrectionLevel")
        let symbol = try XCTUnwrap(generator.outputImage)
        let scaled = symbol.transformed(by: CGAffineTransform(scaleX: 6, y: 6))
        let placed = scaled.transformed(by: CGAffineTransform(translationX: origin.x - scaled.extent.minX, y: origin.y - scaled.extent.minY))
        let white = CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 400, height: 300))
        return (placed.composited(over: white), placed.extent)
    }

    private func assertClose(_ a: CGPoint, _ b: CGPoint, within tolerance: CGFloat, _ message: String, line: UInt = #line) {
        XCTAssertLessThan(hypot(a.x - b.x, a.y - b.y), tolerance, "\(message): \(a) against \(b)", line: line)
    }

    func testAQRCodeIsFoundWhereItIsWithItsMessageCornersAndSymbol() throws {
        let (image, placed) = try code("https://example.com/detector", at: CGPoint(x: 150, y: 40))
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let features = detector.features(in: image)
        XCTAssertEqual(features.count, 1)
        let code = try XCTUnwrap(features.first as? CIQRCodeFeature)
        XCTAssertEqual(code.type, CIFeatureTypeQRCode)
        XCTAssertEqual(code.messageString, "https://example.com/detector")
        // The quiet zone is the generator's: the symbol's corners lie inside what was placed.
        let inset = placed.insetBy(dx: 6, dy: 6)
        XCTAssertTrue(placed.contains(code.bounds), "\(code.bounds) in \(placed)")
        XCTAssertGreaterThan(code.bounds.width, inset.width * 0.7, "\(code.bounds)")
        // Core Image's rows count up: the top corners are above the bottom ones.
        XCTAssertGreaterThan(code.topLeft.y, code.bottomLeft.y + 100)
        XCTAssertGreaterThan(code.topRight.x, code.topLeft.x + 100)
        assertClose(code.topLeft, CGPoint(x: code.bounds.minX, y: code.bounds.maxY), within: 8, "top left")
        assertClose(code.bottomRight, CGPoint(x: code.bounds.maxX, y: code.bounds.minY), within: 8, "bottom right")
        let symbol = try XCTUnwrap(code.symbolDescriptor)
        XCTAssertEqual(symbol.errorCorrectionLevel, .levelM)
        XCTAssertGreaterThanOrEqual(symbol.symbolVersion, 2)

        let archive = try NSKeyedArchiver.archivedData(withRootObject: code, requiringSecureCoding: true)
        let restored = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CIQRCodeFeature.self, from: archive))
        XCTAssertEqual(restored.messageString, code.messageString)
        XCTAssertEqual(restored.topRight, code.topRight)
        XCTAssertEqual(restored.symbolDescriptor, code.symbolDescriptor)
    }

    func testAnOrientationLeavesWhatIsFoundInTheImagesOwnCoordinates() throws {
        let (image, _) = try code("turned", at: CGPoint(x: 40, y: 120))
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeQRCode, context: CIContext(), options: nil))
        let plain = try XCTUnwrap(detector.features(in: image).first as? CIQRCodeFeature)
        for orientation in [3, 6, 8] {
            let turned = try XCTUnwrap(detector.features(in: image, options: [CIDetectorImageOrientation: orientation]).first as? CIQRCodeFeature)
            XCTAssertEqual(turned.messageString, "turned")
            XCTAssertEqual(turned.bounds.midX, plain.bounds.midX, accuracy: 3, "orientation \(orientation)")
            XCTAssertEqual(turned.bounds.midY, plain.bounds.midY, accuracy: 3, "orientation \(orientation)")
        }
    }

    func testTwoCodesAreBothFoundAndAMaximumCountIsKept() throws {
        let (first, left) = try code("first", at: CGPoint(x: 10, y: 60))
        let (second, right) = try code("second", at: CGPoint(x: 220, y: 60))
        XCTAssertFalse(left.intersects(right))
        let both = second.cropped(to: right).composited(over: first)
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeQRCode, context: nil))
        let messages = detector.features(in: both).compactMap { ($0 as? CIQRCodeFeature)?.messageString }
        XCTAssertEqual(Set(messages), ["first", "second"])
        let one = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: [CIDetectorMaxFeatureCount: 1]))
        XCTAssertEqual(one.features(in: both).count, 1)
    }

    func testTheAstronautsFaceEyesAndMouthAreFoundUpright() throws {
        let image = try astronaut()
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let features = detector.features(in: image)
        XCTAssertEqual(features.count, 1, "\(features.map(\.bounds))")
        let face = try XCTUnwrap(features.first as? CIFaceFeature)
        XCTAssertEqual(face.type, CIFeatureTypeFace)
        XCTAssertEqual(face.bounds.midX, Self.face.midX, accuracy: 6)
        XCTAssertEqual(face.bounds.midY, Self.face.midY, accuracy: 6)
        XCTAssertTrue(face.hasLeftEyePosition && face.hasRightEyePosition && face.hasMouthPosition, "the landmark model is installed")
        // The observer's left eye is left of the right one; both are above the mouth (rows count up), all in the face.
        XCTAssertLessThan(face.leftEyePosition.x + 20, face.rightEyePosition.x)
        XCTAssertGreaterThan(face.leftEyePosition.y, face.mouthPosition.y + 15)
        XCTAssertGreaterThan(face.rightEyePosition.y, face.mouthPosition.y + 15)
        XCTAssertEqual(face.mouthPosition.x, (face.leftEyePosition.x + face.rightEyePosition.x) / 2, accuracy: 10)
        for point in [face.leftEyePosition, face.rightEyePosition, face.mouthPosition] {
            XCTAssertTrue(face.bounds.insetBy(dx: -10, dy: -10).contains(point), "\(point) in \(face.bounds)")
        }
        XCTAssertTrue(face.hasFaceAngle)
        XCTAssertLessThan(abs(face.faceAngle), 8, "her eyes are nearly level")
        XCTAssertFalse(face.hasTrackingID, "not asked to track")
        XCTAssertTrue(
            detector.features(in: CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 300, height: 200))).isEmpty)
    }

    func testAFaceTiltedCounterclockwiseHasThatAngle() throws {
        let image = try astronaut()
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        let level = try XCTUnwrap(detector.features(in: image).first as? CIFaceFeature)
        for degrees in [10.0, -10.0] {
            // Core Image's rows count up: a positive angle turns the picture counterclockwise as seen.
            let tilted = image.transformed(by: CGAffineTransform(rotationAngle: degrees * .pi / 180))
            let face = try XCTUnwrap(detector.features(in: tilted).first as? CIFaceFeature, "tilted \(degrees)")
            XCTAssertEqual(Double(face.faceAngle), Double(level.faceAngle) + degrees, accuracy: 5, "tilted \(degrees)")
        }
    }

    func testMoreAnglesFindFacesLeaningFurtherWithTheirAngleAndPlace() throws {
        let image = try astronaut()
        let level = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil)?.features(in: image).first as? CIFaceFeature)
        // dlib finds her leaning up to about 35 degrees; the perspectives are 30 degrees apart.
        for (degrees, angles) in [(60.0, 3), (-60.0, 3), (90.0, 5), (180.0, 11)] {
            let tilt = CGAffineTransform(rotationAngle: degrees * .pi / 180)
            let tilted = image.transformed(by: tilt)
            let centre = CGPoint(x: Self.face.midX, y: Self.face.midY).applying(tilt)
            func herFace(_ angles: Int) throws -> CIFaceFeature? {
                let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorNumberOfAngles: angles]))
                return detector.features(in: tilted).compactMap { $0 as? CIFaceFeature }
                    .first { hypot($0.bounds.midX - centre.x, $0.bounds.midY - centre.y) < 30 }
            }
            XCTAssertNil(try herFace(angles - 2), "leaning \(degrees) degrees: not found with \(angles - 2) angles")
            let face = try XCTUnwrap(try herFace(angles), "leaning \(degrees) degrees, \(angles) angles")
            assertClose(CGPoint(x: face.bounds.midX, y: face.bounds.midY), centre, within: 10, "leaning \(degrees) degrees")
            XCTAssertEqual(face.bounds.width, Self.face.width, accuracy: 20, "the face's own size, not the box around it turned")
            let angle = Double(face.faceAngle) - Double(level.faceAngle) - degrees
            XCTAssertEqual(remainder(angle, 360), 0, accuracy: 6, "leaning \(degrees) degrees: \(face.faceAngle)")
            // The eyes are where the turn puts them.
            assertClose(face.leftEyePosition, level.leftEyePosition.applying(tilt), within: 8, "left eye, \(degrees) degrees")
        }
    }

    func testATurnedFaceIsFoundWhenTheOrientationSaysWhichWayIsUp() throws {
        let upright = try astronaut()
        // Stored a quarter turn: shown as it should be once turned as orientation 8 (left) says... and found only then.
        let turn = upright.orientationTransform(for: .right)
        let stored = upright.transformed(by: turn)
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil))
        XCTAssertTrue(detector.features(in: stored).isEmpty, "a face lying on its side is not a frontal face")
        let face = try XCTUnwrap(
            detector.features(in: stored, options: [CIDetectorImageOrientation: Int(CGImagePropertyOrientation.left.rawValue)]).first as? CIFaceFeature)
        let expected = Self.face.applying(turn)
        XCTAssertEqual(face.bounds.midX, expected.midX, accuracy: 6, "in the stored image's coordinates")
        XCTAssertEqual(face.bounds.midY, expected.midY, accuracy: 6, "in the stored image's coordinates")
        XCTAssertLessThan(abs(face.faceAngle), 8, "level as seen upright")
    }

    func testTrackingKeepsAFacesIdentifierAndCountsItsFrames() throws {
        let image = try astronaut()
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorTracking: true]))
        let first = try XCTUnwrap(detector.features(in: image).first as? CIFaceFeature)
        let moved = image.transformed(by: CGAffineTransform(translationX: 8, y: -5))
        let second = try XCTUnwrap(detector.features(in: moved).first as? CIFaceFeature)
        XCTAssertTrue(first.hasTrackingID && first.hasTrackingFrameCount)
        XCTAssertEqual(second.trackingID, first.trackingID, "the same face, a little further on")
        XCTAssertEqual([first.trackingFrameCount, second.trackingFrameCount], [1, 2])
        _ = detector.features(in: CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: image.extent))
        let again = try XCTUnwrap(detector.features(in: image).first as? CIFaceFeature)
        XCTAssertNotEqual(again.trackingID, first.trackingID, "a face that went away and came back is a new one")
        XCTAssertEqual(again.trackingFrameCount, 1)
    }

    func testTheSmallestFaceAskedForAndTheLowAccuracyAreKept() throws {
        let image = try astronaut()
        // The face is 88 of the picture's 512: a sixth of it.
        let large = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorMinFeatureSize: 0.5]))
        XCTAssertTrue(large.features(in: image).isEmpty, "faces half the picture or larger only")
        let small = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorMinFeatureSize: NSNumber(value: 0.1)]))
        XCTAssertEqual(small.features(in: image).count, 1)
        let low = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeFace, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyLow]))
        XCTAssertEqual(low.features(in: image).count, 1)
    }

    func testTypesWithoutADetectorHereAndPicturesWithoutPixelsGiveNothing() throws {
        XCTAssertNil(CIDetector(ofType: CIDetectorTypeRectangle, context: nil))
        XCTAssertNil(CIDetector(ofType: CIDetectorTypeText, context: nil))
        XCTAssertNil(CIDetector(ofType: "CIDetectorTypeCats", context: nil))
        let detector = try XCTUnwrap(CIDetector(ofType: CIDetectorTypeQRCode, context: nil))
        XCTAssertTrue(detector.features(in: CIImage(color: CIColor(red: 1, green: 0, blue: 0))).isEmpty, "an infinite image")
        XCTAssertTrue(detector.features(in: CIImage.empty()).isEmpty)
    }
}
