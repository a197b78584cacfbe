import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A viewer of the live view's `/frames` WebSocket, as a browser is one: an HTTP request upgraded
/// by SwiftNIO's WebSocket client upgrader, masked frames out, whole messages in.
///
/// Built on `NIOWebSocket` alone, so that the tests need no TLS stack: the WebSocket protocol is
/// SwiftNIO's, this type only asks for the upgrade and puts fragmented messages together.
enum FrameViewer {
    /// A whole message from the server.
    enum Message {
        case text(String)
        case binary(ByteBuffer)
    }

    /// The server answered the upgrade request with something other than a WebSocket.
    struct Refused: Error, CustomStringConvertible {
        var uri: String
        var description: String { "the server did not upgrade \(uri) to a WebSocket" }
    }

    /// What the upgrade gave.
    private enum Upgrade {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    /// Connects to `uri` on the loopback `port` and runs `body` with the messages that arrive and
    /// a way to send text back; closes the connection (with a close frame) when `body` returns.
    /// After `timeLimit` the connection is closed from this side, so that a viewer waiting for a
    /// message the server never sends ends (its messages end) rather than hangs.
    static func connect(
        port: Int, uri: String, maxFrameSize: Int = 1 << 24, timeLimit: Duration = .seconds(60),
        _ body: (inout Messages, Replies) async throws -> Void
    ) async throws {
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxFrameSize) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            .upgraded(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .refused } }
                    )
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                    // The server's first messages may come in the same read as its 101 response:
                    // they are the WebSocket's, not to be dropped with the HTTP decoder (the default).
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                }
            }
        guard case .upgraded(let channel) = try await upgrade.get() else { throw Refused(uri: uri) }
        let connected = ContinuousClock.now
        let limit = Task { [connection = channel.channel] in
            try await Task.sleep(for: timeLimit)
            try await connection.close()
        }
        defer { limit.cancel() }
        try await channel.executeThenClose { inbound, outbound in
            let replies = Replies(outbound: outbound)
            var messages = Messages(frames: inbound.makeAsyncIterator(), replies: replies)
            do {
                try await body(&messages, replies)
            } catch ChannelError.ioOnClosedChannel where ContinuousClock.now - connected >= timeLimit {
                // The time limit closed the connection while `body` was writing (an acknowledgement,
                // a pong): that is the limit's ending, as for a message awaited, not a failure.
                return
            }
            try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer(bytes: [0x03, 0xE8])))
        }
    }

    /// The messages arriving on a connection, fragments put together; pings answered.
    struct Messages {
        var frames: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
        let replies: Replies
        private var fragments: ByteBuffer?
        private var fragmentsAreText = false

        init(frames: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator, replies: Replies) {
            self.frames = frames
            self.replies = replies
        }

        /// The next whole message, or nil once the server closed the connection.
        mutating func next() async throws -> Message? {
            while let frame = try await frames.next() {
                switch frame.opcode {
                case .text, .binary:
                    fragments = frame.unmaskedData
                    fragmentsAreText = frame.opcode == .text
                case .continuation:
                    var data = frame.unmaskedData
                    fragments?.writeBuffer(&data)
                case .connectionClose:
                    return nil
                case .ping:
                    try await replies.outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                    continue
                default:
                    continue
                }
                guard frame.fin, let whole = fragments else { continue }
                fragments = nil
                return fragmentsAreText ? .text(String(buffer: whole)) : .binary(whole)
            }
            return nil
        }
    }

    /// Sends text messages to the server, masked as a client's must be.
    struct Replies {
        var outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

        /// Sends `text` as one text message.
        func write(_ text: String) async throws {
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
        }
    }
}
