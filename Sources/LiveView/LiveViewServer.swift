import AVFoundation
import CoreVideo
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Serves a layer's frames and its controls to a page in any browser: a camera's preview layer
/// and its session, or a player layer and its player.
///
/// The page is a client of the layer: frames are the layer's (turned, mirrored and scaled for its
/// bounds and gravity), encoded once as JPEG with libjpeg-turbo and sent over a WebSocket to every
/// viewer, newest only; on a camera's page, clicks come back as layer points and become points of
/// interest through `captureDevicePointConverted(fromLayerPoint:)`. HTTP and WebSocket are
/// Hummingbird's. Thread-safe.
public final class LiveViewServer: Sendable {
    /// The token requests must carry: the configuration's, or one generated for this server.
    public let accessToken: String
    private let configuration: LiveViewConfiguration
    /// Which page the server serves.
    private let page: LiveViewPage.Kind
    private let controls: any LiveViewContent
    private let fanout: ViewerFanout
    private let overlay: MetadataOverlay?
    private let listening = LockedValue<ListeningFacts?>(nil)

    /// Creates a server for a session previewed by `previewLayer`, with the outputs its page may
    /// use; a metadata output's codes and faces are drawn on the page where they are (the server
    /// watches the output beside the app's own delegate, which keeps its objects).
    public init(
        session: AVCaptureSession, previewLayer: AVCaptureVideoPreviewLayer, photoOutput: AVCapturePhotoOutput? = nil,
        movieOutput: AVCaptureMovieFileOutput? = nil, audioOutput: AVCaptureAudioDataOutput? = nil,
        metadataOutput: AVCaptureMetadataOutput? = nil, configuration: LiveViewConfiguration = LiveViewConfiguration()
    ) {
        overlay = metadataOutput.map { MetadataOverlay(output: $0, layer: previewLayer) }
        let controls = LiveViewControls(
            session: session, layer: previewLayer, photoOutput: photoOutput, movieOutput: movieOutput,
            audioOutput: audioOutput, saveDirectory: configuration.saveDirectory)
        (self.configuration, self.controls, accessToken) = (configuration, controls, configuration.accessToken ?? Self.newToken())
        page = controls.page
        fanout = Self.fanout(showing: controls, quality: configuration.jpegQuality)
    }

