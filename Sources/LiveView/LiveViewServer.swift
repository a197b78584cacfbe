import AVFoundation
import CoreVideo
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// How a live view listens and encodes.
public struct LiveViewConfiguration: Sendable {
    /// The address to listen on; loopback unless another is given.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The token every request must carry (`?token=` or `Authorization: Bearer`); required, and
    /// generated when nil, for any address but loopback.
    public var accessToken: String?
    /// The JPEG quality of the frames sent, 1 to 100.
    public var jpegQuality: Int
    /// Where photos and movies taken from the page are saved.
    public var saveDirectory: URL

    /// Creates a configuration; the defaults listen on 127.0.0.1:8080 with JPEG quality 80.
    public init(host: String = "127.0.0.1", port: Int = 8080, accessToken: String? = nil, jpegQuality: Int = 80,
                saveDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.host = host
        self.port = port
        self.accessToken = accessToken
        self.jpegQuality = jpegQuality
        self.saveDirectory = saveDirectory
    }

    /// Whether the host is a loopback address, reachable from this machine only.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Serves a layer's frames and its controls to a page in any browser: a camera's preview layer
/// and its session, or a player layer and its player.
///
/// The page is a client of the layer: frames are the layer's (turned, mirrored and scaled for its
/// bounds and gravity), encoded once as JPEG with libjpeg-turbo and sent over a WebSocket to every
/// viewer, newest only; on a camera's page, clicks come back as layer points and become points of
/// interest through `captureDevicePointConverted(fromLayerPoint:)`. HTTP and WebSocket are
/// Hummingbird's. Thread-safe.
public final class LiveViewServer: Sendable {
    /// The token requests must carry, or nil when none is needed.
    public let accessToken: String?
    private let configuration: LiveViewConfiguration
    private let controls: any LiveViewContent
    private let fanout: ViewerFanout
    private let overlay: MetadataOverlay?
    private let listening = LockedValue<Int?>(nil)

    /// Creates a server for a session previewed by `previewLayer`, with the outputs its page may
    /// use; a metadata output's codes and faces are drawn on the page where they are (the server
    /// becomes its delegate).
    public init(session: AVCaptureSession, previewLayer: AVCaptureVideoPreviewLayer, photoOutput: AVCapturePhotoOutput? = nil,
                movieOutput: AVCaptureMovieFileOutput? = nil, audioOutput: AVCaptureAudioDataOutput? = nil,
                metadataOutput: AVCaptureMetadataOutput? = nil, configuration: LiveViewConfiguration = LiveViewConfiguration()) {
        overlay = metadataOutput.map { MetadataOverlay(output: $0, layer: previewLayer) }
        let controls = LiveViewControls(session: session, layer: previewLayer, photoOutput: photoOutput, movieOutput: movieOutput,
                                        audioOutput: audioOutput, saveDirectory: configuration.saveDirectory)
        (self.configuration, self.controls, accessToken) = (configuration, controls, Self.token(for: configuration))
        fanout = Self.fanout(showing: controls, quality: configuration.jpegQuality)
    }

    /// Creates a server for a player shown by `playerLayer`: its page plays, pauses, seeks and
    /// sets the rate, time-pitch algorithm, volume and gravity; `title` names the movie on it.
    public init(player: AVPlayer, playerLayer: AVPlayerLayer, title: String, configuration: LiveViewConfiguration = LiveViewConfiguration()) {
        overlay = nil
        let controls = PlayerViewControls(player: player, layer: playerLayer, title: title)
        (self.configuration, self.controls, accessToken) = (configuration, controls, Self.token(for: configuration))
        fanout = Self.fanout(showing: controls, quality: configuration.jpegQuality)
    }

    private static func token(for configuration: LiveViewConfiguration) -> String? {
        configuration.accessToken ?? (configuration.isLoopback ? nil : newToken())
    }

    /// A fanout of the content's frames, which the layer draws and the encoder encodes only while someone watches.
    private static func fanout(showing content: any LiveViewContent, quality: Int) -> ViewerFanout {
        let encoder = FrameMessageEncoder(quality: Int32(max(1, min(100, quality))))
        let encoding = DispatchQueue(label: "LiveViewServer.encoding")
        let fanout = ViewerFanout()
        fanout.setActivityHandler { [weak content, weak fanout] active in
            guard let content, let fanout else { return }
            guard active else {
                content.setFrameHandler(nil, queue: encoding)
                return
            }
            content.setFrameHandler({ (frame: CVPixelBuffer) in
                if let message = encoder.message(for: frame) { fanout.publish(message) }
            }, queue: encoding)
        }
        return fanout
    }

    /// The port the server listens on, once it does.
    public var port: Int? { listening.withLock { $0 } }

    /// The number of pages watching now.
    public var viewerCount: Int { fanout.viewerCount }

