import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Bounds a connection's first request in time and size, and answers one that is not HTTP: a
/// connection that sends nothing, trickles its headers, or sends a head no HTTP parser takes would
/// otherwise hold a place for ever (the server's idle timeout only starts once a request has been
/// parsed, and the upgrade pipeline the first request goes through answers no parse error), and
/// one whose head is too large would hang.
///
/// It sits first in the connection's pipeline and watches the raw bytes of the first request's
/// head (at most `maximumHeadSize`, kept until its blank line). Past `maximumHeadSize` bytes it
/// answers 431 and closes; a head that is not an HTTP/1.0 or 1.1 request line and header lines,
/// or that HTTP's parser rejects, is answered 400 at once and closed; a connection that has no
/// answer by the deadline is closed. A first request past what `ConnectionAdmission` allows is
/// answered 503 at once.
/// When the server shuts down, a connection still waiting for its head closes. Once the first
/// answer goes out it leaves the pipeline, and the server's own idle timeout takes over. Runs on
/// the connection's event loop.
final class FirstRequestLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let deadline: TimeAmount
    private let maximumHeadSize: Int
    private let waiting: WaitingConnections
    private let admission: ConnectionAdmission
    private let upgradeRefusals: UpgradeRefusals
    private var timer: Scheduled<Void>?
    /// The head's bytes so far, until its blank line.
    private var head: [UInt8] = []
    private var headEnded = false
    private var refused = false

    init(deadline: TimeAmount, maximumHeadSize: Int, waiting: WaitingConnections, admission: ConnectionAdmission, upgradeRefusals: UpgradeRefusals) {
        self.deadline = deadline
        self.maximumHeadSize = maximumHeadSize
        self.waiting = waiting
        self.admission = admission
        self.upgradeRefusals = upgradeRefusals
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        channel.closeFuture.whenComplete { [upgradeRefusals] _ in _ = upgradeRefusals.take(for: channel) }
        schedule(context: context, in: deadline)
        waiting.add(context.channel)
    }

    /// How long a first request whose head has come may go unanswered (its body trickling, or a
    /// control that waits for the camera) before the connection is closed.
    static let answerBackstop = TimeAmount.seconds(60)

    /// Closes the connection at `delay` from now, unless the first answer has gone out by then.
    private func schedule(context: ChannelHandlerContext, in delay: TimeAmount) {
        timer?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay) { loopBound.value.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        waiting.remove(context.channel)
    }

    /// A server shutting down asks its connections to finish: one still waiting for its first
    /// request has nothing to finish, so it closes at once rather than at its deadline.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !headEnded {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard !headEnded else { return context.fireChannelRead(data) }
        let buffer = unwrapInboundIn(data)
        let searchFrom = max(0, head.count - 3)
        head += buffer.readableBytesView.prefix(maximumHeadSize + 1 - min(head.count, maximumHeadSize))
        let end = Self.blankLine(in: head, from: searchFrom)
        if end == nil, head.count > maximumHeadSize { return refuse(context: context, "431 Request Header Fields Too Large") }
        if let end {
            headEnded = true
            waiting.remove(context.channel)
            guard Self.isRequestHead(head[..<end]) else {
                return refuse(context: context, "400 Bad Request", reason: "This is not an HTTP/1.1 request.")
            }
            if let full = admission.admit(head[..<end]) { return refuse(context: context, "503 Service Unavailable", reason: full) }
            context.channel.closeFuture.whenComplete { [admission] _ in admission.left() }
            // The head came in time: what follows is the server's to answer (HTTP's parser rejects are answered at once).
            schedule(context: context, in: Self.answerBackstop)
            head = []
        }
        context.fireChannelRead(data)
    }

    /// The first answer is going out: the first request is over, and so is this handler's part.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // After a refusal this handler wrote, nothing else goes out.
        if refused { return promise?.fail(ChannelError.ioOnClosedChannel) ?? () }
        // A refused WebSocket upgrade: its status and reason instead of Hummingbird's bare 400.
        if headEnded, let refusal = upgradeRefusals.take(for: context.channel) {
            promise?.succeed(())
            return refuse(context: context, refusal.status, reason: refusal.reason)
        }
        context.write(data, promise: promise)
        guard headEnded, !refused else { return }
        timer?.cancel()
        timer = nil
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// HTTP's parser rejected the head this handler let through: it is answered 400 at once.
    func parserFailed(context: ChannelHandlerContext, _ error: any Error) {
        guard !refused else { return }
        refuse(context: context, "400 Bad Request", reason: "The request cannot be parsed: \(error).")
    }

    /// Answers with a status and, with a reason, a JSON body saying it; then closes.
    private func refuse(context: ChannelHandlerContext, _ status: String, reason: String? = nil) {
        refused = true
        timer?.cancel()
        let body = reason.map { "{\"error\":\"\(Self.jsonEscaped($0))\"}" } ?? ""
        let type = body.isEmpty ? "" : "Content-Type: application/json\r\n"
        let answer = "HTTP/1.1 \(status)\r\nConnection: close\r\n\(type)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
    }

    /// `text` as the inside of a JSON string.
    private static func jsonEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Where CR LF CR LF ends in `bytes`, looking from `start`; nil when it is not there.
    private static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4, start <= bytes.count - 4 else { return nil }
        for index in start...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Whether a head (without its blank line) is a request line of HTTP/1.0 or 1.1 and header
    /// lines of a name, a colon and a value.
    static func isRequestHead(_ head: ArraySlice<UInt8>) -> Bool {
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map { $0.last == 13 ? $0.dropLast() : $0 }
        guard let first = lines.first else { return false }
        let parts = first.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ (65...90).contains($0) }), !parts[1].isEmpty,
            ["HTTP/1.1", "HTTP/1.0"].contains(String(decoding: parts[2], as: UTF8.self))
        else { return false }
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex, line[..<colon].allSatisfy(token.contains) else { return false }
        }
        return true
    }
}

