import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// AVCaptureVideoPreviewLayer as the AV Foundation Programming Guide and WWDC sessions 409 (2010) and 610 (2013) describe it: the session it previews, its
/// connection, gravity, the conversions between layer and device coordinates, and (on Linux) the
/// frames it hands to whoever draws them.
final class PreviewLayerTests: CaptureTestCase {
    private func geometry(
        _ gravity: AVLayerVideoGravity, rotation: Int, mirrored: Bool, sensor: CGSize = CGSize(width: 640, height: 480),
        bounds: CGRect = CGRect(x: 0, y: 0, width: 300, height: 400)
    ) -> PreviewGeometry {
        PreviewGeometry(sensorSize: sensor, rotationDegrees: rotation, mirrored: mirrored, gravity: gravity, bounds: bounds)
    }

    func testEveryGravityRotationAndMirroringRoundTrips() {
        let points = [CGPoint(x: 0.1, y: 0.2), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 0.9, y: 0.75), CGPoint(x: 0, y: 1)]
        for gravity in [AVLayerVideoGravity.resizeAspect, .resizeAspectFill, .resize] {
            for rotation in [0, 90, 180, 270] {
                for mirrored in [false, true] {
                    let g = geometry(gravity, rotation: rotation, mirrored: mirrored, sensor: CGSize(width: 1280, height: 720))
                    for point in points {
                        let back = g.devicePoint(fromLayerPoint: g.layerPoint(fromDevicePoint: point))
                        XCTAssertEqual(back.x, point.x, accuracy: 1e-9, "\(gravity.rawValue) \(rotation) \(mirrored)")
                        XCTAssertEqual(back.y, point.y, accuracy: 1e-9, "\(gravity.rawValue) \(rotation) \(mirrored)")
                    }
                    // The device's centre is always the layer's centre.
                    let centre = g.layerPoint(fromDevicePoint: CGPoint(x: 0.5, y: 0.5))
                    XCTAssertEqual(centre.x, 150, accuracy: 1e-9)
                    XCTAssertEqual(centre.y, 200, accuracy: 1e-9)
                    let rect = CGRect(x: 20, y: 30, width: 100, height: 50)
                    let there = g.layerRect(fromDeviceRect: g.deviceRect(fromLayerRect: rect))
                    XCTAssertEqual(there.minX, rect.minX, accuracy: 1e-9)
                    XCTAssertEqual(there.height, rect.height, accuracy: 1e-9)
                }
            }
        }
    }

    func testTheSensorsCornersLandWhereTheTurnAndMirrorPutThem() {
        // A 640x480 sensor turned a quarter clockwise fills a 300x400 portrait layer exactly.
        let turned = geometry(.resizeAspect, rotation: 90, mirrored: false)
        XCTAssertEqual(turned.videoRect, CGRect(x: 0, y: 0, width: 300, height: 400))
        XCTAssertEqual(turned.layerPoint(fromDevicePoint: .zero), CGPoint(x: 300, y: 0), "the sensor's top left turns to the top right")
        XCTAssertEqual(turned.layerPoint(fromDevicePoint: CGPoint(x: 1, y: 0)), CGPoint(x: 300, y: 400))
        XCTAssertEqual(
            geometry(.resizeAspect, rotation: 90, mirrored: true).layerPoint(fromDevicePoint: .zero), CGPoint(x: 0, y: 0), "and mirrored back to the top left")
        XCTAssertEqual(
            geometry(.resizeAspect, rotation: 180, mirrored: false).layerPoint(fromDevicePoint: .zero), CGPoint(x: 300, y: 312.5),
            "upside down, letterboxed: the picture's bottom right")
        XCTAssertEqual(geometry(.resizeAspect, rotation: 270, mirrored: false).layerPoint(fromDevicePoint: .zero), CGPoint(x: 0, y: 400))
        // Unturned in the portrait layer: letterboxed above and below for aspect fit.
        let fit = geometry(.resizeAspect, rotation: 0, mirrored: false)
        XCTAssertEqual(fit.videoRect, CGRect(x: 0, y: 87.5, width: 300, height: 225))
        XCTAssertEqual(fit.devicePoint(fromLayerPoint: CGPoint(x: 150, y: 87.5)), CGPoint(x: 0.5, y: 0))
        // Aspect fill crops the sides instead: the layer's left edge is a third of the way in.
        let fill = geometry(.resizeAspectFill, rotation: 0, mirrored: false)
        XCTAssertEqual(fill.videoRect.height, 400, accuracy: 1e-9)
        XCTAssertEqual(fill.devicePoint(fromLayerPoint: CGPoint(x: 0, y: 200)).x, (fill.videoRect.width - 300) / 2 / fill.videoRect.width, accuracy: 1e-9)
        // Resize stretches: layer and device are the same rectangle.
        XCTAssertEqual(geometry(.resize, rotation: 0, mirrored: false).devicePoint(fromLayerPoint: CGPoint(x: 75, y: 300)), CGPoint(x: 0.25, y: 0.75))
    }

    func testARectOfInterestDrawnOnThePreviewBecomesMetadataCoordinates() throws {
        // WWDC 2013 session 610: a rect of interest drawn on a portrait preview of a landscape sensor.
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 300, height: 400)
        layer.connection?.videoRotationAngle = 90
        let drawn = CGRect(x: 0, y: 0, width: 150, height: 100)  // the top-left quarter's upper half
        let interest = layer.metadataOutputRectConverted(fromLayerRect: drawn)
        XCTAssertEqual(interest.minX, 0, accuracy: 1e-9)
        XCTAssertEqual(interest.width, 0.25, accuracy: 1e-9)
        XCTAssertEqual(interest.minY, 0.5, accuracy: 1e-9)
        XCTAssertEqual(interest.height, 0.5, accuracy: 1e-9)
        XCTAssertEqual(layer.layerRectConverted(fromMetadataOutputRect: interest), drawn)
        let object = AVMetadataObject(type: AVMetadataObject.ObjectType(rawValue: "test"), time: .zero, duration: .zero, bounds: interest)
        XCTAssertEqual(layer.transformedMetadataObject(for: object)?.bounds, drawn)
    }

    func testThePreviewIsTheSessionsWithoutBeingOneOfItsOutputs() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: frontCamera))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        XCTAssertTrue(layer.session === session)
        XCTAssertTrue(session.outputs.isEmpty, "a preview layer is not an output")
        let connection = try XCTUnwrap(layer.connection)
        XCTAssertTrue(session.connections.contains { $0 === connection })
        XCTAssertTrue(connection.videoPreviewLayer === layer)
        XCTAssertTrue(connection.isVideoMirrored, "the front camera's preview is mirrored by default")
        XCTAssertEqual(layer.videoGravity, .resizeAspect)
        XCTAssertFalse(layer.isPreviewing)
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil(camera: frontCamera) { layer.isPreviewing })

        let unconnected = AVCaptureVideoPreviewLayer(sessionWithNoConnection: session)
        XCTAssertNil(unconnected.connection)
        let port = try XCTUnwrap(session.inputs.first?.ports.first { $0.mediaType == .video })
        let manual = AVCaptureConnection(inputPort: port, videoPreviewLayer: unconnected)
        XCTAssertTrue(session.canAddConnection(manual))
        session.addConnection(manual)
        XCTAssertTrue(manual.videoPreviewLayer === unconnected)
    }

    func testFramesComeWithNoOutputShapedForTheBoundsAndGravity() async throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .hd1280x720
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 320, height: 320)
        session.startRunning()
        var frames = layer.linuxPreviewFrames.makeAsyncIterator()
        let first = await frames.next()
        let fit = try XCTUnwrap(first)
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(fit), kCVPixelFormatType_32BGRA)
        XCTAssertEqual([CVPixelBufferGetWidth(fit), CVPixelBufferGetHeight(fit)], [320, 180], "aspect fit: the picture's part of the layer")
        layer.videoGravity = .resizeAspectFill
        layer.connection?.videoRotationAngle = 90
        var filled: CVPixelBuffer?
        for _ in 0..<10 {
            filled = await frames.next()
            if let filled, CVPixelBufferGetHeight(filled) == 320 { break }
        }
        XCTAssertEqual(filled.map { [CVPixelBufferGetWidth($0), CVPixelBufferGetHeight($0)] }, [320, 320], "aspect fill: the whole layer, cropped")
        XCTAssertGreaterThan(PixelStatistics.measure(try XCTUnwrap(filled)).0, 20, "the scene")
        XCTAssertTrue(session.outputs.isEmpty)
    }

    func testASlowDrawerMissesFramesWithoutSlowingTheSessionsOutputs() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let frames = AVCaptureVideoDataOutput()
        let sizes = Recorder<String>()
        let recorder = FrameSizeRecorder(sizes)
        frames.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "frames"))
        session.addOutput(frames)
        let layer = AVCaptureVideoPreviewLayer(session: session)
        let drawn = Recorder<Int>()
        // A viewer slower than real time: this test keeps the host clock.
        layer.setLinuxPreviewFrameHandler(
            { buffer in
                Thread.sleep(forTimeInterval: 0.25)  // a viewer that takes a quarter of a second a frame
                drawn.append(CVPixelBufferGetWidth(buffer))
            }, queue: DispatchQueue(label: "slow viewer"))
        session.startRunning()
        spin(2)
        layer.setLinuxPreviewFrameHandler(nil)
        XCTAssertGreaterThan(sizes.values.count, 45, "the data output kept its 30 fps: \(sizes.values.count) frames in 2 s")
        XCTAssertLessThan(drawn.values.count, 10, "the slow viewer drew only what it could")
        XCTAssertGreaterThan(drawn.values.count, 3)
    }

    func testADrawerThatKeepsFramesHoldsAtMostThePoolAndGetsMoreOnceItLetsGo() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        let kept = Recorder<CVPixelBuffer>()
        let hoarder = DispatchQueue(label: "hoarder")
        layer.setLinuxPreviewFrameHandler({ kept.append($0) }, queue: hoarder)
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { kept.values.count >= PreviewFrameRenderer.poolSize })
        pass(1)
        hoarder.sync {}
        XCTAssertEqual(kept.values.count, PreviewFrameRenderer.poolSize, "a drawer holding every frame gets the pool's worth and no more")
        layer.setLinuxPreviewFrameHandler(nil)
        kept.removeAll()
        let counted = Recorder<Int>()
        layer.setLinuxPreviewFrameHandler({ counted.append(CVPixelBufferGetWidth($0)) }, queue: DispatchQueue(label: "viewer"))
        XCTAssertTrue(advanceUntil { counted.values.count > 15 }, "frames flow again once the held ones are let go")
        layer.setLinuxPreviewFrameHandler(nil)
    }
}
