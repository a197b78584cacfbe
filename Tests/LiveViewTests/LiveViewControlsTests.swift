import AVFoundation
import Foundation
@testable import LiveView
import NIOCore
import XCTest
import TestSupport

/// The page's controls: each goes through Apple's API (the layer's conversion for focus, the
/// device for torch and zoom, the session for the camera, the outputs for photos and movies), and
/// every request is checked, refused with a 4xx and a reason when it is not what the control takes.
final class LiveViewControlsTests: LiveViewTestCase {
    private var camera: AVCaptureDevice { (layer.connection?.inputPorts.first?.input as? AVCaptureDeviceInput)!.device }

    func testAClickFocusesAndExposesWhereTheLayerSaysForItsGravityRotationAndMirroring() async throws {
        try startServer()
        layer.videoGravity = .resizeAspectFill
        layer.connection?.videoRotationAngle = 90
        layer.connection?.automaticallyAdjustsVideoMirroring = false
        layer.connection?.isVideoMirrored = true
        let answer = try await request("/api/focus", method: "POST", body: #"{"x": 160, "y": 90}"#)
        XCTAssertEqual(answer.status, 200, answer.body)
        let expected = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 160, y: 90))
        let body = try object(answer.body)
        XCTAssertEqual(try XCTUnwrap(body["x"] as? Double), Double(expected.x), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(body["y"] as? Double), Double(expected.y), accuracy: 1e-9)
        XCTAssertEqual(Double(camera.focusPointOfInterest.x), Double(expected.x), accuracy: 1e-9, "the device's point of interest")
        XCTAssertEqual(Double(camera.exposurePointOfInterest.y), Double(expected.y), accuracy: 1e-9)
        XCTAssertEqual(camera.focusMode, .autoFocus)
        XCTAssertNotEqual(expected, CGPoint(x: 0.25, y: 0.25), "the turn, mirror and crop moved the point")
        let state = try object(try await request("/api/state").body)
        XCTAssertEqual((state["focusPoint"] as? [Double])?.first ?? -1, Double(expected.x), accuracy: 1e-9)
    }

    func testMalformedUnknownAndOutOfRangeRequestsAreRefusedWithAReason() async throws {
        try startServer()
        let cases: [(path: String, body: String, status: Int, reason: String)] = [
            ("/api/focus", #"{"x": "left", "y": 1}"#, 400, "'x' must be a number"),
            ("/api/focus", #"{"x": 1}"#, 400, "'y' is missing"),
            ("/api/focus", #"{"x": 1, "y": 1, "z": 1}"#, 400, "Unknown field 'z'"),
            ("/api/focus", #"{"x": 641, "y": 1}"#, 422, "between 0.0 and 640.0"),
            ("/api/focus", #"{"x": -1e999, "y": 1}"#, 400, "'x' must be a number"),
            ("/api/focus", "[1, 2]", 400, "not a JSON object"),
            ("/api/torch", #"{"on": 1}"#, 400, "true or false"),
            ("/api/zoom", #"{"factor": 0.5}"#, 422, "between 1.0 and"),
            ("/api/gravity", #"{"gravity": "sideways"}"#, 422, "one of resize, resizeAspect, resizeAspectFill"),
            ("/api/camera", #"{"uniqueID": "no such camera"}"#, 422, "no camera 'no such camera'"),
            ("/api/photo", #"{"now": true}"#, 400, "accepts: none"),
            ("/api/photo", "{}", 409, "takes no photos"),
            ("/api/record", #"{"recording": true}"#, 409, "records no movies"),
            ("/api/teleport", "{}", 404, "no control 'teleport'"),
            ("/api/focus", "{\"x\": \"" + String(repeating: "a", count: 5000) + "\"}", 413, "larger than 4096 bytes"),
        ]
        for refused in cases {
            let answer = try await request(refused.path, method: "POST", body: refused.body)
            XCTAssertEqual(answer.status, refused.status, "\(refused.path) \(refused.body.prefix(40)): \(answer.body)")
            let reason = try object(answer.body)["error"] as? String ?? ""
            XCTAssertTrue(reason.contains(refused.reason), "\(refused.path) \(refused.body.prefix(40)): \(reason)")
        }
        XCTAssertEqual(camera.focusPointOfInterest, CGPoint(x: 0.5, y: 0.5), "refused requests change nothing")
        XCTAssertEqual(camera.torchMode, .off)
        XCTAssertEqual(camera.videoZoomFactor, 1)
        XCTAssertEqual(layer.videoGravity, .resizeAspect)
    }

    func testTorchZoomGravityMirroringAndCameraGoThroughTheDeviceLayerAndSession() async throws {
        try startServer()
        let torch = try await request("/api/torch", method: "POST", body: #"{"on": true}"#)
        XCTAssertEqual(torch.status, 200, torch.body)
        XCTAssertEqual(camera.torchMode, .on)
        let zoom = try await request("/api/zoom", method: "POST", body: #"{"factor": 2}"#)
        XCTAssertEqual(zoom.status, 200, zoom.body)
        XCTAssertTrue(camera.isRampingVideoZoom, "zoom ramps")
        let ramped = try await eventually { !camera.isRampingVideoZoom }
        XCTAssertTrue(ramped, "the ramp ends")
        XCTAssertEqual(Double(camera.videoZoomFactor), 2, accuracy: 0.01)
        let fill = try await request("/api/gravity", method: "POST", body: #"{"gravity": "resizeAspectFill"}"#)
        XCTAssertEqual(fill.status, 200, fill.body)
        XCTAssertEqual(layer.videoGravity, .resizeAspectFill)
        let mirror = try await request("/api/mirror", method: "POST", body: #"{"mirrored": true}"#)
        XCTAssertEqual(mirror.status, 200, mirror.body)
        XCTAssertEqual(layer.connection?.isVideoMirrored, true)
        let front = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        let switched = try await request("/api/camera", method: "POST", body: "{\"uniqueID\": \"\(front.uniqueID)\"}")
        XCTAssertEqual(switched.status, 200, switched.body)
        XCTAssertEqual(camera.uniqueID, front.uniqueID, "the layer shows the front camera")
        let state = try object(try await request("/api/state").body)
        XCTAssertEqual(state["camera"] as? String, front.uniqueID)
        let frames = try await watch(frames: 2)
        XCTAssertEqual(frames.frames.count, 2, "frames flow from the new camera")
    }

    func testAPhotoAndAMovieAreSavedFromThePage() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-saves-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCapturePhotoOutput(), AVCaptureMovieFileOutput()])
        let photo = try await request("/api/photo", method: "POST")
        XCTAssertEqual(photo.status, 200, photo.body)
        let photoFile = try XCTUnwrap(try object(photo.body)["file"] as? String)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: photoFile)).prefix(2)), [0xFF, 0xD8], "a JPEG")
        let start = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(start.status, 200, start.body)
        let again = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(again.status, 409, "one recording at a time")
        try await record(0.5)
        let stop = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        XCTAssertEqual(stop.status, 200, stop.body)
        let movieFile = try XCTUnwrap(try object(stop.body)["file"] as? String)
        XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: movieFile)[.size] as? Int) ?? 0, 10_000, "the movie was written")
        let stopAgain = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        XCTAssertEqual(stopAgain.status, 409)
    }

    /// Two pages stopping the same recording at once both get its file (the second waiter used
    /// to replace the first, which then waited for ever).
    func testTwoStopRequestsAtOnceBothGetTheMovie() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-stops-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCaptureMovieFileOutput()])
        let start = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(start.status, 200, start.body)
        try await record(0.5)
        let (port, token) = (port, server.accessToken)
        async let first = Self.request(port: port, token: token, "/api/record", method: "POST", body: #"{"recording": false}"#)
        async let second = Self.request(port: port, token: token, "/api/record", method: "POST", body: #"{"recording": false}"#)
        let answers = try await [first, second]
        let files = answers.compactMap { try? object($0.body)["file"] as? String }
        XCTAssertEqual(answers.filter { $0.status == 200 }.count + answers.filter { $0.status == 409 }.count, 2, "\(answers)")
        XCTAssertTrue(answers.contains { $0.status == 200 }, "\(answers)")
        XCTAssertEqual(Set(files).count, 1, "both that answered 200 name the one movie: \(answers)")
    }

    /// A camera swapped from the page right after a recording started from it (this aborted the process).
    func testSwitchingCameraRightAfterStartingARecordingKeepsTheServer() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-switch-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCaptureMovieFileOutput()])
        let front = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        let back = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        for (round, next) in [front, back, front].enumerated() {
            let start = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
            XCTAssertEqual(start.status, 200, "round \(round): \(start.body)")
            let switched = try await request("/api/camera", method: "POST", body: "{\"uniqueID\": \"\(next.uniqueID)\"}")
            XCTAssertEqual(switched.status, 200, "round \(round): \(switched.body)")
            try await record(0.3)
            _ = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        }
        let state = try await request("/api/state")
        XCTAssertEqual(state.status, 200, "the server still answers")
    }
}

