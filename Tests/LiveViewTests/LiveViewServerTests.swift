import AVFoundation
import Foundation
import HummingbirdWSClient
@testable import LiveView
import NIOCore
import XCTest

/// The live view's server: the page, frames to many viewers at once with their capture times, a
/// stalled viewer that slows nobody, and the access token off loopback.
final class LiveViewServerTests: LiveViewTestCase {
    func testThePageIsServedWithItsCanvasAndScript() async throws {
        try startServer()
        let page = try await request("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("<canvas id=\"view\""), "the page draws on a canvas")
        XCTAssertTrue(page.body.contains("/frames"), "the page opens the frames WebSocket")
        let state = try object(try await request("/api/state").body)
        XCTAssertEqual(state["width"] as? Int, 640, "the layer's bounds")
        XCTAssertEqual(state["height"] as? Int, 360)
        XCTAssertEqual(state["gravity"] as? String, "resizeAspect")
        XCTAssertEqual(state["camera"] as? String, AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)?.uniqueID)
    }

    func testEveryOneOfTwentyViewersGetsMovingFramesWithTheirCaptureTimes() async throws {
        try startServer()
        let port = self.port
        let views = try await withThrowingTaskGroup(of: Received.self) { group in
            for _ in 0..<20 { group.addTask { try await Self.watch(port: port, frames: 30) } }
            return try await group.reduce(into: [Received]()) { $0.append($1) }
        }
        XCTAssertEqual(views.count, 20)
        for view in views {
            XCTAssertGreaterThanOrEqual(view.frames.count, 30, "each viewer got its frames")
            XCTAssertFalse(view.states.isEmpty, "the state comes first")
            let first = try XCTUnwrap(view.frames.first), last = try XCTUnwrap(view.frames.last)
            let header = try XCTUnwrap(FrameMessage.header(of: first))
            XCTAssertEqual([header.width, header.height], [640, 360], "aspect fit: the picture's part of the 640x360 layer")
            XCTAssertEqual(first.getBytes(at: FrameMessage.headerSize, length: 2), [0xFF, 0xD8], "a JPEG follows the header")
            XCTAssertNotEqual(first.getBytes(at: FrameMessage.headerSize, length: first.readableBytes - FrameMessage.headerSize),
                              last.getBytes(at: FrameMessage.headerSize, length: last.readableBytes - FrameMessage.headerSize), "the scene moves")
            let lastHeader = try XCTUnwrap(FrameMessage.header(of: last))
            XCTAssertGreaterThan(lastHeader.number, header.number, "frames are numbered in order")
            for (frame, received) in zip(view.frames, view.receivedAt) {
                let captured = try XCTUnwrap(FrameMessage.header(of: frame)).captureMilliseconds
                XCTAssertLessThanOrEqual(captured, received + 1, "captured before received")
                XCTAssertLessThan(received - captured, 2000, "the capture time is the frame's, on the wall clock")
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(server.viewerCount, 0, "viewers that left are gone")
        let encoded = server.framesEncoded
        try await Task.sleep(for: .milliseconds(500))
        XCTAssertEqual(server.framesEncoded, encoded, "nothing is encoded while nobody watches")
    }

    func testCodesAreSentToThePageWhereTheLayerShowsThem() async throws {
        let metadata = AVCaptureMetadataOutput()
        try startServer(outputs: [metadata])
        metadata.metadataObjectTypes = [.qr]
        let scene = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)?.virtualScene)
        let id = try scene.placeCode(.qr, payload: "on the page", center: CGPoint(x: 0.3, y: 0.6), width: 0.15, aspectRatio: 16.0 / 9.0)
        defer { scene.removeAllCodes() }
        let view = try await Self.watch(port: port, frames: 45)
        let messages = view.states.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let objects = try XCTUnwrap(messages.last { $0["objects"] != nil }?["objects"] as? [[String: Any]], "an objects message among \(view.states.count)")
        let code = try XCTUnwrap(objects.first)
        XCTAssertEqual(code["kind"] as? String, "code")
        XCTAssertEqual(code["label"] as? String, "on the page")
        let points = try XCTUnwrap(code["points"] as? [[Double]])
        // Where the layer shows the symbol's corners: the 1280x720 picture fitted to the 640x360 layer.
        let expected = try XCTUnwrap(scene.symbolCorners(ofCode: id)).map { layer.layerPointConverted(fromCaptureDevicePoint: $0) }
        XCTAssertEqual(points.count, 4)
        for corner in expected {
            let nearest = points.map { hypot($0[0] - Double(corner.x), $0[1] - Double(corner.y)) }.min() ?? .infinity
            XCTAssertLessThan(nearest, 4, "a corner within 4 layer points of \(corner): \(points)")
        }
    }

    func testAStalledViewerSlowsNeitherTheOtherViewersNorARecording() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"), "ffprobe counts the movie's frames")
        let movies = AVCaptureMovieFileOutput()
        try startServer(outputs: [movies])
        let stalled = try XCTUnwrap(StalledViewer(port: port), "the stalled viewer connects")
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-stalled-\(UUID().uuidString.prefix(8)).mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let recording = RecordingWaiter()
        movies.startRecording(to: url, recordingDelegate: recording)
        let started = Date()
        let view = try await watch(frames: 100_000, seconds: 4)
        movies.stopRecording()
        let elapsed = Date().timeIntervalSince(started)
        let recordingError = await recording.finished()
        XCTAssertNil(recordingError, "the recording finished without error")
        let deliveries = server.viewerDeliveries
        withExtendedLifetime(stalled) {}
        XCTAssertGreaterThan(view.frames.count, 100, "the other viewer kept its 30 fps: \(view.frames.count) frames in 4 s")
        let stalledDelivery = try XCTUnwrap(deliveries.first, "the stalled viewer is still connected")
        XCTAssertEqual(stalledDelivery.sent, FrameMessage.framesInFlight, "it is sent no more than it has not acknowledged")
        XCTAssertGreaterThan(stalledDelivery.dropped, 100, "its frames are dropped for it alone")
        let frames = try XCTUnwrap(Int(probe(url, "stream=nb_read_frames", count: true)))
        XCTAssertGreaterThan(Double(frames), 30 * elapsed * 0.85, "the movie kept the camera's 30 fps: \(frames) frames in \(elapsed) s")
    }

    func testOffLoopbackEveryRequestNeedsTheGeneratedToken() async throws {
        try startServer(LiveViewConfiguration(host: "0.0.0.0"))
        let token = try XCTUnwrap(server.accessToken, "a token is generated when none is given")
        XCTAssertEqual(token.count, 32)
        XCTAssertTrue(server.pageURL().hasSuffix("/?token=\(token)"))
        let other = try XCTUnwrap(LiveViewServer(session: session, previewLayer: layer, configuration: LiveViewConfiguration(host: "0.0.0.0")).accessToken)
        XCTAssertNotEqual(other, token, "each server has its own")
        let refused = try await request("/")
        XCTAssertEqual(refused.status, 401)
        XCTAssertTrue(refused.body.contains("access token"), refused.body)
        // One hexadecimal digit changed: the last, to another.
        let wrong = token.dropLast() + (token.hasSuffix("0") ? "1" : "0")
        let status1 = try await request("/?token=\(wrong)").status
        XCTAssertEqual(status1, 401, "a wrong token is refused")
        let status2 = try await request("/api/focus", method: "POST", body: #"{"x":1,"y":1}"#).status
        XCTAssertEqual(status2, 401, "controls too")
        let status3 = try await request("/?token=\(token)").status
        XCTAssertEqual(status3, 200)
        let status4 = try await request("/api/state", headers: ["Authorization": "Bearer \(token)"]).status
        XCTAssertEqual(status4, 200)
        let watched = try await watch(frames: 3, query: "?token=\(token)")
        XCTAssertEqual(watched.frames.count, 3)
        do {
            let unwatched = try await watch(frames: 3, seconds: 2)
            XCTAssertEqual(unwatched.frames.count, 0, "no frames without the token")
        } catch {
            // Refusing the upgrade is the other way to say no.
        }
    }

    func testOnLoopbackNoTokenIsNeededUnlessOneIsGiven() async throws {
        try startServer(LiveViewConfiguration(host: "127.0.0.1"))
        XCTAssertNil(server.accessToken)
        let status5 = try await request("/api/state").status
        XCTAssertEqual(status5, 200)
        serverTask?.cancel()
        session.stopRunning()
        try startServer(LiveViewConfiguration(accessToken: "sesame"))
        let status6 = try await request("/api/state").status
        XCTAssertEqual(status6, 401)
        let status7 = try await request("/api/state?token=sesame").status
        XCTAssertEqual(status7, 200)
    }

    private func probe(_ url: URL, _ entries: String, count: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error"] + (count ? ["-count_frames"] : []) + ["-show_entries", entries, "-of", "default=nw=1:nk=1", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Waits for a recording to finish and gives its error.
final class RecordingWaiter: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var error: (any Error)?

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        lock.lock(); self.error = error; lock.unlock()
        done.signal()
    }

    func finished() async -> (any Error)? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                _ = self.done.wait(timeout: .now() + 20)
                self.lock.lock(); let error = self.error; self.lock.unlock()
                continuation.resume(returning: error.map { $0 as NSError })
            }
        }
    }
}
