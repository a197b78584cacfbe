import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVCaptureStillImageOutput, as the AV Foundation Programming Guide's "Capturing Still Images" uses it.
final class StillImageOutputTests: CaptureTestCase {
    private func stillSession() throws -> (AVCaptureSession, AVCaptureStillImageOutput, AVCaptureConnection) {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCaptureStillImageOutput()
        session.addOutput(output)
        session.startRunning()
        let connection = try XCTUnwrap(output.connection(with: .video))
        return (session, output, connection)
    }

    private func capture(_ output: AVCaptureStillImageOutput, _ connection: AVCaptureConnection) throws -> CMSampleBuffer {
        let result = LockedValue<(CMSampleBuffer?, Error?)?>(nil)
        output.captureStillImageAsynchronously(from: connection) { buffer, error in result.withLock { $0 = (buffer, error) } }
        XCTAssertTrue(output.isCapturingStillImage || result.withLock { $0 != nil })
        let done = { result.withLock { $0 != nil } }
        XCTAssertTrue(backCamera.virtualScene!.clock.isManuallyAdvanced ? advanceUntil(done) : waitUntil(done))
        XCTAssertFalse(output.isCapturingStillImage)
        let (buffer, error) = try XCTUnwrap(result.withLock { $0 })
        XCTAssertNil(error)
        return try XCTUnwrap(buffer)
    }

    func testAJPEGStillIsTheEncodedFileAsIs() throws {
        useManualClock()
        let (_, output, connection) = try stillSession()
        XCTAssertEqual(output.availableImageDataCodecTypes, [.jpeg])
        XCTAssertEqual(output.outputSettings[AVVideoCodecKey] as? AVVideoCodecType, .jpeg, "JPEG by default")
        pass(0.3)
        let asked = manualClock.now
        let still = try capture(output, connection)
        XCTAssertLessThanOrEqual(CMSampleBufferGetPresentationTimeStamp(still), asked, "the frame current when asked")
        let description = try XCTUnwrap(CMSampleBufferGetFormatDescription(still))
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(description), kCMVideoCodecType_JPEG)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(description), CMVideoDimensions(width: 640, height: 480))
        // The capture's metadata rides along as attachments; an app adds its own before writing the file.
        let exif = try XCTUnwrap(CMGetAttachment(still, key: kCGImagePropertyExifDictionary, attachmentModeOut: nil) as? [String: Any])
        XCTAssertNotNil(exif[kCGImagePropertyExifExposureTime as String])
        XCTAssertNotNil(exif[kCGImagePropertyExifDateTimeOriginal as String])
        let gps: [String: Any] = [kCGImagePropertyGPSLatitude as String: 51.5, kCGImagePropertyGPSLatitudeRef as String: "N"]
        CMSetAttachment(still, key: kCGImagePropertyGPSDictionary, value: gps as CFTypeRef, attachmentMode: kCMAttachmentMode_ShouldPropagate)
        let jpeg = try XCTUnwrap(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(still))
        let encoded = try CMSampleBufferGetDataBuffer(still)!.dataBytes()
        XCTAssertEqual(ImageTools.removingExif(from: jpeg), encoded, "the bytes as encoded, not recompressed: only the EXIF segment is added")
        if ImageTools.hasExifTool {
            let tags = try ImageTools.exif(of: jpeg, fileExtension: "jpg")
            XCTAssertEqual(tags["Make"] as? String, backCamera.manufacturer)
            XCTAssertEqual(try XCTUnwrap(tags["GPSLatitude"] as? Double), 51.5, accuracy: 0.0001)
            XCTAssertNotNil(tags["ExposureTime"])
        }
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("still-\(getpid()).jpg")
        try jpeg.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let video = try XCTUnwrap(MediaProbe.probe(url)?.video)
        XCTAssertEqual(video.codec, "mjpeg")
        XCTAssertEqual(video.width, 640)
    }

    func testUncompressedStillsCarryTheirPixels() throws {
        let (_, output, connection) = try stillSession()
        output.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        let still = try capture(output, connection)
        let pixels = try XCTUnwrap(CMSampleBufferGetImageBuffer(still))
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(pixels), kCVPixelFormatType_32BGRA)
        XCTAssertEqual(CVPixelBufferGetWidth(pixels), 640)
        XCTAssertGreaterThan(PixelStatistics.measure(pixels).0, 20, "the scene, not an empty buffer")
    }
}
