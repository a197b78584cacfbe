import AVFoundation
import Foundation
@testable import LiveView
import XCTest

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
        try await Task.sleep(for: .seconds(1))
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
        try await Task.sleep(for: .milliseconds(300))
        let photo = try await request("/api/photo", method: "POST")
        XCTAssertEqual(photo.status, 200, photo.body)
        let photoFile = try XCTUnwrap(try object(photo.body)["file"] as? String)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: photoFile)).prefix(2)), [0xFF, 0xD8], "a JPEG")
        let start = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(start.status, 200, start.body)
        let again = try await request("/api/record", method: "POST", body: #"{"recording": true}"#)
        XCTAssertEqual(again.status, 409, "one recording at a time")
        try await Task.sleep(for: .seconds(1))
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
        try await Task.sleep(for: .seconds(1))
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
            try await Task.sleep(for: .milliseconds(500))
            _ = try await request("/api/record", method: "POST", body: #"{"recording": false}"#)
        }
        let state = try await request("/api/state")
        XCTAssertEqual(state.status, 200, "the server still answers")
    }
}
