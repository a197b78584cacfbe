import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing
import TestSupport

/// AVCaptureMetadataOutput as WWDC 2013 session 610 describes it, on codes the virtual camera's scene prints:
/// every symbology through the camera path, corners where the scene put them, the rect of
/// interest, and detection that never slows the frame path.
final class MetadataOutputTests: CaptureTestCase {
    /// Records the delegate's calls.
    final class Receiver: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        let calls = Recorder<[AVMetadataObject]>()
        var delay: TimeInterval = 0
        /// When set, each call holds on until the test signals it.
        var hold: DispatchSemaphore? {
            get { holdLock.withLock { heldBy } }
            set { holdLock.withLock { heldBy = newValue } }
        }
        private let holdLock = NSLock()
        private var heldBy: DispatchSemaphore?
        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
            calls.append(metadataObjects)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            hold?.wait()
        }
        var codes: [AVMetadataMachineReadableCodeObject] { calls.values.last?.compactMap { $0 as? AVMetadataMachineReadableCodeObject } ?? [] }
    }

    private let receiver = Receiver()
    private var scene: VirtualScene { backCamera.virtualScene! }

    override func tearDown() {
        scene.removeAllCodes()
        scene.removeAllPictures()
        super.tearDown()
    }

    /// A running 640x480 session from the back camera to a metadata output looking for `types`.
    private func metadataSession(_ types: [AVMetadataObject.ObjectType], collector: FrameCollector? = nil) throws -> (AVCaptureSession, AVCaptureMetadataOutput)
    {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCaptureMetadataOutput()
        XCTAssertTrue(session.canAddOutput(output))
        session.addOutput(output)
        if let collector {
            let video = AVCaptureVideoDataOutput()
            video.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutput(video)
        }
        output.setMetadataObjectsDelegate(receiver, queue: DispatchQueue(label: "metadata"))
        output.metadataObjectTypes = types
        session.startRunning()
        return (session, output)
    }

    func testTypesAreAvailableOnceConnectedToACameraAndNoneAreDetectedByDefault() throws {
        useManualClock()
        let output = AVCaptureMetadataOutput()
        XCTAssertEqual(output.availableMetadataObjectTypes, [], "not connected yet")
        XCTAssertEqual(output.metadataObjectTypes, [], "WWDC 2013 session 610: empty by default")
        XCTAssertEqual(output.rectOfInterest, CGRect(x: 0, y: 0, width: 1, height: 1))
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        session.addOutput(output)
        let connection = try XCTUnwrap(output.connection(with: .metadataObject), "a camera input's metadata object port")
        XCTAssertEqual(connection.inputPorts.first?.mediaType, .metadataObject)
        for type in [
            AVMetadataObject.ObjectType.upce, .code39, .code39Mod43, .ean13, .ean8, .code93, .code128, .pdf417, .qr, .aztec,
            .dataMatrix, .itf14, .interleaved2of5, .codabar, .gs1DataBar, .microQR,
        ] {
            XCTAssertTrue(output.availableMetadataObjectTypes.contains(type), "\(type.rawValue)")
        }
        // Nothing asked for, nothing detected, though a code is in view.
        try scene.placeCode(.qr, payload: "unasked", center: CGPoint(x: 0.5, y: 0.5), width: 0.3)
        output.setMetadataObjectsDelegate(receiver, queue: DispatchQueue(label: "metadata"))
        session.startRunning()
        pass(0.6)
        XCTAssertEqual(receiver.calls.values.count, 0, "eighteen frames with a code in view, and no call")
        XCTAssertEqual(output.linuxDetectionStatistics.framesSearched, 0)
    }

    func testEverySymbologyIsReadThroughTheCameraWithItsCorners() throws {
        let (_, output) = try metadataSession([.qr])
        for (symbology, payload) in CodePayloads.valid.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let type = AVMetadataObject.ObjectType(rawValue: symbology.rawValue)
            output.metadataObjectTypes = [type]
            scene.removeAllCodes()
            receiver.calls.removeAll()
            let width: CGFloat = symbology.isMatrix ? 0.4 : 0.8
            let id = try scene.placeCode(type, payload: payload, center: CGPoint(x: 0.5, y: 0.55), width: width)
            XCTAssertTrue(waitUntil(timeout: 5) { receiver.codes.contains { $0.type == type } }, "\(symbology.rawValue) read through the camera")
            guard let code = receiver.codes.first(where: { $0.type == type }) else { continue }
            XCTAssertEqual(code.stringValue, payload, "\(symbology)")
            XCTAssertEqual(code.corners.count, 4)
            XCTAssertTrue(code.bounds.contains(CGPoint(x: 0.5, y: 0.55)), "\(symbology): \(code.bounds)")
            XCTAssertGreaterThan(code.time.seconds, 0)
            // Core Image's descriptor where the reader tells enough of the symbol: QR and Data Matrix codes.
            switch symbology {
            case .qr: XCTAssertTrue(code.descriptor is CIQRCodeDescriptor, "\(String(describing: code.descriptor))")
            case .dataMatrix: XCTAssertTrue(code.descriptor is CIDataMatrixCodeDescriptor, "\(String(describing: code.descriptor))")
            default: XCTAssertNil(code.descriptor, "\(symbology)")
            }
            if symbology.isMatrix {
                let placed = try XCTUnwrap(scene.symbolCorners(ofCode: id))
                for (found, expected) in zip(code.corners, placed) {
                    // Within a few pixels of 640x480 (a module is about four).
                    XCTAssertEqual(found.x, expected.x, accuracy: 6.0 / 640, "\(symbology) corner x")
                    XCTAssertEqual(found.y, expected.y, accuracy: 6.0 / 480, "\(symbology) corner y")
                }
            }
        }
    }

    func testSymbologiesZXingDoesNotDrawAreReadThroughTheCameraFromZintsPictures() throws {
        // GS1 DataBar, its Expanded and Limited forms, Micro QR and MicroPDF417, drawn by Debian's zint.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zint") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("zint (Debian's zint package) draws these codes") }
            throw XCTSkip("zint is not installed")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("zint-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(AVMetadataObject.ObjectType, zint: String, data: String, expected: String)] = [
            (.gs1DataBar, "29", "0101234567890", "(01)01012345678904"),
            (.gs1DataBarExpanded, "31", "[01]98898765432106[3103]000123", "(01)98898765432106(3103)000123"),
            (.gs1DataBarLimited, "30", "0100123456789", "(01)01001234567894"),
            (.microQR, "97", "01234567", "01234567"),
            (.microPDF417, "84", "MicroPDF417", "MicroPDF417"),
        ]
        let (_, output) = try metadataSession([.qr])
        for (type, symbology, data, expected) in cases {
            let file = folder.appendingPathComponent("\(symbology).png")
            let zint = Process()
            zint.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
            zint.arguments = ["-b", symbology, "-d", data, "--scale=2", "--whitesp=4", "--vwhitesp=4", "-o", file.path]
            try zint.run()
            zint.waitUntilExit()
            XCTAssertEqual(zint.terminationStatus, 0, "zint drew \(type.rawValue)")
            let grey = try GreyPicture.decode(Data(contentsOf: file))
            scene.removeAllPictures()
            receiver.calls.removeAll()
            output.metadataObjectTypes = [type]
            // Printed at its own size: one of zint's pixels to one of the frame's.
            let corners = ScenePicture.corners(
                width: grey.width, height: grey.height, center: CGPoint(x: 0.5, y: 0.5),
                width: CGFloat(grey.width) / 640, rotation: 0, aspectRatio: 4.0 / 3.0)
            _ = scene.placePicture(grey, corners: corners)
            XCTAssertTrue(waitUntil(timeout: 5) { receiver.codes.contains { $0.type == type } }, "\(type.rawValue) read through the camera")
            XCTAssertEqual(receiver.codes.first { $0.type == type }?.stringValue, expected)
        }
        scene.removeAllPictures()
    }

    func testZoomKeepsCoordinatesRelativeToWhatTheFrameShows() throws {
        let (_, _) = try metadataSession([.qr])
        try scene.placeCode(.qr, payload: "zoomed", center: CGPoint(x: 0.55, y: 0.5), width: 0.15)
        XCTAssertTrue(waitUntil(timeout: 5) { !receiver.codes.isEmpty })
        let unzoomed = try XCTUnwrap(receiver.codes.first).bounds
        try backCamera.lockForConfiguration()
        backCamera.videoZoomFactor = 2
        backCamera.unlockForConfiguration()
        defer { try? backCamera.lockForConfiguration(); backCamera.videoZoomFactor = 1; backCamera.unlockForConfiguration() }
        receiver.calls.removeAll()
        XCTAssertTrue(waitUntil(timeout: 5) { (receiver.codes.first?.bounds.width ?? 0) > unzoomed.width * 1.8 })
        let zoomed = try XCTUnwrap(receiver.codes.first).bounds
        // WWDC 2013 session 610: at 2x the visible frame is the middle half, so a code twice as far from the centre and twice as big.
        XCTAssertEqual(zoomed.width, unzoomed.width * 2, accuracy: 0.02)
        XCTAssertEqual(zoomed.midX - 0.5, (unzoomed.midX - 0.5) * 2, accuracy: 0.02)
        XCTAssertEqual(zoomed.midY - 0.5, (unzoomed.midY - 0.5) * 2, accuracy: 0.02)
    }

    func testTurnedAndTiltedCodesAreFoundWhereTheyAre() throws {
        let (_, _) = try metadataSession([.qr, .dataMatrix])
        // A QR code turned 30 degrees, and a Data Matrix code seen in perspective (its far edge shorter).
        let turned = try scene.placeCode(.qr, payload: "turned", center: CGPoint(x: 0.3, y: 0.55), width: 0.3, rotation: .pi / 6)
        let tilted = try scene.placeCode(
            AVMetadataObject.ObjectType.dataMatrix, payload: "tilted",
            corners: [
                CGPoint(x: 0.62, y: 0.35), CGPoint(x: 0.88, y: 0.40), CGPoint(x: 0.88, y: 0.72), CGPoint(x: 0.60, y: 0.80),
            ])
        XCTAssertTrue(
            waitUntil(timeout: 5) { Set(receiver.codes.compactMap(\.stringValue)) == ["turned", "tilted"] },
            "\(receiver.codes.map { $0.stringValue ?? "-" })")
        for (id, text) in [(turned, "turned"), (tilted, "tilted")] {
            let code = try XCTUnwrap(receiver.codes.first { $0.stringValue == text })
            let placed = try XCTUnwrap(scene.symbolCorners(ofCode: id))
            for expected in placed {
                let distances: [CGFloat] = code.corners.map { corner in
                    let dx: CGFloat = (corner.x - expected.x) * 640, dy: CGFloat = (corner.y - expected.y) * 480
                    return (dx * dx + dy * dy).squareRoot()
                }
                let nearest = distances.min() ?? .infinity
                XCTAssertLessThan(nearest, 8, "\(text): a found corner within 8 pixels of each placed one")
            }
        }
    }

    func testOnlyTheRectOfInterestIsSearched() throws {
        let (_, output) = try metadataSession([.qr])
        try scene.placeCode(.qr, payload: "left", center: CGPoint(x: 0.25, y: 0.6), width: 0.25)
        try scene.placeCode(.qr, payload: "right", center: CGPoint(x: 0.75, y: 0.6), width: 0.25)
        XCTAssertTrue(waitUntil(timeout: 5) { receiver.codes.count == 2 })
        output.rectOfInterest = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        receiver.calls.removeAll()
        XCTAssertTrue(waitUntil(timeout: 5) { receiver.calls.values.count >= 3 })
        XCTAssertEqual(Set(receiver.calls.values.suffix(2).flatMap { $0 }.compactMap { ($0 as? AVMetadataMachineReadableCodeObject)?.stringValue }), ["right"])
        let right = try XCTUnwrap(receiver.codes.first)
        XCTAssertGreaterThan(right.bounds.minX, 0.5, "in the whole picture's coordinates")
    }

    func testObjectsThatLeaveAreReportedOnceAsNone() throws {
        useManualClock()
        let (_, output) = try metadataSession([.ean13])
        let id = try scene.placeCode(.ean13, payload: "4006381333931", center: CGPoint(x: 0.5, y: 0.55), width: 0.7)
        XCTAssertTrue(advanceUntil { receiver.codes.first?.stringValue == "4006381333931" })
        scene.removeCode(id)
        XCTAssertTrue(advanceUntil { receiver.calls.values.last?.isEmpty == true })
        let count = receiver.calls.values.count
        let searched = output.linuxDetectionStatistics.framesSearched
        // Frames without the code go on being searched; none of them is reported.
        XCTAssertTrue(advanceUntil { output.linuxDetectionStatistics.framesSearched >= searched + 5 })
        XCTAssertEqual(receiver.calls.values.count, count, "no further calls while nothing is in view")
    }

    /// Sequences of objects go beside the delegate (Linux): two open at once, and the delegate,
    /// all hear of the same code; a sequence alone keeps detection running.
    func testSequencesHearTheObjectsBesideTheDelegate() async throws {
        let (_, output) = try metadataSession([.qr])
        let first = output.linuxMetadataObjectSequence(), second = output.linuxMetadataObjectSequence()
        try scene.placeCode(.qr, payload: "beside", center: CGPoint(x: 0.5, y: 0.5), width: 0.3)
        func firstCode(in sequence: AsyncStream<[AVMetadataObject]>) async -> String? {
            for await objects in sequence {
                if let code = objects.compactMap({ $0 as? AVMetadataMachineReadableCodeObject }).first { return code.stringValue }
            }
            return nil
        }
        let (a, b) = await (firstCode(in: first), firstCode(in: second))
        XCTAssertEqual(a, "beside")
        XCTAssertEqual(b, "beside")
        XCTAssertTrue(waitUntil(timeout: 5) { receiver.codes.first?.stringValue == "beside" }, "the delegate hears too")
        output.setMetadataObjectsDelegate(nil, queue: nil)
        let alone = await firstCode(in: output.linuxMetadataObjectSequence())
        XCTAssertEqual(alone, "beside", "a sequence alone keeps detection running")
    }

    func testAtMostFourCodesAFrameUnlessMoreAreAsked() throws {
        useManualClock()
        let (_, output) = try metadataSession([.qr])
        for index in 0..<6 {
            try scene.placeCode(
                .qr, payload: "code \(index)", center: CGPoint(x: 0.18 + 0.32 * CGFloat(index % 3), y: 0.4 + 0.35 * CGFloat(index / 3)), width: 0.2)
        }
        XCTAssertTrue(advanceUntil { receiver.codes.count == 4 })
        let searched = output.linuxDetectionStatistics.framesSearched
        XCTAssertTrue(advanceUntil { output.linuxDetectionStatistics.framesSearched >= searched + 5 })
        XCTAssertEqual(receiver.calls.values.map(\.count).max(), 4, "five more frames searched, never more than four codes")
        output.linuxMaximumMachineReadableCodeCount = 6
        XCTAssertTrue(advanceUntil { receiver.codes.count == 6 })
    }

    func testASlowDelegateOrDetectorNeverSlowsTheFrames() throws {
        // The delegate holds on to its first call until the test lets it go: the camera's time
        // passes, and the frames' own output gets every frame, without waiting for it.
        let held = DispatchSemaphore(value: 0)
        receiver.hold = held
        defer {
            receiver.hold = nil
            held.signal()
        }
        let collector = FrameCollector()
        useManualClock()
        let (session, output) = try metadataSession([.qr, .ean13, .code128, .dataMatrix, .aztec, .pdf417], collector: collector)
        let frames = try XCTUnwrap(session.outputs.first { $0 is AVCaptureVideoDataOutput })
        outputsCaughtUp = { !frames.hasWorkInFlight }
        // Codes in view at every frame, some a detector works hard on.
        try scene.placeCode(.qr, payload: "busy", center: CGPoint(x: 0.25, y: 0.5), width: 0.3)
        try scene.placeCode(.pdf417, payload: "busy scene", center: CGPoint(x: 0.7, y: 0.7), width: 0.45, rotation: 0.2)
        pass(0.5)
        XCTAssertTrue(waitUntil(timeout: 10) { receiver.calls.values.count == 1 }, "the objects reach the delegate, which holds on")
        let searched = output.linuxDetectionStatistics.framesSearched
        collector.reset()
        pass(2)
        XCTAssertEqual(collector.frames.count, 60, "the video data output has every frame of the 2 s while the metadata delegate holds on")
        XCTAssertTrue(collector.drops.isEmpty, "and drops nothing: \(collector.drops.count)")
        XCTAssertTrue(waitUntil { output.linuxDetectionStatistics.framesSearched > searched }, "the detector goes on searching the newest frames")
        XCTAssertEqual(receiver.calls.values.count, 1, "a delegate still busy misses objects rather than queueing them")
    }

    func testAPreviewLayerTurnsCodeCornersIntoItsOwnCoordinates() throws {
        let (session, _) = try metadataSession([.qr])
        try scene.placeCode(.qr, payload: "layer", center: CGPoint(x: 0.5, y: 0.5), width: 0.3)
        XCTAssertTrue(waitUntil(timeout: 5) { !receiver.codes.isEmpty })
        let code = try XCTUnwrap(receiver.codes.first)
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        layer.videoGravity = .resize
        let transformed = try XCTUnwrap(layer.transformedMetadataObject(for: code) as? AVMetadataMachineReadableCodeObject)
        XCTAssertEqual(transformed.stringValue, "layer")
        for (original, converted) in zip(code.corners, transformed.corners) {
            XCTAssertEqual(converted.x, original.x * 320, accuracy: 0.01)
            XCTAssertEqual(converted.y, original.y * 240, accuracy: 0.01)
        }
        XCTAssertEqual(transformed.bounds.width, code.bounds.width * 320, accuracy: 0.01)
    }
}
