import XCTest
@testable import AVFoundation

/// AVCaptureStillImageOutput, as seed 000's "Capturing Still Images" uses it.
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
        XCTAssertTrue(waitUntil { result.withLock { $0 != nil } })
        XCTAssertFalse(output.isCapturingStillImage)
        let (buffer, error) = try XCTUnwrap(result.withLock { $0 })
        XCTAssertNil(error)
        return try XCTUnwrap(buffer)
    }

    func testAJPEGStillIsTheEncodedFileAsIs() throws {
        let (_, output, connection) = try stillSession()
        XCTAssertEqual(output.availableImageDataCodecTypes, [.jpeg])
        XCTAssertEqual(output.outputSettings[AVVideoCodecKey] as? AVVideoCodecType, .jpeg, "JPEG by default")
        spin(0.3)
        let asked = CMClockGetTime(CMClockGetHostTimeClock())
        let still = try capture(output, connection)
        XCTAssertLessThanOrEqual(CMSampleBufferGetPresentationTimeStamp(still), asked, "the frame current when asked")
        let description = try XCTUnwrap(CMSampleBufferGetFormatDescription(still))
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(description), kCMVideoCodecType_JPEG)
        XCTAssertEqual(CMVideoFormatDescriptionGetDimensions(description), CMVideoDimensions(width: 640, height: 480))
        let jpeg = try XCTUnwrap(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(still))
        XCTAssertEqual(jpeg.count, CMBlockBufferGetDataLength(CMSampleBufferGetDataBuffer(still)!), "the bytes as encoded, not recompressed")
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
