import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing
import TestSupport

/// Faces through AVCaptureMetadataOutput: dlib's detector on a photograph (scikit-image's
/// astronaut, from Debian, fetched by scripts/fetch-test-pictures.sh) placed in the virtual
/// scene, small faces found, each followed with its own faceID while it stays in view, its roll
/// and yaw from the landmark model.
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
        XCTAssertTrue(
            detector.detect(try GreyPicture.decode(Data(contentsOf: try picture("camera.png")))).isEmpty,
            "the cameraman, in profile behind his camera, is no frontal face")
        let withoutModel = try XCTUnwrap(FaceDetector(landmarkModelPath: nil))
        XCTAssertNil(withoutModel.detect(image).first?.roll, "no model, no angles")
    }

    /// A 1280x720 frame of the virtual scene holding the astronaut photograph at each centre, `width` of the frame's width wide.
    private func frame(astronautsAt centres: [CGPoint], width: CGFloat, time: Double) throws -> (CVPixelBuffer, faces: [CGRect]) {
        let picture = try GreyPicture.decode(Data(contentsOf: try picture("astronaut.png")))
        let renderer = try XCTUnwrap(SceneRenderer(width: 1280, height: 720, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        let frame = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange))
        var parameters = SceneFrameParameters(
            frameNumber: Int64(time * 30), seconds: time, zoom: 1, brightness: 1, colourGains: (1, 1, 1),
            defocus: 0, image: nil)
        parameters.pictures = centres.enumerated().map { index, centre in
            ScenePicture(
                id: index, grey: picture,
                corners: ScenePicture.corners(
                    width: picture.width, height: picture.height, center: centre,
                    width: width, rotation: 0, aspectRatio: 16.0 / 9.0))
        }
        renderer.render(into: frame, parameters)
        let faces = parameters.pictures.map { placed in
            let a = placed.scenePoint(Self.faceInPicture.origin)
            let b = placed.scenePoint(CGPoint(x: Self.faceInPicture.maxX, y: Self.faceInPicture.maxY))
            return CGRect(x: a.x * 1280, y: a.y * 720, width: (b.x - a.x) * 1280, height: (b.y - a.y) * 720)
        }
        return (frame, faces)
    }

    func testAFaceATwentiethOfTheFrameWideIsFound() throws {
        // Her face is 88 of the photograph's 512 pixels: 64 pixels, a twentieth of 1280.
        let (image, placed) = try frame(astronautsAt: [CGPoint(x: 0.3, y: 0.4)], width: 512.0 / 88 / 20, time: 1)
        XCTAssertEqual(placed[0].width, 64, accuracy: 1)
        let detector = try XCTUnwrap(FaceDetector(landmarkModelPath: nil))
        let faces = detector.detect(image)
        XCTAssertEqual(faces.count, 1, "\(faces)")
        let face = try XCTUnwrap(faces.first)
        XCTAssertEqual(face.bounds.midX, placed[0].midX, accuracy: 8)
        XCTAssertEqual(face.bounds.midY, placed[0].midY, accuracy: 8)
        XCTAssertTrue(detector.detect(image, searchWidth: 640).isEmpty, "searched at 640 wide, her 32-pixel face is under dlib's 80-pixel window")
        let within = detector.detect(image, region: CGRect(x: 200, y: 100, width: 400, height: 400))
        XCTAssertEqual(within.first.map { abs($0.bounds.midX - placed[0].midX) < 8 }, true, "a region of interest is searched at the same scale")
        XCTAssertTrue(detector.detect(image, region: CGRect(x: 700, y: 100, width: 400, height: 400)).isEmpty, "and only there")
    }

    /// Follows frames 1/30 s apart until `done`, waiting for each search to finish so the test does not depend on the machine's speed.
    private func follow(
        _ follower: FaceFollower, from time: inout Double, frames: Int, scene: (Double) throws -> (CVPixelBuffer, faces: [CGRect]),
        check: ([FollowedFace], [CGRect]) -> Void = { _, _ in }
    ) throws {
        for _ in 0..<frames {
            let (image, placed) = try scene(time)
            let faces = follower.follow(image, time: time)
            check(faces, placed)
            XCTAssertTrue(waitUntil(timeout: 30) { !follower.isSearching }, "a search ends")
            time += 1.0 / 30
        }
    }

    /// The faces `follower` reports in `image` at `time`, once the search that frame began (if any) has ended.
    private func faces(_ follower: FaceFollower, in image: CVPixelBuffer, at time: Double) -> [FollowedFace] {
        let faces = follower.follow(image, time: time)
        XCTAssertTrue(waitUntil(timeout: 30) { !follower.isSearching }, "a search ends")
        return faces
    }

    func testWhileNothingIsFollowedACoarseSearchFindsALargeFaceOnTheNextFrame() throws {
        let follower = try XCTUnwrap(FaceFollower(landmarkModelPath: nil))
        follower.detectionInterval = 0.5
        // Her face is a sixth of the frame wide (220 pixels of 1280): 110 pixels in a 640-wide search.
        let (image, placed) = try frame(astronautsAt: [CGPoint(x: 0.5, y: 0.95)], width: 1, time: 1)
        XCTAssertEqual(placed[0].width, 220, accuracy: 2)
        XCTAssertEqual(faces(follower, in: image, at: 1), [], "the first frame begins a search")
        let found = faces(follower, in: image, at: 1 + 1.0 / 30)
        XCTAssertEqual(found.count, 1, "the next frame has her face")
        XCTAssertEqual(found.first.map { abs($0.bounds.midX - placed[0].midX) < 20 }, true, "\(found) \(placed)")
        XCTAssertEqual(follower.coarseSearches, 1, "found by a coarse search")
        XCTAssertEqual(follower.searchesFinished, 1)
    }

    func testAFaceTooSmallForTheCoarseSearchIsFoundByTheFullSearchThatFollowsAtOnce() throws {
        let follower = try XCTUnwrap(FaceFollower(landmarkModelPath: nil))
        follower.detectionInterval = 0.5
        // 64 pixels wide, a twentieth of the frame: 32 in a coarse search, under dlib's 80-pixel window.
        let (image, placed) = try frame(astronautsAt: [CGPoint(x: 0.3, y: 0.4)], width: 512.0 / 88 / 20, time: 1)
        XCTAssertEqual(faces(follower, in: image, at: 1), [])
        XCTAssertEqual(faces(follower, in: image, at: 1 + 1.0 / 30), [], "the coarse search found nothing")
        XCTAssertEqual(follower.searchesFinished, 2, "and the full search began on the next frame, not after the interval")
        let found = faces(follower, in: image, at: 1 + 2.0 / 30)
        XCTAssertEqual(found.count, 1, "the third frame has her face")
        XCTAssertEqual(found.first.map { abs($0.bounds.midX - placed[0].midX) < 8 }, true, "\(found) \(placed)")
        XCTAssertEqual(follower.coarseSearches, 1)
        for frame in 3..<30 { _ = faces(follower, in: image, at: 1 + Double(frame) / 30) }
        XCTAssertEqual(follower.coarseSearches, 1, "no coarse search while a face is followed")
    }

    func testFacesAreFollowedWhileTheLandmarkModelLoadsAndHaveAnglesOnceItHas() throws {
        let model = FaceDetector.landmarkModelPath
        guard FileManager.default.fileExists(atPath: model) else { throw XCTSkip("\(model) is not installed (Debian's libdlib-data)") }
        // The model loads when the test lets it.
        let loadNow = DispatchSemaphore(value: 0)
        let follower = try XCTUnwrap(
            FaceFollower(landmarkModelPath: model) { path in
                loadNow.wait()
                return FaceDetector(landmarkModelPath: path)
            })
        defer { loadNow.signal() }
        XCTAssertTrue(follower.isPreparing)
        let (image, _) = try frame(astronautsAt: [CGPoint(x: 0.5, y: 0.95)], width: 1, time: 1)
        _ = faces(follower, in: image, at: 1)
        let early = faces(follower, in: image, at: 1 + 1.0 / 30)
        XCTAssertEqual(early.count, 1, "found while the model loads")
        XCTAssertNil(early.first?.roll, "with no angles yet")
        XCTAssertTrue(follower.isPreparing)
        loadNow.signal()
        XCTAssertTrue(waitUntil(timeout: 120) { !follower.isPreparing }, "the model loads")
        let later = faces(follower, in: image, at: 1 + 2.0 / 30)
        XCTAssertEqual(later.count, 1)
        XCTAssertEqual(later.first?.id, early.first?.id, "the same face")
        let roll = try XCTUnwrap(later.first?.roll, "with its angles now")
        XCTAssertLessThan(min(roll, 360 - roll), 8, "her eyes are nearly level: \(roll)")
    }

    func testTheFollowerKeepsEachFaceItsIdentityAsTheyMoveAndGivesAReturningFaceANewOne() throws {
        let follower = try XCTUnwrap(FaceFollower(landmarkModelPath: nil))
        follower.detectionInterval = 0.5
        var time = 1.0
        // Two faces about a twelfth of the frame wide, the first moving right 3 pixels a frame, the
        // second down 2 pixels a frame throughout (the scene's frame counter covers the top left corner).
        func second(_ t: Double) -> CGPoint { CGPoint(x: 0.7, y: 0.3 + (t - 1) * 30 * 2 / 720) }
        func two(_ t: Double) throws -> (CVPixelBuffer, faces: [CGRect]) {
            try frame(astronautsAt: [CGPoint(x: 0.25 + (t - 1) * 30 * 3 / 1280, y: 0.6), second(t)], width: 0.45, time: t)
        }
        try follow(follower, from: &time, frames: 2, scene: two)
        var ids: [Int] = []
        var frames = 0
        try follow(follower, from: &time, frames: 45, scene: two) { faces, placed in
            frames += 1
            XCTAssertEqual(faces.count, 2, "both faces in every frame: \(faces)")
            guard faces.count == 2 else { return }
            let mapped = placed.map { truth in
                faces.min { hypot($0.bounds.midX - truth.midX, $0.bounds.midY - truth.midY) < hypot($1.bounds.midX - truth.midX, $1.bounds.midY - truth.midY) }!
            }
            for (face, truth) in zip(mapped, placed) {
                XCTAssertLessThan(
                    hypot(face.bounds.midX - truth.midX, face.bounds.midY - truth.midY), truth.width / 3, "followed between searches: \(face) \(truth)")
            }
            if ids.isEmpty { ids = mapped.map(\.id) }
            XCTAssertEqual(mapped.map(\.id), ids, "each face keeps its identity")
        }
        XCTAssertEqual(Set(ids).count, 2)
        XCTAssertGreaterThanOrEqual(follower.searchesFinished, 3, "searches went on while the faces moved")
        XCTAssertLessThanOrEqual(follower.searchesFinished, 6, "but at most one each half second of the frames' clock")

        // The first one leaves: let go within a few searches; the second keeps its identity.
        func one(_ t: Double) throws -> (CVPixelBuffer, faces: [CGRect]) {
            try frame(astronautsAt: [second(t)], width: 0.45, time: t)
        }
        try follow(follower, from: &time, frames: 60, scene: one)
        var remaining = follower.follow(try one(time).0, time: time)
        XCTAssertEqual(remaining.map(\.id), [ids[1]], "the face that left is let go, the one that stayed is the same face")
        // She comes back where she started: a new face.
        func back(_ t: Double) throws -> (CVPixelBuffer, faces: [CGRect]) {
            try frame(astronautsAt: [CGPoint(x: 0.25, y: 0.6), second(t)], width: 0.45, time: t)
        }
        try follow(follower, from: &time, frames: 20, scene: back)
        remaining = follower.follow(try back(time).0, time: time)
        XCTAssertEqual(remaining.count, 2)
        XCTAssertEqual(Set(remaining.map(\.id)).intersection(ids), [ids[1]], "the one who came back has a new identity: \(remaining) \(ids)")
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
        useManualClock()
        _ = try metadataSession([.face])
        let url = try picture("astronaut.png")
        // 0.9 of the frame's width: her face is about 100 pixels wide at 640x480.
        var center = CGPoint(x: 0.5, y: 0.62)
        let id = try scene.placePicture(contentsOf: url, center: center, width: 0.9)
        XCTAssertTrue(advanceUntil { !receiver.faces.isEmpty }, "the landmark model loads, then the face is found")
        let face = try XCTUnwrap(receiver.faces.first)
        let placed = try XCTUnwrap(scene.pictures.first { $0.id == id })
        let expected = CGPoint(
            x: placed.scenePoint(CGPoint(x: Self.faceInPicture.midX, y: Self.faceInPicture.midY)).x,
            y: placed.scenePoint(CGPoint(x: Self.faceInPicture.midX, y: Self.faceInPicture.midY)).y)
        XCTAssertEqual(face.bounds.midX, expected.x, accuracy: 0.03, "\(face)")
        XCTAssertEqual(face.bounds.midY, expected.y, accuracy: 0.04, "\(face)")
        XCTAssertTrue(face.hasRollAngle && face.hasYawAngle)
        XCTAssertEqual(face.type, .face)
        // Moving a little each time, she stays the same face.
        for _ in 0..<5 {
            center.x += 0.01
            scene.movePicture(
                id,
                toCorners: ScenePicture.corners(
                    width: placed.width, height: placed.height, center: center, width: 0.9,
                    rotation: 0, aspectRatio: 4.0 / 3.0))
            pass(0.15)
        }
        let ids = Set(receiver.calls.values.flatMap { $0.compactMap { ($0 as? AVMetadataFaceObject)?.faceID } })
        XCTAssertEqual(ids, [face.faceID], "one face, one identity")
        scene.removePicture(id)
        XCTAssertTrue(advanceUntil { receiver.calls.values.last?.isEmpty == true }, "gone: the delegate hears once with none")
        pass(0.7)
        try scene.placePicture(contentsOf: url, center: center, width: 0.9)
        XCTAssertTrue(advanceUntil { !receiver.faces.isEmpty })
        XCTAssertNotEqual(receiver.faces.first?.faceID, face.faceID, "back after a while: a new face")
    }

    func testAFaceThatAppearsIsReportedOnTheNextFrameAndOnEveryFrameWhileItStays() throws {
        useManualClock()
        let output = try metadataSession([.face])
        XCTAssertTrue(advanceUntil { !backCamera.isAdjustingFocus }, "the camera focuses after starting")
        let searched = output.linuxDetectionStatistics.framesSearched
        try scene.placePicture(contentsOf: try picture("astronaut.png"), center: CGPoint(x: 0.5, y: 0.62), width: 0.9)
        var firstWithFace: Int?
        for frame in 1...30 {
            XCTAssertFalse(advanceUntil(frames: 1) { false })
            XCTAssertEqual(output.linuxDetectionStatistics.framesSearched - searched, frame, "each frame searched")
            if firstWithFace == nil, !receiver.faces.isEmpty { firstWithFace = frame }
        }
        // Nothing followed, a coarse search begins every detection interval (0.2 s, 6 frames) and
        // finds her; the frame after it reports her.
        let first = try XCTUnwrap(firstWithFace, "her face is reported")
        XCTAssertLessThanOrEqual(first, 7, "within the interval and a frame")
        let withFace = receiver.calls.values.filter { $0.contains { $0 is AVMetadataFaceObject } }
        XCTAssertEqual(withFace.count, 31 - first, "and so is every frame after")
        XCTAssertTrue(receiver.faces.first?.hasRollAngle == true, "with her angles: the model loaded as the output was configured")
    }

    func testATurnedFaceHasItsRollAndCodesAndFacesComeTogether() throws {
        useManualClock()
        _ = try metadataSession([.face, .qr])
        let url = try picture("astronaut.png")
        let id = try scene.placePicture(contentsOf: url, center: CGPoint(x: 0.45, y: 0.62), width: 0.9)
        try scene.placeCode(.qr, payload: "badge", center: CGPoint(x: 0.85, y: 0.8), width: 0.2)
        XCTAssertTrue(advanceUntil { receiver.calls.values.last.map { $0.count == 2 } == true }, "a face and a code in one call")
        let upright = try XCTUnwrap(receiver.faces.first?.rollAngle)
        let placed = try XCTUnwrap(scene.pictures.first { $0.id == id })
        scene.movePicture(
            id,
            toCorners: ScenePicture.corners(
                width: placed.width, height: placed.height, center: CGPoint(x: 0.45, y: 0.62),
                width: 0.9, rotation: 0.25, aspectRatio: 4.0 / 3.0))
        XCTAssertTrue(
            advanceUntil {
                guard let roll = receiver.faces.first?.rollAngle else { return false }
                return abs(roll - upright - 14.3) < 6
            }, "turned 14 degrees clockwise: roll \(receiver.faces.first?.rollAngle ?? -1), upright \(upright)")
    }
}
