@testable import AVFoundation
import CaptureTestSupport
import XCTest

/// Rectangles between an output's own pictures and metadata output coordinates: the sensor's
/// unturned frame, normalized, as the output's connection turns and mirrors it.
final class OutputCoordinateTests: CaptureTestCase {
    private func assertRect(_ rect: CGRect, _ expected: CGRect, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        for (a, b) in [(rect.minX, expected.minX), (rect.minY, expected.minY), (rect.width, expected.width), (rect.height, expected.height)] {
            XCTAssertEqual(a, b, accuracy: 1e-6, "\(message): \(rect), not \(expected)", file: file, line: line)
        }
    }

    func testRectanglesConvertAsTheConnectionTurnsAndMirrorsThePictures() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        let connection = try XCTUnwrap(output.connection(with: .video))
        // The sensor's top-left quarter-wide strip: x from 0 to 0.5, y from 0 to 0.25.
        let strip = CGRect(x: 0, y: 0, width: 0.5, height: 0.25)
        assertRect(output.outputRectConverted(fromMetadataOutputRect: strip), CGRect(x: 0, y: 0, width: 320, height: 120), "upright: pixels of 640x480")
        connection.videoRotationAngle = 90
        // Turned a quarter clockwise (480x640): the sensor's top edge is the picture's right edge.
        let turned = output.outputRectConverted(fromMetadataOutputRect: strip)
        assertRect(turned, CGRect(x: 360, y: 0, width: 120, height: 320), "turned for portrait")
        assertRect(output.metadataOutputRectConverted(fromOutputRect: turned), strip, "and back")
        connection.videoRotationAngle = 0
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        assertRect(
            output.outputRectConverted(fromMetadataOutputRect: strip), CGRect(x: 320, y: 0, width: 320, height: 120), "mirrored: the left half on the right")
        let face = AVMetadataObject(type: .face, time: .zero, duration: .invalid, bounds: strip)
        let transformed = try XCTUnwrap(output.transformedMetadataObject(for: face, connection: connection))
        assertRect(transformed.bounds, CGRect(x: 320, y: 0, width: 320, height: 120), "a face's bounds in the output's pictures")
        XCTAssertNil(AVCaptureVideoDataOutput().transformedMetadataObject(for: face, connection: connection), "not the output's connection")
    }
}
