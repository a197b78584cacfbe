import XCTest
@testable import AVFoundation
@testable import CaptureDevices

/// Faces through AVCaptureMetadataOutput: dlib's detector on a photograph (scikit-image's
/// astronaut, from Debian, fetched by scripts/fetch-test-pictures.sh) placed in the virtual
/// scene, its faceID kept while it stays in view, its roll and yaw from the landmark model.
final class FaceDetectionTests: CaptureTestCase {
    final class Receiver: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        let calls = Recorder<[AVMetadataObject]>()
        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
            calls.append(metadataObjects)
        }
        var faces: [AVMetadataFaceObject] { calls.values.last?.compactMap { $0 as? AVMetadataFaceObject } ?? [] }
    }

    private let receiver = Receiver()
    private var scene: VirtualScene { backCamera.virtualScene! }
    /// The astronaut's face in the photograph, in its pixels, as dlib finds it there.
    private static let faceInPicture = CGRect(x: 179, y: 83, width: 88, height: 88)

    private func picture(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-pictures/\(name)")
        guard FileManager.default.fileExists(atPath: url.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(url.path) is missing: scripts/fetch-test-pictures.sh fetches it") }
            throw XCTSkip("\(name) is not fetched: run scripts/fetch-test-pictures.sh")
        }
        return url
    }

    override func tearDown() {
        scene.removeAllPictures()
        scene.removeAllCodes()
        super.tearDown()
    }

    func testTheDetectorFindsTheAstronautsFaceAndItsAngles() throws {
        let image = try GreyPicture.decode(Data(contentsOf: try picture("astronaut.png")))
        let detector = try XCTUnwrap(FaceDetector())
        XCTAssertTrue(detector.hasLandmarks, detector.landmarkProblem ?? "")
        let faces = detector.detect(image)
        XCTAssertEqual(faces.count, 1, "one face, and not the weak look-alike dlib's default threshold also finds: \(faces)")
        let face = try XCTUnwrap(faces.first)
        XCTAssertEqual(face.bounds.midX, Self.faceInPicture.midX, accuracy: 6)
        XCTAssertEqual(face.bounds.midY, Self.faceInPicture.midY, accuracy: 6)
        let roll = try XCTUnwrap(face.roll)
        XCTAssertLessThan(min(roll, 360 - roll), 8, "her eyes are nearly level: \(roll)")
        let yaw = try XCTUnwrap(face.yaw)
        XCTAssertLessThan(min(yaw, 360 - yaw), 30, "she faces the camera: \(yaw)")
        XCTAssertTrue(detector.detect(try GreyPicture.decode(Data(contentsOf: try picture("camera.png")))).isEmpty,
                      "the cameraman, in profile behind his camera, is no frontal face")
        let withoutModel = try XCTUnwrap(FaceDetector(landmarkModelPath: nil))
        XCTAssertNil(withoutModel.detect(image).first?.roll, "no model, no angles")
    }

    func testTrackingKeepsAnIdentityWhileAFaceStaysAndGivesANewOneWhenItReturns() {
        var tracker = FaceTracker()
        let a = CGRect(x: 0.1, y: 0.1, width: 0.2, height: 0.2), b = CGRect(x: 0.6, y: 0.5, width: 0.2, height: 0.2)
        let first = tracker.identify([a, b], at: 0)
        XCTAssertEqual(Set(first).count, 2)
        XCTAssertEqual(tracker.identify([b.offsetBy(dx: 0.02, dy: 0), a.offsetBy(dx: 0.03, dy: 0.01)], at: 0.1), [first[1], first[0]])
        XCTAssertEqual(tracker.identify([a], at: 0.3), [first[0]], "a face missing for a moment keeps its identity")
        let back = tracker.identify([b], at: 1.5)
        XCTAssertFalse(first.contains(back[0]), "one gone longer than half a second is new")
    }

    /// A running 640x480 session looking for `types`.
    private func metadataSession(_ types: [AVMetadataObject.ObjectType]) throws -> AVCaptureMetadataOutput {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCaptureMetadataOutput()
        session.addOutput(output)
        XCTAssertTrue(output.availableMetadataObjectTypes.contains(.face))
        output.setMetadataObjectsDelegate(receiver, queue: DispatchQueue(label: "faces"))
        output.metadataObjectTypes = types
        session.startRunning()
        return output
    }

    func testAFaceInTheSceneIsFoundWhereItIsAndKeepsItsIDWhileItMoves() throws {
        _ = try metadataSession([.face])
        let url = try picture("astronaut.png")
        // 0.9 of the frame's width: her face is about 100 pixels wide at 640x480.
        var center = CGPoint(x: 0.5, y: 0.62)
        let id = try scene.placePicture(contentsOf: url, center: center, width: 0.9)
        XCTAssertTrue(waitUntil(timeout: 10) { !receiver.faces.isEmpty }, "the landmark model loads, then the face is found")
        let face = try XCTUnwrap(receiver.faces.first)
        let placed = try XCTUnwrap(scene.pictures.first { $0.id == id })
        let expected = CGPoint(x: placed.scenePoint(CGPoint(x: Self.faceInPicture.midX, y: Self.faceInPicture.midY)).x,
                               y: placed.scenePoint(CGPoint(x: Self.faceInPicture.midX, y: Self.faceInPicture.midY)).y)
        XCTAssertEqual(face.bounds.midX, expected.x, accuracy: 0.03, "\(face)")
        XCTAssertEqual(face.bounds.midY, expected.y, accuracy: 0.04, "\(face)")
        XCTAssertTrue(face.hasRollAngle && face.hasYawAngle)
        XCTAssertEqual(face.type, .face)
        // Moving a little each time, she stays the same face.
        for _ in 0..<5 {
            center.x += 0.01
            scene.movePicture(id, toCorners: ScenePicture.corners(width: placed.width, height: placed.height, center: center, width: 0.9,
                                                                  rotation: 0, aspectRatio: 4.0 / 3.0))
            spin(0.15)
        }
        let ids = Set(receiver.calls.values.flatMap { $0.compactMap { ($0 as? AVMetadataFaceObject)?.faceID } })
        XCTAssertEqual(ids, [face.faceID], "one face, one identity")
        scene.removePicture(id)
        XCTAssertTrue(waitUntil(timeout: 5) { receiver.calls.values.last?.isEmpty == true }, "gone: the delegate hears once with none")
        spin(0.7)
        try scene.placePicture(contentsOf: url, center: center, width: 0.9)
        XCTAssertTrue(waitUntil(timeout: 5) { !receiver.faces.isEmpty })
        XCTAssertNotEqual(receiver.faces.first?.faceID, face.faceID, "back after a while: a new face")
    }

    func testATurnedFaceHasItsRollAndCodesAndFacesComeTogether() throws {
        _ = try metadataSession([.face, .qr])
        let url = try picture("astronaut.png")
        let id = try scene.placePicture(contentsOf: url, center: CGPoint(x: 0.45, y: 0.62), width: 0.9)
        try scene.placeCode(.qr, payload: "badge", center: CGPoint(x: 0.85, y: 0.8), width: 0.2)
        XCTAssertTrue(waitUntil(timeout: 10) { receiver.calls.values.last.map { $0.count == 2 } == true }, "a face and a code in one call")
        let upright = try XCTUnwrap(receiver.faces.first?.rollAngle)
        let placed = try XCTUnwrap(scene.pictures.first { $0.id == id })
        scene.movePicture(id, toCorners: ScenePicture.corners(width: placed.width, height: placed.height, center: CGPoint(x: 0.45, y: 0.62),
                                                              width: 0.9, rotation: 0.25, aspectRatio: 4.0 / 3.0))
        XCTAssertTrue(waitUntil(timeout: 5) {
            guard let roll = receiver.faces.first?.rollAngle else { return false }
            return abs(roll - upright - 14.3) < 6
        }, "turned 14 degrees clockwise: roll \(receiver.faces.first?.rollAngle ?? -1), upright \(upright)")
    }
}