    /// Creates a server for a player shown by `playerLayer`: its page plays, pauses, seeks and
    /// sets the rate, time-pitch algorithm, volume and gravity; `title` names the movie on it.
    public init(player: AVPlayer, playerLayer: AVPlayerLayer, title: String, configuration: LiveViewConfiguration = LiveViewConfiguration()) {
        overlay = nil
        let controls = PlayerViewControls(player: player, layer: playerLayer, title: title)
        (self.configuration, self.controls, accessToken) = (configuration, controls, configuration.accessToken ?? Self.newToken())
        page = controls.page
        fanout = Self.fanout(showing: controls, quality: configuration.jpegQuality)
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
            content.setFrameHandler(
                { (frame: CVPixelBuffer) in
                    if let message = encoder.message(for: frame) { fanout.publish(message) }
                }, queue: encoding)
        }
        return fanout
    }

    /// The port the server listens on, once it does.
    public var port: Int? { listening.withLock { $0?.port } }

    /// Whether the page itself is served without the token: only when the token was generated
    /// and the server listens on a loopback address.
    public var pageNeedsToken: Bool {
        configuration.accessToken != nil || !(listening.withLock { $0?.isLoopback } ?? configuration.isLoopback)
    }

    /// The number of pages watching now.
    public var viewerCount: Int { fanout.viewerCount }

    /// The frames encoded for viewers so far.
    public var framesEncoded: Int { fanout.frameCount }

    /// Frames sent to and dropped for each viewer now.
    public var viewerDeliveries: [(sent: Int, dropped: Int)] { fanout.deliveries }

    /// The page's address, with the token when the page needs it.
    public func pageURL(host: String? = nil) -> String {
        let shown = host ?? (configuration.host == "0.0.0.0" || configuration.host == "::" ? "localhost" : configuration.host)
        let token = pageNeedsToken ? "?token=\(accessToken)" : ""
        return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port ?? configuration.port)/\(token)"
    }

    /// Serves until the task is cancelled (or, with `handlesSignals`, until SIGINT, SIGTERM or SIGHUP);
    /// `onListening` is called with the port once the server listens. Stopping closes every
    /// viewer's socket and idle connection. Throws when the token is too short or has characters
    /// other than letters, digits and `-._~`, when the page's files are missing, or when the
    /// address cannot be listened on.
    public func run(handlesSignals: Bool = false, onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        try Self.check(configuration, token: accessToken)
        let document = try LiveViewPage.document(page, token: accessToken)
        let router = Router(context: LiveViewRequestContext.self)
        let refusals = UpgradeRefusals()
        router.middlewares.add(
            RequestGuard(
                token: accessToken, pageIsOpenOnLoopback: configuration.accessToken == nil,
                configuredHost: configuration.host.lowercased(),
                allowedHostNames: Set(configuration.allowedHostNames.map { $0.lowercased() }), facts: listening, upgradeRefusals: refusals))
        addRoutes(to: router, page: document)
        let webSocketResponder = router.buildResponder()
        var logger = Logger(label: "LiveView")
        logger.logLevel = .critical  // a cancelled server logs its shutdown as errors
        let listening = self.listening
        let idle = Self.timeAmount(configuration.idleTimeout)
        let firstRequest = Self.timeAmount(min(configuration.firstRequestTimeout, configuration.idleTimeout))
        let maximum = max(1, configuration.maximumConnections)
        let admission = ConnectionAdmission(
            maximum: maximum, reserved: min(max(0, configuration.reservedConnections), maximum - 1), token: accessToken)
        let http1 = {
            var http1 = HTTP1Channel.Configuration(idleTimeout: idle)
            // Requests are a line and a few headers: 16 KiB of them is plenty, and the most a client can make the server hold.
            http1.httpDecoder = .init(maxHeaderFieldSize: 8192, maxHeaderListSize: 16384, maxHeaderFieldCount: 64)
            return http1
        }()
        // Pages send only acknowledgements: no frame from them needs more than 64 KiB (larger frames the
        // server sends go out in pieces of that size). Silent peers are found by pings.
        let ws = WebSocketServerConfiguration(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(10)), closeTimeout: .seconds(2))
        let waiting = WaitingConnections()
        let app = Application(
            router: router,
            // A connection must send its first request's head within the first request's deadline, in 12 KiB;
            // past the most connections it is answered 503 at once rather than left waiting.
            server: HTTPServerBuilder { responder in
                FirstRequestLimitChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: .init(http1: http1, ws: ws)),
                    deadline: firstRequest, maximumHeadSize: 12 * 1024, waiting: waiting, admission: admission,
                    upgradeRefusals: refusals)
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "avcapture",
                // Accepted past the most served, so that they can be answered 503; beyond this the kernel holds them.
                availableConnectionsDelegate: MaximumAvailableConnections(ConnectionAdmission.acceptLimit(for: maximum))),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let loopback = channel.localAddress.map(NetworkAddress.isLoopback) ?? false
                listening.withLock { $0 = ListeningFacts(port: port, isLoopback: loopback) }
                onListening(port)
            },
            logger: logger)
        let fanout = self.fanout
        // However the server stops, its viewers' sockets end with it, and connections that have
        // sent no request yet: a page left open or a silent client never holds it up.
        defer {
            fanout.removeAll()
            waiting.closeAll()
        }
        // A recording the page started ends with the server, its movie complete: it is asked to
        // stop as the server begins to stop (so that a request waiting for it is answered), and
        // waited for once the server has stopped.
        let controls = self.controls, configuration = self.configuration
        let serve: @Sendable () async throws -> Void = {
            do {
                try await withTaskCancellationHandler {
                    do { try await app.run() } catch let error as IOError { throw Self.listeningError(error, configuration) }
                } onCancel: {
                    fanout.removeAll()
                    waiting.closeAll()
                    Task { await controls.finish() }
                }
            } catch {
                await controls.finish()
                throw error
            }
            await controls.finish()
        }
        guard handlesSignals else { return try await serve() }
        // A signal cancels the server as the end of a task does: open pages and sockets never hold
        // it up. The signals are caught from before the server listens, so none comes too early.
        let stop = FirstStopSignal()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await serve() }
            group.addTask { await stop.wait() }
            try await group.next()
            group.cancelAll()
        }
    }

    /// What a failure to listen means for the user: the address in use, not on this machine, or reserved.
    private static func listeningError(_ error: IOError, _ configuration: LiveViewConfiguration) -> any Error {
        let address = "\(configuration.host):\(configuration.port)"
        switch error.errnoCode {
        case EADDRINUSE:
            return LiveViewConfigurationError(description: "\(address) is in use by another program; choose another port, or 0 for a free one.")
        case EADDRNOTAVAIL:
            return LiveViewConfigurationError(description: "\(configuration.host) is not an address of this machine, so it cannot be listened on.")
        case EACCES:
            return LiveViewConfigurationError(description: "\(address) needs privileges to listen on: choose a port from 1024.")
        default:
            return LiveViewConfigurationError(description: "\(address) cannot be listened on: \(String(cString: strerror(error.errnoCode))).")
        }
    }

    /// A duration as NIO's time amount.
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Refuses a configuration the server must not start with.
    private static func check(_ configuration: LiveViewConfiguration, token: String) throws {
        guard token.count >= LiveViewConfiguration.minimumTokenLength else {
            throw LiveViewConfigurationError(
                description: "The access token must have at least \(LiveViewConfiguration.minimumTokenLength) characters; it has \(token.count).")
        }
        guard token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }) else {
            throw LiveViewConfigurationError(description: "The access token may hold only letters, digits and - . _ ~.")
        }
        guard (0...65535).contains(configuration.port) else {
            throw LiveViewConfigurationError(description: "The port must be 0 to 65535; it is \(configuration.port).")
        }
    }

    private func addRoutes(to router: Router<LiveViewRequestContext>, page document: String) {
        let controls = self.controls, fanout = self.fanout, overlay = self.overlay
        let page = ByteBuffer(string: document)
        // Never inside another page's frame, never sniffed, and its address never sent on.
        let pageHeaders: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: "frame-ancestors 'none'", .xFrameOptions: "DENY",
            .xContentTypeOptions: "nosniff", .referrerPolicy: "no-referrer",
        ]
        router.get("/") { _, _ in Response(status: .ok, headers: pageHeaders, body: .init(byteBuffer: page)) }
        router.head("/") { _, _ in
            var headers = pageHeaders
            headers[.contentLength] = String(page.readableBytes)
            return Response(status: .ok, headers: headers)
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
            // Acknowledgements beyond the frames in flight mean nothing: a page that floods them is held to that many.
            let (acknowledgements, acknowledge) = FrameMessage.acknowledgementStream()
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
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
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

extension HTTPField.Name {
    /// `X-Frame-Options`: whether other pages may frame this one.
    static let xFrameOptions = Self("X-Frame-Options")!
    /// `Referrer-Policy`: what a page tells the sites it links to about its address.
    static let referrerPolicy = Self("Referrer-Policy")!
}