    /// The frames encoded for viewers so far.
    public var framesEncoded: Int { fanout.frameCount }

    /// Frames sent to and dropped for each viewer now.
    public var viewerDeliveries: [(sent: Int, dropped: Int)] { fanout.deliveries }

    /// The page's address, with the token when one is needed.
    public func pageURL(host: String? = nil) -> String {
        let shown = host ?? (configuration.host == "0.0.0.0" || configuration.host == "::" ? "localhost" : configuration.host)
        let token = accessToken.map { "?token=\($0)" } ?? ""
        return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port ?? configuration.port)/\(token)"
    }

    /// Serves until the task is cancelled (or, with `handlesSignals`, until SIGINT or SIGTERM);
    /// `onListening` is called with the port once the server listens.
    public func run(handlesSignals: Bool = false, onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(AccessTokenMiddleware(token: accessToken))
        addRoutes(to: router)
        var logger = Logger(label: "LiveView")
        logger.logLevel = .critical   // a cancelled server logs its shutdown as errors
        let listening = self.listening
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 24))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "avcapture"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                listening.withLock { $0 = port }
                onListening(port)
            },
            logger: logger)
        defer { fanout.removeAll() }
        if handlesSignals { try await app.runService() } else { try await app.run() }
    }

    private func addRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let controls = self.controls, fanout = self.fanout, overlay = self.overlay
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: controls.page)))
        }
        router.get("/api/state") { _, _ in
            try Self.json(controls.state(viewers: fanout.viewerCount, framesSent: fanout.frameCount))
        }
        router.post("/api/:control") { request, context in
            let name = context.parameters.get("control") ?? ""
            var request = request
            do {
                let body: ByteBuffer
                do { body = try await request.collectBody(upTo: ControlRequest.maximumBodySize) } catch {
                    throw ControlRefusal(.contentTooLarge, "The body is larger than \(ControlRequest.maximumBodySize) bytes.")
                }
                return try Self.json(try await controls.apply(name, body: body))
            } catch let refusal as ControlRefusal {
                return try Self.json(["error": refusal.reason], status: refusal.status)
            }
        }
        router.ws("/frames") { inbound, outbound, _ in
            let (id, mailbox) = fanout.add()
            defer { fanout.remove(id) }
            try await outbound.write(.text(try Self.text(controls.state(viewers: fanout.viewerCount, framesSent: fanout.frameCount))))
            let (acknowledgements, acknowledge) = AsyncStream<Void>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Reading keeps the socket's pings and close answered and collects the page's
                // acknowledgements; its end ends the viewer.
                group.addTask {
                    defer { acknowledge.finish() }
                    for try await message in inbound.messages(maxSize: 1024) where message == .text(FrameMessage.acknowledgement) {
                        acknowledge.yield()
                    }
                }
                group.addTask {
                    var credits = FrameMessage.framesInFlight
                    var acknowledged = acknowledgements.makeAsyncIterator()
                    var frames = mailbox.makeAsyncIterator()
                    var lastState = ContinuousClock.now
                    var overlayVersion = 0
                    while true {
                        // A page that has not drawn its frames gets no more; newer ones replace
                        // older ones in its mailbox meanwhile, so what it gets next is the newest.
                        if credits == 0 {
                            guard await acknowledged.next() != nil else { return }
                            credits += 1
                            continue
                        }
                        guard let frame = await frames.next() else { return }
                        if ContinuousClock.now - lastState > .milliseconds(500) {
                            lastState = .now
                            try await outbound.write(.text(try Self.text(controls.state(viewers: fanout.viewerCount, framesSent: fanout.frameCount))))
                        }
                        // Codes and faces, when they changed, just before the frame they were found in or after.
                        if let overlay, overlay.current.version != overlayVersion {
                            let (version, objects) = overlay.current
                            overlayVersion = version
                            try await outbound.write(.text(try Self.text(MetadataOverlay.Message(objects: objects))))
                        }
                        try await outbound.write(.binary(frame))
                        credits -= 1
                        fanout.markSent(id)
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    private static func text<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try Self.encoder.encode(value), as: UTF8.self)
    }

    private static func json<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: try Self.encoder.encode(value))))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A new random token: 128 bits as hexadecimal.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }
}

/// Refuses requests without the access token, when there is one.
struct AccessTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { return try await next(request, context) }
        var given = request.uri.queryParameters.get("token")
        if given == nil, let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            given = String(authorization.dropFirst("Bearer ".count))
        }
        guard let given, Self.equal(Array(given.utf8), Array(token.utf8)) else {
            return Response(status: .unauthorized, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"error":"This live view needs its access token: add ?token=... to the address."}"#)))
        }
        return try await next(request, context)
    }

    /// Compares in time that depends on the length only, not on where the first difference is.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
