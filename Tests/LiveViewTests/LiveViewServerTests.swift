import AVFoundation
import Foundation
@testable import LiveView
import NIOCore
import XCTest
import TestSupport

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

    /// The pages are assembled from the package's resources: the bundle SwiftPM leaves beside the
    /// executable, else the installed folder, else the sources; without any, the server says so
    /// instead of serving nothing.
    func testThePagesAreAssembledFromTheirResourceFilesAndTheirAbsenceIsSaid() throws {
        let bundled = try XCTUnwrap(LiveViewPage.folder())
        XCTAssertTrue(bundled.path.contains(LiveViewPage.bundleName), "the resource bundle beside the tests: \(bundled.path)")
        let camera = try LiveViewPage.document(.camera, token: "a-token-of-sixteen", from: bundled)
        let player = try LiveViewPage.document(.player, token: "a-token-of-sixteen", from: bundled)
        for (page, title) in [(camera, "avcapture live view"), (player, "avcapture player")] {
            XCTAssertTrue(page.hasPrefix("<!doctype html>"), page)
            XCTAssertTrue(page.contains("<title>\(title)</title>"))
            XCTAssertTrue(page.contains("<meta name=\"live-view-token\" content=\"a-token-of-sixteen\">"))
            XCTAssertTrue(page.contains("#stage { display: flex;"), "the style is in the page")
            XCTAssertTrue(page.contains("function applyState") || page.contains("applyState ="), "the page's own script")
            XCTAssertFalse(page.contains("{{"), "every slot filled")
        }
        XCTAssertTrue(camera.contains("id=\"camera\""), "the camera's bar")
        XCTAssertFalse(player.contains("id=\"camera\""))
        let empty = makeScratchFolder()
        XCTAssertEqual(LiveViewPage.folder(besideExecutableIn: empty)?.lastPathComponent, "Page")
        XCTAssertFalse(
            LiveViewPage.folder(besideExecutableIn: empty)?.path.contains(LiveViewPage.bundleName) ?? true,
            "with no bundle beside the executable, the sources the package was built from")
        let prefix = makeScratchFolder()
        let installed = prefix.appendingPathComponent("share/avcapture/Page")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: bundled.path) {
            try FileManager.default.copyItem(at: bundled.appendingPathComponent(name), to: installed.appendingPathComponent(name))
        }
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        XCTAssertEqual(
            LiveViewPage.folder(besideExecutableIn: bin)?.path, installed.standardizedFileURL.path,
            "an installed executable finds the page in PREFIX/share/avcapture, as scripts/install.sh puts it")
        XCTAssertTrue(
            try LiveViewPage.document(.player, token: "a-token-of-sixteen", from: LiveViewPage.folder(besideExecutableIn: bin)).contains(
                "<title>avcapture player</title>"))
        XCTAssertThrowsError(try LiveViewPage.document(.camera, token: "a-token-of-sixteen", from: empty)) { error in
            XCTAssertTrue("\(error)".contains("cannot be read"), "\(error)")
        }
        XCTAssertThrowsError(try LiveViewPage.document(.camera, token: "a-token-of-sixteen", from: nil)) { error in
            XCTAssertTrue("\(error)".contains("page files are missing"), "\(error)")
        }
    }

    func testEveryOneOfTwentyViewersGetsMovingFramesWithTheirCaptureTimes() async throws {
        try startServer()
        let port = self.port
        let views = try await withThrowingTaskGroup(of: Received.self) { group in
            let query = "?token=\(server.accessToken)"
            for _ in 0..<20 { group.addTask { try await Self.watch(port: port, frames: 30, query: query) } }
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
            XCTAssertNotEqual(
                first.getBytes(at: FrameMessage.headerSize, length: first.readableBytes - FrameMessage.headerSize),
                last.getBytes(at: FrameMessage.headerSize, length: last.readableBytes - FrameMessage.headerSize), "the scene moves")
            let lastHeader = try XCTUnwrap(FrameMessage.header(of: last))
            XCTAssertGreaterThan(lastHeader.number, header.number, "frames are numbered in order")
            for (frame, received) in zip(view.frames, view.receivedAt) {
                let captured = try XCTUnwrap(FrameMessage.header(of: frame)).captureMilliseconds
                XCTAssertLessThanOrEqual(captured, received + 1, "captured before received")
                XCTAssertLessThan(received - captured, 2000, "the capture time is the frame's, on the wall clock")
            }
        }
        let gone = try await eventually { server.viewerCount == 0 }
        XCTAssertTrue(gone, "viewers that left are gone")
        let encoded = server.framesEncoded
        try await Task.sleep(for: .milliseconds(500))
        XCTAssertEqual(server.framesEncoded, encoded, "nothing is encoded while nobody watches")
    }

    func testCodesAreSentToThePageWhereTheLayerShowsThem() async throws {
        let metadata = AVCaptureMetadataOutput()
        // The app's own delegate, set before the server: the page's overlay must not take it over.
        let appDelegate = CodeCounter()
        metadata.setMetadataObjectsDelegate(appDelegate, queue: DispatchQueue(label: "app.metadata"))
        try startServer(outputs: [metadata])
        metadata.metadataObjectTypes = [.qr]
        let scene = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)?.virtualScene)
        let id = try scene.placeCode(.qr, payload: "on the page", center: CGPoint(x: 0.3, y: 0.6), width: 0.15, aspectRatio: 16.0 / 9.0)
        defer { scene.removeAllCodes() }
        let view = try await watch(frames: 45)
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
        XCTAssertTrue(metadata.metadataObjectsDelegate === appDelegate, "the app's delegate is still the delegate")
        XCTAssertGreaterThan(appDelegate.codesSeen, 0, "and it still hears of the codes")
    }

    func testAStalledViewerSlowsNeitherTheOtherViewersNorARecording() async throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe counts the movie's frames")
        let movies = AVCaptureMovieFileOutput()
        // The frames the camera gives meanwhile, counted by a data output beside the movie: on a busy machine it gives fewer than 30 a second.
        let tally = FrameTally(), frames = AVCaptureVideoDataOutput()
        frames.setSampleBufferDelegate(tally, queue: DispatchQueue(label: "tally"))
        try startServer(outputs: [movies, frames])
        let stalled = try XCTUnwrap(HeldConnection.stalledViewer(port: port, path: "/frames?token=\(server.accessToken)"), "the stalled viewer connects")
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-stalled-\(UUID().uuidString.prefix(8)).mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let recording = RecordingWaiter()
        movies.startRecording(to: url, recordingDelegate: recording)
        let encodedBefore = server.framesEncoded, givenBefore = tally.count
        let view = try await watch(frames: 100_000, seconds: 4)
        let encoded = server.framesEncoded - encodedBefore
        movies.stopRecording()
        let given = tally.count - givenBefore
        let recordingError = await recording.finished()
        XCTAssertNil(recordingError, "the recording finished without error")
        let deliveries = server.viewerDeliveries
        withExtendedLifetime(stalled) {}
        // Against the frames the camera gave in that time, not a rate: a loaded machine may give fewer.
        XCTAssertGreaterThan(encoded, 60, "the camera gave frames meanwhile: \(encoded) in 4 s")
        XCTAssertGreaterThanOrEqual(
            Double(view.frames.count), Double(encoded) * 0.8, "the other viewer kept up: \(view.frames.count) of \(encoded) frames in 4 s")
        let stalledDelivery = try XCTUnwrap(deliveries.first, "the stalled viewer is still connected")
        XCTAssertEqual(stalledDelivery.sent, FrameMessage.framesInFlight, "it is sent no more than it has not acknowledged")
        XCTAssertGreaterThanOrEqual(stalledDelivery.dropped, encoded - FrameMessage.framesInFlight, "its frames are dropped for it alone")
        let recorded = try XCTUnwrap(Int(MediaProbe.entries(url, "stream=nb_read_frames", countFrames: true)))
        XCTAssertGreaterThan(Double(recorded), Double(given) * 0.85, "the movie kept the camera's frames: \(recorded) of the \(given) it gave")
    }

    func testOffLoopbackEveryRequestNeedsTheGeneratedToken() async throws {
        try startServer(LiveViewConfiguration(host: "0.0.0.0"))
        let token = server.accessToken
        XCTAssertEqual(token.count, 32, "a token is generated when none is given")
        XCTAssertTrue(server.pageNeedsToken, "off loopback the page needs it too")
        XCTAssertTrue(server.pageURL().hasSuffix("/?token=\(token)"))
        let other = LiveViewServer(session: session, previewLayer: layer, configuration: LiveViewConfiguration(host: "0.0.0.0")).accessToken
        XCTAssertNotEqual(other, token, "each server has its own")
        let refused = try await request("/", authorized: false)
        XCTAssertEqual(refused.status, 401)
        XCTAssertTrue(refused.body.contains("access token"), refused.body)
        // One hexadecimal digit changed: the last, to another.
        let wrong = token.dropLast() + (token.hasSuffix("0") ? "1" : "0")
        let status1 = try await request("/?token=\(wrong)").status
        XCTAssertEqual(status1, 401, "a wrong token is refused")
        let status2 = try await request("/api/focus", method: "POST", body: #"{"x":1,"y":1}"#, authorized: false).status
        XCTAssertEqual(status2, 401, "controls too")
        let status3 = try await request("/?token=\(token)").status
        XCTAssertEqual(status3, 200)
        let status4 = try await request("/api/state", headers: ["Authorization": "Bearer \(token)"]).status
        XCTAssertEqual(status4, 200)
        let watched = try await watch(frames: 3)
        XCTAssertEqual(watched.frames.count, 3)
        let unwatched = try? await watch(frames: 3, seconds: 2, query: "")
        XCTAssertEqual(unwatched?.frames.count ?? 0, 0, "no frames without the token")
    }

    /// On loopback with no token given, the page carries a generated one: the page is served
    /// without it, every other request needs it; a token given is needed by the page too.
    func testOnLoopbackThePageCarriesTheTokenAndEverythingElseNeedsIt() async throws {
        try startServer(LiveViewConfiguration(host: "127.0.0.1"))
        XCTAssertFalse(server.pageNeedsToken)
        XCTAssertEqual(server.pageURL(), "http://127.0.0.1:\(port)/", "the page's address needs no token")
        let page = try await request("/", authorized: false)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains(#"<meta name="live-view-token" content="\#(server.accessToken)">"#), "the page carries the token")
        let state = try await request("/api/state", authorized: false)
        XCTAssertEqual(state.status, 401, "the API needs it: \(state.body)")
        let unwatched = try? await watch(frames: 3, seconds: 2, query: "")
        XCTAssertEqual(unwatched?.frames.count ?? 0, 0, "the frames need it")
        let authorized = try await request("/api/state").status
        XCTAssertEqual(authorized, 200)
        serverTask?.cancel()
        session.stopRunning()
        try startServer(LiveViewConfiguration(accessToken: "sesame-sesame-sesame"))
        XCTAssertTrue(server.pageNeedsToken)
        let status6 = try await request("/", authorized: false).status
        XCTAssertEqual(status6, 401, "a token given guards the page too")
        let status7 = try await request("/api/state?token=sesame-sesame-sesame").status
        XCTAssertEqual(status7, 200)
    }

    /// What another web page, DNS rebinding or a careless client can send: a foreign Host, a
    /// foreign Origin, a body that is not JSON, the wrong method; each is refused before it
    /// reaches a control, with the status that says why.
    func testRequestsFromElsewhereAreRefusedBeforeAnyControl() async throws {
        let photos = AVCapturePhotoOutput()
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("liveview-refusals-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try startServer(LiveViewConfiguration(saveDirectory: folder), outputs: [photos])
        let cases: [(path: String, method: String, headers: [String: String], status: Int, reason: String)] = [
            ("/", "GET", ["Host": "evil.example:\(port)"], 403, "own address only"),
            ("/api/state", "GET", ["Host": "127.0.0.1.evil.example:\(port)"], 403, "own address only"),
            ("/api/state", "GET", ["Host": "localhost:\(port + 1)"], 403, "own address only"),
            ("/api/photo", "POST", ["Origin": "http://evil.example"], 403, "other pages"),
            ("/api/photo", "POST", ["Origin": "http://127.0.0.1:\(port + 1)"], 403, "other pages"),
            ("/api/photo", "POST", ["Origin": "null"], 403, "other pages"),
            ("/api/photo", "POST", ["Content-Type": "text/plain"], 415, "application/json"),
            ("/api/photo", "POST", ["Content-Type": "application/x-www-form-urlencoded"], 415, "application/json"),
            ("/api/photo", "GET", [:], 405, "takes POST"),
            ("/api/state", "POST", [:], 405, "takes GET"),
            ("/", "DELETE", [:], 405, "takes GET"),
        ]
        for refused in cases {
            let answer = try await request(refused.path, method: refused.method, body: refused.method == "POST" ? "{}" : nil, headers: refused.headers)
            XCTAssertEqual(answer.status, refused.status, "\(refused.method) \(refused.path) \(refused.headers): \(answer.body)")
            XCTAssertTrue(answer.body.contains(refused.reason), "\(refused.method) \(refused.path) \(refused.headers): \(answer.body)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no photo was taken")
        let own = try await request("/api/state", headers: ["Host": "localhost:\(port)", "Origin": "http://localhost:\(port)"]).status
        XCTAssertEqual(own, 200, "the page's own origin, by any name of this machine")
        let unknown = try await request("/no/such/thing").status
        XCTAssertEqual(unknown, 404)
    }

    func testTokensTooShortOrWithOtherCharactersAreRefusedAtStart() async throws {
        for token in ["", "short", "fifteen-chars-x", "has spaces in it too", "quote\"in-the-token-here"] {
            session = AVCaptureSession()
            layer = AVCaptureVideoPreviewLayer(session: session)
            let server = LiveViewServer(session: session, previewLayer: layer, configuration: LiveViewConfiguration(port: 0, accessToken: token))
            do {
                try await server.run()
                XCTFail("\(token) was taken")
            } catch let error as LiveViewConfigurationError {
                XCTAssertTrue(error.description.contains("access token"), error.description)
            }
        }
    }

    /// Memory and descriptors stay bounded whatever clients do: oversized headers are refused,
    /// connections beyond the limit wait, idle connections are closed.
    func testAFirstRequestThatIsNotHTTPIsAnsweredAndClosed() async throws {
        try startServer(LiveViewConfiguration(maximumConnections: 4, idleTimeout: .seconds(15)))
        // Heads no HTTP parser takes: each is answered 400 at once, and its connection closed,
        // rather than held until the server stops (found by probing the release build).
        for head in ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nBad Header Line\r\n\r\n", "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", "get / HTTP/1.1\r\n\r\n"] {
            let connection = try XCTUnwrap(HeldConnection(port: port, request: head, awaiting: "HTTP/1.1 400"), head)
            let closeBy = ContinuousClock.now + .seconds(5)
            while !connection.isClosedByServer, ContinuousClock.now < closeBy { try await Task.sleep(for: .milliseconds(20)) }
            XCTAssertTrue(connection.isClosedByServer, head)
        }
        // The server still answers well-formed requests, several on one connection.
        let twice = "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(server.accessToken)\r\n\r\n"
        XCTAssertNotNil(HeldConnection(port: port, request: twice + twice, awaiting: "HTTP/1.1 200"))
        let answer = try await request("/api/state")
        XCTAssertEqual(answer.status, 200)
    }

    func testHeadersConnectionsAndIdleTimeAreBounded() async throws {
        try startServer(LiveViewConfiguration(maximumConnections: 4, reservedConnections: 1, idleTimeout: .seconds(1)))
        let huge = try await request("/api/state", headers: ["X-Padding": String(repeating: "a", count: 80_000)])
        XCTAssertNotEqual(huge.status, 200, "an 80 KB header is not taken")
        // Four idle sockets take every place: a fifth request is answered 503 at once (it used to
        // wait, unanswered, until one closed). Each is answered once, so the server has surely
        // given it its place before the fifth comes.
        let once = "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(server.accessToken)\r\n\r\n"
        let idle = (0..<4).compactMap { _ in HeldConnection(port: port, request: once, awaiting: "HTTP/1.1 200") }
        XCTAssertEqual(idle.count, 4)
        let full = exchangeOnLoopback(port: port, request: once, seconds: 5)
        XCTAssertTrue(full.answer.hasPrefix("HTTP/1.1 503"), full.answer)
        XCTAssertTrue(full.answer.contains("serves 4 connections at once"), full.answer)
        // The idle connections are closed at their idle time, and their places given again.
        let closeBy = ContinuousClock.now + .seconds(5)
        while !idle.allSatisfy(\.isClosedByServer), ContinuousClock.now < closeBy { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertTrue(idle.allSatisfy(\.isClosedByServer), "the idle connections were closed")
        let answer = try await request("/api/state")
        XCTAssertEqual(answer.status, 200, "served once the idle connections were closed")
    }

    /// A hundred viewers, or clients without the token, do not lock the page's owner out: viewers
    /// and such clients take all but the reserved places, and past those are answered 503 at once.
    func testViewersAndClientsWithoutTheTokenLeaveThePagesOwnPlaces() async throws {
        try startServer(LiveViewConfiguration(maximumConnections: 4, reservedConnections: 2, idleTimeout: .seconds(15)))
        let viewers = (0..<2).compactMap { _ in HeldConnection.stalledViewer(port: port, path: "/frames?token=\(server.accessToken)") }
        XCTAssertEqual(viewers.count, 2, "two viewers take the places that are not reserved")
        let handshake =
            "GET /frames?token=\(server.accessToken) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let third = exchangeOnLoopback(port: port, request: handshake, seconds: 5)
        XCTAssertTrue(third.answer.hasPrefix("HTTP/1.1 503"), third.answer)
        XCTAssertTrue(third.answer.contains("viewers"), third.answer)
        let anonymous = exchangeOnLoopback(port: port, request: "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", seconds: 5)
        XCTAssertTrue(anonymous.answer.hasPrefix("HTTP/1.1 503"), "no place is left for requests without the token: \(anonymous.answer)")
        // Silent sockets hold no place at all.
        let silent = (0..<20).compactMap { _ in HeldConnection(port: port) }
        XCTAssertEqual(silent.count, 20)
        let started = ContinuousClock.now
        let owner = try await request("/api/state")
        XCTAssertEqual(owner.status, 200, "the owner's request takes a reserved place")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3), "and is answered without waiting for the silent ones")
        // Silent sockets are closed at the first request's deadline.
        let closeBy = ContinuousClock.now + .seconds(10)
        while !silent.allSatisfy(\.isClosedByServer), ContinuousClock.now < closeBy { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertTrue(silent.allSatisfy(\.isClosedByServer), "silent sockets are closed at their deadline")
    }

    /// Heads HTTP's parser rejects after the first check let them through are answered 400 at once
    /// (they waited 15 s for the deadline, and held SIGTERM up as long).
    func testAHeadTheParserRejectsIsAnsweredAtOnce() async throws {
        try startServer(LiveViewConfiguration(idleTimeout: .seconds(15)))
        for head in [
            "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: abc\r\n\r\n",
            "POST /api/zoom HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /\u{7f}x HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n",
        ] {
            let exchange = exchangeOnLoopback(port: port, request: head, seconds: 10)
            XCTAssertTrue(exchange.answer.hasPrefix("HTTP/1.1 400"), "\(head.debugDescription): \(exchange.answer)")
            XCTAssertLessThan(exchange.firstByteAfter ?? 99, 2, "answered at once: \(head.debugDescription)")
        }
    }

    /// The frames socket without an upgrade is 426, and a refused upgrade says why (it was a bare 400).
    func testRefusedWebSocketsSayWhy() async throws {
        try startServer()
        let plain = try await request("/frames")
        XCTAssertEqual(plain.status, 426, plain.body)
        XCTAssertTrue(plain.body.contains("is a WebSocket"), plain.body)
        func upgrade(_ query: String, origin: String? = nil) -> String {
            let handshake =
                "GET /frames\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + (origin.map { "Origin: \($0)\r\n" } ?? "")
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            return exchangeOnLoopback(port: port, request: handshake, seconds: 5).answer
        }
        let cases: [(answer: String, status: String, reason: String)] = [
            (upgrade(""), "HTTP/1.1 401", "needs its access token"),
            (upgrade("?token=wrong-token-of-twenty"), "HTTP/1.1 401", "token is wrong"),
            (upgrade("?token=\(server.accessToken)", origin: "http://evil.example"), "HTTP/1.1 403", "other pages"),
        ]
        for refused in cases {
            XCTAssertTrue(refused.answer.hasPrefix(refused.status), refused.answer)
            XCTAssertTrue(refused.answer.contains(refused.reason), refused.answer)
        }
        XCTAssertTrue(upgrade("?token=\(server.accessToken)").hasPrefix("HTTP/1.1 101"), "the page's own upgrade still works")
    }

    /// A page that floods acknowledgements grew the server by about 0.4 MB/s: they are kept up to the frames in flight.
    func testAcknowledgementsAreKeptNoFurtherThanTheFramesInFlight() async {
        let (stream, continuation) = FrameMessage.acknowledgementStream()
        var dropped = 0
        for _ in 0..<10_000 {
            if case .dropped = continuation.yield() { dropped += 1 }
        }
        continuation.finish()
        var buffered = 0
        for await _ in stream { buffered += 1 }
        XCTAssertEqual(buffered, FrameMessage.framesInFlight, "only as many as frames can be in flight are held")
        XCTAssertEqual(dropped, 10_000 - FrameMessage.framesInFlight, "past those, the oldest is let go")
    }

    /// A port another program holds is said in words (it was "... in use) (errno: 98)").
    func testAPortInUseIsSaidInWords() async throws {
        try startServer()
        let second = LiveViewServer(session: session, previewLayer: layer, configuration: LiveViewConfiguration(port: port))
        do {
            try await second.run()
            XCTFail("a second server listened on the same port")
        } catch {
            XCTAssertTrue("\(error)".contains("127.0.0.1:\(port) is in use by another program"), "\(error)")
        }
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

/// A video data output's delegate that counts the frames it is given.
final class FrameTally: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0
    var count: Int { lock.withLock { frames } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.withLock { frames += 1 }
    }
}

/// An app's metadata delegate that counts the codes it hears of.
final class CodeCounter: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    private let count = NSLock()
    private var seen = 0
    var codesSeen: Int { count.withLock { seen } }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        count.withLock { seen += metadataObjects.count }
    }
}