/// The page's controls under clients that race each other, as a crowd of pages or a script does:
/// one recording at a time, every start answered 200 ends in a playable movie, photos while the
/// camera is switched, and many photos in the same second each in its own file.
final class LiveViewConcurrencyTests: LiveViewTestCase {
    private func saveFolder(_ name: String) throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Eight starts at once made two recordings, the second ending the first unseen (found by probing).
    func testStartsAtOnceMakeOneRecordingAndItsStopGivesAPlayableMovie() async throws {
        let folder = try saveFolder("starts")
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCaptureMovieFileOutput()])
        let (port, token) = (port, server.accessToken)
        let answers = try await withThrowingTaskGroup(of: (status: Int, body: String).self) { group in
            for _ in 0..<8 {
                group.addTask { try await Self.request(port: port, token: token, "/api/record", method: "POST", body: #"{"recording": true}"#) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(answers.filter { $0.status == 200 }.count, 1, "one start wins: \(answers)")
        XCTAssertEqual(answers.filter { $0.status == 409 }.count, 7, "the others are told a recording runs: \(answers)")
        let started = try XCTUnwrap(answers.first { $0.status == 200 })
        let file = try XCTUnwrap(try object(started.body)["file"] as? String)
        try await record(0.3)
        let stop = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        XCTAssertEqual(stop.status, 200, stop.body)
        XCTAssertEqual(try object(stop.body)["file"] as? String, file, "the stop names the movie the start named")
        XCTAssertGreaterThan(MediaProbe.videoPacketCount(URL(fileURLWithPath: file)) ?? 0, 0, "a playable movie")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(left, [URL(fileURLWithPath: file).lastPathComponent], "one movie and nothing else: \(left)")
    }

    /// Clients turning recording on and off in a loop: every start that was answered 200 ends in a movie that plays.
    func testEveryStartAnsweredEndsInAPlayableMovie() async throws {
        let folder = try saveFolder("toggles")
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCaptureMovieFileOutput()])
        let (port, token) = (port, server.accessToken)
        let started = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<4 {
                group.addTask {
                    var files: [String] = []
                    for round in 0..<6 {
                        let on = (client + round) % 2 == 0
                        let answer = try await Self.request(port: port, token: token, "/api/record", method: "POST", body: "{\"recording\": \(on)}")
                        XCTAssertTrue([200, 409].contains(answer.status), answer.body)
                        if on, answer.status == 200, let file = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] {
                            files.append(file["file"] as? String ?? "")
                        }
                    }
                    return files
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        _ = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        XCTAssertFalse(started.isEmpty, "some starts won")
        for file in started {
            XCTAssertGreaterThan(MediaProbe.videoPacketCount(URL(fileURLWithPath: file)) ?? 0, 0, "\(file) plays")
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(hidden, [], "nothing half written is left")
    }

    /// A server stopped while recording finishes the movie before it returns (a stop by --seconds
    /// once left a 0-byte movie and a hidden .faststart file).
    func testStoppingTheServerFinishesTheRecording() async throws {
        let folder = try saveFolder("stop")
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCaptureMovieFileOutput()])
        let start = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(start.status, 200, start.body)
        let file = try XCTUnwrap(try object(start.body)["file"] as? String)
        try await record(0.5)
        serverTask?.cancel()
        _ = await serverTask?.result
        XCTAssertGreaterThan(MediaProbe.videoPacketCount(URL(fileURLWithPath: file)) ?? 0, 0, "the movie is complete once the server has stopped")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(left, [URL(fileURLWithPath: file).lastPathComponent], "nothing else is left: \(left)")
    }

    /// A start that came between a switch's removing one camera and adding the next recorded the
    /// microphone alone: a movie of sound that no player shows (found by probing, once in ~500
    /// recordings). A start while the session has no camera is refused; with one, it records it.
    func testARecordingIsNotStartedWhileTheSessionIsWithoutItsCamera() async throws {
        let folder = try saveFolder("no-camera")
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCaptureMovieFileOutput()])
        let microphone = try XCTUnwrap(AVCaptureDevice.default(for: .audio))
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        session.commitConfiguration()
        let camera = try XCTUnwrap(session.inputs.compactMap { $0 as? AVCaptureDeviceInput }.first { $0.device.hasMediaType(.video) })
        session.beginConfiguration()
        session.removeInput(camera)
        let refused = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        session.addInput(camera)
        session.commitConfiguration()
        XCTAssertEqual(refused.status, 409, refused.body)
        XCTAssertTrue(refused.body.contains("no camera"), refused.body)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no movie of sound alone")
        let start = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(start.status, 200, start.body)
        let file = try XCTUnwrap(try object(start.body)["file"] as? String)
        try await record(0.3)
        let stop = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        XCTAssertEqual(stop.status, 200, stop.body)
        XCTAssertGreaterThan(MediaProbe.videoPacketCount(URL(fileURLWithPath: file)) ?? 0, 0, "the next start records the camera")
    }

    /// Photos asked for while another client switches the camera (this trapped: "No active and enabled video connection").
    func testPhotosWhileTheCameraIsSwitchedAreTakenOrRefusedNeverACrash() async throws {
        let folder = try saveFolder("switch-photos")
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [AVCapturePhotoOutput()])
        let front = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        let back = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let (port, token) = (port, server.accessToken)
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            group.addTask {
                var statuses: [Int] = []
                for round in 0..<12 {
                    let camera = round % 2 == 0 ? front : back
                    statuses.append(
                        try await Self.request(port: port, token: token, "/api/camera", method: "POST", body: "{\"uniqueID\": \"\(camera.uniqueID)\"}").status)
                }
                return statuses
            }
            for _ in 0..<2 {
                group.addTask {
                    var statuses: [Int] = []
                    for _ in 0..<8 { statuses.append(try await Self.request(port: port, token: token, "/api/photo", method: "POST", body: "{}").status) }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        XCTAssertTrue(statuses.allSatisfy { $0 == 200 || $0 == 409 }, "\(statuses)")
        let alive = try await request("/api/state").status
        XCTAssertEqual(alive, 200, "the server lives")
    }

    /// Cameras switched by several clients at once (a check that the session could take the new
    /// camera, then another client's camera added before it was, trapped in `addInput(_:)`): each
    /// switch is answered, and the running session ends with one camera, which the layer shows.
    func testCamerasSwitchedByClientsAtOnceLeaveOneCameraInTheSession() async throws {
        let session = AVCaptureSession()
        let back = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let front = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        session.addInput(try AVCaptureDeviceInput(device: back))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        session.startRunning()
        defer { session.stopRunning() }
        let controls = LiveViewControls(
            session: session, layer: layer, photoOutput: nil, movieOutput: nil, audioOutput: nil, saveDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        let clients = 8, switches = 40
        let answered = LockedValue(0)
        let finished = expectation(description: "every client done")
        finished.expectedFulfillmentCount = clients
        // Threads of their own, each waiting for its answer, so that the switches overlap as
        // requests on several event loops do.
        for client in 0..<clients {
            Thread.detachNewThread {
                for round in 0..<switches {
                    let camera = (client + round) % 2 == 0 ? front : back
                    let done = DispatchSemaphore(value: 0)
                    Task {
                        var body = ByteBuffer()
                        body.writeString("{\"uniqueID\": \"\(camera.uniqueID)\"}")
                        if (try? await controls.apply("camera", body: body)) != nil { answered.withLock { $0 += 1 } }
                        done.signal()
                    }
                    done.wait()
                }
                finished.fulfill()
            }
        }
        await fulfillment(of: [finished], timeout: 120)
        XCTAssertEqual(answered.withLock { $0 }, clients * switches, "every switch is answered 200")
        let cameras = session.inputs.compactMap { $0 as? AVCaptureDeviceInput }.filter { $0.device.hasMediaType(.video) }
        XCTAssertEqual(cameras.count, 1, "one camera in the session")
        XCTAssertEqual(controls.camera?.uniqueID, cameras.first?.device.uniqueID, "the layer shows it")
    }

    /// Photos taken in the same second each get a name of their own (a check then a write let two take one name: 409).
    func testPhotosAtOnceAreEachSavedUnderANameOfTheirOwn() async throws {
        let folder = try saveFolder("photos")
        let photos = AVCapturePhotoOutput()
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [photos])
        let (port, token) = (port, server.accessToken)
        let answers = try await withThrowingTaskGroup(of: (status: Int, body: String).self) { group in
            for _ in 0..<12 { group.addTask { try await Self.request(port: port, token: token, "/api/photo", method: "POST", body: "{}") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(answers.filter { $0.status == 200 }.count, 12, "\(answers.filter { $0.status != 200 })")
        let files = Set(answers.compactMap { try? object($0.body)["file"] as? String })
        XCTAssertEqual(files.count, 12, "twelve files")
        let saved = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(saved.count, 12, "\(saved)")
        for file in files { XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(2)), [0xFF, 0xD8]) }
    }
}
