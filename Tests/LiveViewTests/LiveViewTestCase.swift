import AVFoundation
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import LiveView
import NIOCore
import XCTest

/// A session on the virtual back camera at 1280x720, previewed in a 640x360 layer, served by a
/// live view on a free loopback port; and clients for it: HTTP through URLSession, WebSocket
/// viewers through swift-websocket's client.
class LiveViewTestCase: XCTestCase {
    var session: AVCaptureSession!
    var layer: AVCaptureVideoPreviewLayer!
    var server: LiveViewServer!
    var serverTask: Task<Void, any Error>?
    var port = 0

    /// Starts the session and a server for it with `configuration` (its port is replaced by a free one).
    func startServer(
        _ configuration: LiveViewConfiguration = LiveViewConfiguration(), outputs: [AVCaptureOutput] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .hd1280x720
        let camera = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        // The virtual camera outlives each test: start from its defaults.
        try camera.lockForConfiguration()
        camera.focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
        camera.exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
        camera.torchMode = .off
        camera.videoZoomFactor = 1
        camera.unlockForConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        for output in outputs { session.addOutput(output) }
        layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 640, height: 360)
        session.commitConfiguration()
        var configuration = configuration
        configuration.port = 0
        let server = LiveViewServer(
            session: session, previewLayer: layer, photoOutput: outputs.lazy.compactMap { $0 as? AVCapturePhotoOutput }.first,
            movieOutput: outputs.lazy.compactMap { $0 as? AVCaptureMovieFileOutput }.first,
            metadataOutput: outputs.lazy.compactMap { $0 as? AVCaptureMetadataOutput }.first, configuration: configuration)
        self.server = server
        serverTask = Task { try await server.run() }
        session.startRunning()
        let deadline = Date().addingTimeInterval(10)
        while server.port == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        port = try XCTUnwrap(server.port, "the server listens", file: file, line: line)
    }

    /// Waits until `condition` holds, looking every 20 ms, for at most `timeout`; whether it held.
    func eventually(timeout: Duration = .seconds(15), _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// The session's movie file output.
    var movieOutput: AVCaptureMovieFileOutput { session.outputs.lazy.compactMap { $0 as? AVCaptureMovieFileOutput }.first! }

    /// Waits until the recording running has `seconds` of movie, or has ended.
    func record(_ seconds: Double, file: StaticString = #filePath, line: UInt = #line) async throws {
        let movie = movieOutput
        let recorded = try await eventually { !movie.isRecording || movie.recordedDuration.seconds >= seconds }
        XCTAssertTrue(recorded, "the recording reaches \(seconds) s", file: file, line: line)
    }

    override func tearDown() {
        serverTask?.cancel()
        session?.stopRunning()
        super.tearDown()
    }

    /// An HTTP request to the server: its status and body. Unless `authorized` is false or the
    /// path or headers carry a token of their own, it carries the server's token; a POST is JSON
    /// unless the headers say otherwise.
    func request(
        _ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:],
        authorized: Bool = true
    ) async throws -> (status: Int, body: String) {
        try await Self.request(port: port, token: authorized ? server.accessToken : nil, path, method: method, body: body, headers: headers)
    }

    /// An HTTP request to the server on `port`, with `token` unless the path or headers carry one.
    static func request(
        port: Int, token: String?, _ path: String, method: String = "GET", body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let token, !path.contains("token="), headers["Authorization"] == nil {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if method == "POST", headers["Content-Type"] == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The JSON object of a response body.
    func object(_ body: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], body)
    }

    /// What one viewer received: the state messages and the frame messages, in order.
    struct Received: Sendable {
        var states: [String] = []
        var frames: [ByteBuffer] = []
        var receivedAt: [Double] = []
    }

    /// Watches `/frames` until `frames` frames arrived or `seconds` passed; with the server's token
    /// unless `query` is given.
    func watch(frames count: Int, seconds: Double = 10, query: String? = nil) async throws -> Received {
        try await Self.watch(port: port, frames: count, seconds: seconds, query: query ?? "?token=\(server.accessToken)")
    }

    /// Watches `/frames` on `port` until `frames` frames arrived or `seconds` passed.
    static func watch(port: Int, frames count: Int, seconds: Double = 10, query: String = "") async throws -> Received {
        let collected = ReceivedBox()
        // The deadline holds while a message is awaited too: the connection is closed then.
        try await FrameViewer.connect(port: port, uri: "/frames\(query)", timeLimit: .seconds(seconds)) { messages, replies in
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline, collected.frameCount < count, let message = try await messages.next() {
                collected.add(message)
                if case .binary = message { try await replies.write(FrameMessage.acknowledgement) }
            }
        }
        return collected.value
    }
}

/// What a viewer has received, from its handler's task.
final class ReceivedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var received = LiveViewTestCase.Received()
    var value: LiveViewTestCase.Received { lock.lock(); defer { lock.unlock() }; return received }
    var frameCount: Int { value.frames.count }
    func add(_ message: FrameViewer.Message) {
        lock.lock(); defer { lock.unlock() }
        switch message {
        case .text(let text): received.states.append(text)
        case .binary(let buffer):
            received.frames.append(buffer)
            received.receivedAt.append(Date().timeIntervalSince1970 * 1000)
        }
    }
}
