import XCTest
@testable import AVFoundation

/// AVCapturePhotoOutput as seed 001 (AVCam) uses it: settings, the delegate's timeline, JPEG and
/// uncompressed photos, zero shutter lag.
final class PhotoOutputTests: CaptureTestCase {
    /// Records a capture's delegate calls.
    final class Processor: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let calls = Recorder<String>()
        let photos = Recorder<AVCapturePhoto>()
        let errors = Recorder<Error>()
        let queues = Recorder<String>()
        var isFinished: Bool { calls.values.last == "didFinishCapture" }

        func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
            calls.append("willBeginCapture")
            queues.append(Thread.isMainThread ? "main" : "other")
        }
        func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) { calls.append("willCapturePhoto") }
        func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) { calls.append("didCapturePhoto") }
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            photos.append(photo)
            if let error { errors.append(error) }
            calls.append("didFinishProcessingPhoto")
        }
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
            calls.append("didFinishCapture")
        }
    }

    private func photoSession(preset: AVCaptureSession.Preset = .vga640x480) throws -> (AVCaptureSession, AVCapturePhotoOutput) {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCapturePhotoOutput()
        XCTAssertTrue(session.canAddOutput(output))
        session.addOutput(output)
        session.startRunning()
        XCTAssertTrue(waitUntil { output.maxPhotoDimensions.width > 0 })
        return (session, output)
    }

    func testAJPEGPhotoFollowsSeed001sTimelineAndDecodes() throws {
        let (_, output) = try photoSession()
        XCTAssertEqual(output.availablePhotoCodecTypes, [.jpeg])
        XCTAssertEqual(output.supportedFlashModes, [.off, .on, .auto], "the virtual back camera has a flash")
        let settings = AVCapturePhotoSettings()
        XCTAssertEqual(settings.photoCodecType, .jpeg)
        let processor = Processor()
        output.capturePhoto(with: settings, delegate: processor)
        XCTAssertTrue(waitUntil { processor.isFinished })
        XCTAssertEqual(processor.calls.values, ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"])
        XCTAssertEqual(processor.queues.values, ["other"], "delegates are called off the main thread, on the output's queue")
        let photo = try XCTUnwrap(processor.photos.values.first)
        XCTAssertTrue(processor.errors.values.isEmpty)
        XCTAssertEqual(photo.resolvedSettings.uniqueID, settings.uniqueID)
        XCTAssertEqual(photo.resolvedSettings.photoDimensions, CMVideoDimensions(width: 640, height: 480))
        XCTAssertEqual(photo.photoCount, 1)
        XCTAssertNil(photo.pixelBuffer, "a compressed photo has no pixel buffer")
        let jpeg = try XCTUnwrap(photo.fileDataRepresentation())
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8], "a JPEG file")
        // An independent decoder reads it at the photo's size.
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("photo-\(getpid()).jpg")
        try jpeg.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let video = try XCTUnwrap(MediaProbe.probe(url)?.video)
        XCTAssertEqual(video.codec, "mjpeg")
        XCTAssertEqual(video.width, 640)
        XCTAssertEqual(video.height, 480)
    }

    func testZeroShutterLagTakesTheFrameCurrentWhenAsked() throws {
        let (_, output) = try photoSession()
        XCTAssertTrue(output.isZeroShutterLagSupported)
        XCTAssertTrue(output.isZeroShutterLagEnabled)
        spin(0.3)
        let asked = CMClockGetTime(CMClockGetHostTimeClock())
        let processor = Processor()
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: processor)
        XCTAssertTrue(waitUntil { processor.isFinished })
        let taken = try XCTUnwrap(processor.photos.values.first).timestamp
        XCTAssertLessThanOrEqual(taken, asked, "the frame that was current, not a later one")
        XCTAssertGreaterThan(taken.seconds, asked.seconds - 0.1, "and not an old one: within a frame or two at 30 fps")
        // Without zero shutter lag, the next frame.
        output.isZeroShutterLagEnabled = false
        let later = Processor()
        let askedAgain = CMClockGetTime(CMClockGetHostTimeClock())
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: later)
        XCTAssertTrue(waitUntil { later.isFinished })
        XCTAssertGreaterThan(try XCTUnwrap(later.photos.values.first).timestamp, askedAgain)
    }

    func testUncompressedPhotosAndOverlappingCapturesKeepTheirOrder() throws {
        let (_, output) = try photoSession()
        let first = Processor(), second = Processor()
        let bgra = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.capturePhoto(with: bgra, delegate: first)
        output.capturePhoto(with: AVCapturePhotoSettings(from: bgra), delegate: second)
        XCTAssertTrue(waitUntil { first.isFinished && second.isFinished })
        for processor in [first, second] {
            XCTAssertEqual(processor.calls.values, ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"])
            let photo = try XCTUnwrap(processor.photos.values.first)
            let pixels = try XCTUnwrap(photo.pixelBuffer)
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(pixels), kCVPixelFormatType_32BGRA)
            XCTAssertEqual(CVPixelBufferGetWidth(pixels), 640)
            XCTAssertNil(photo.fileDataRepresentation(), "an uncompressed photo is its pixel buffer")
            let (luma, _) = PixelStatistics.measure(pixels)
            XCTAssertGreaterThan(luma, 20, "the scene, not an empty buffer")
        }
        XCTAssertNotEqual(first.photos.values.first?.resolvedSettings.uniqueID, second.photos.values.first?.resolvedSettings.uniqueID,
                          "init(from:) makes new settings")
    }

    func testFlashResolvesFromTheModeAndTheScene() throws {
        let (_, output) = try photoSession()
        func flash(_ mode: AVCaptureDevice.FlashMode) throws -> Bool {
            let settings = AVCapturePhotoSettings()
            settings.flashMode = mode
            let processor = Processor()
            output.capturePhoto(with: settings, delegate: processor)
            XCTAssertTrue(waitUntil { processor.isFinished })
            return try XCTUnwrap(processor.photos.values.first).resolvedSettings.isFlashEnabled
        }
        XCTAssertFalse(try flash(.off))
        XCTAssertTrue(try flash(.on))
        XCTAssertFalse(try flash(.auto), "a lit scene needs no flash")
        backCamera.virtualScene!.goDark()
        spin(0.5)
        XCTAssertTrue(try flash(.auto), "a dark one does")
        backCamera.virtualScene!.lightsOn()
    }
}