/// The connections still waiting for their first request, so that a server that stops can close
/// them at once: one accepted as the server began to shut down hears no request to finish, and
/// would otherwise hold the shutdown until its deadline.
///
/// Thread ownership: any thread; channels are closed on their own event loops.
final class WaitingConnections: Sendable {
    private struct State {
        var closed = false
        var channels: [ObjectIdentifier: any Channel] = [:]
    }
    private let state = Mutex(State())

    init() {}

    /// Records a connection, or closes it when the server has stopped.
    func add(_ channel: any Channel) {
        let stopped = state.withLock { state -> Bool in
            if !state.closed { state.channels[ObjectIdentifier(channel)] = channel }
            return state.closed
        }
        if stopped { channel.close(promise: nil) }
    }

    /// Forgets a connection (its first request came, or it closed).
    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every waiting connection, and every one that arrives from now on.
    func closeAll() {
        let channels = state.withLock { state in
            state.closed = true
            defer { state.channels.removeAll() }
            return Array(state.channels.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// Sits right after HTTP's request decoder and hands its parse errors to the connection's
/// `FirstRequestLimitHandler` (which answers 400 at once); once that handler has left, a request
/// the parser rejects closes the connection at once. Runs on the connection's event loop.
final class ParseErrorAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private weak var first: FirstRequestLimitHandler?

    init(first: FirstRequestLimitHandler) { self.first = first }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        if let first, let firstContext = try? context.pipeline.syncOperations.context(handler: first) {
            first.parserFailed(context: firstContext, error)
        } else {
            context.close(promise: nil)
        }
    }
}

/// A server child channel that puts a `FirstRequestLimitHandler` in front of another's pipeline,
/// and a `ParseErrorAnswer` after its HTTP decoder.
struct FirstRequestLimitChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let deadline: TimeAmount
    let maximumHeadSize: Int
    let waiting: WaitingConnections
    let admission: ConnectionAdmission
    let upgradeRefusals: UpgradeRefusals

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let first = FirstRequestLimitHandler(
            deadline: deadline, maximumHeadSize: maximumHeadSize, waiting: waiting, admission: admission, upgradeRefusals: upgradeRefusals)
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { [first = NIOLoopBound(first, eventLoop: channel.eventLoop)] value in
            let operations = channel.pipeline.syncOperations
            if let decoder = try? operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
                try operations.addHandler(ParseErrorAnswer(first: first.value), position: .after(decoder.handler))
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
