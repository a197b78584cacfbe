import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Bounds a connection's first request in time and size, and answers one that is not HTTP: a
/// connection that sends nothing, trickles its headers, or sends a head no HTTP parser takes would
/// otherwise hold a place for ever (the server's idle timeout only starts once a request has been
/// parsed, and the upgrade pipeline the first request goes through answers no parse error), and
/// one whose head is too large would hang.
///
/// It sits first in the connection's pipeline and watches the raw bytes of the first request's
/// head (at most `maximumHeadSize`, kept until its blank line). Past `maximumHeadSize` bytes it
/// answers 431 and closes; a head that is not an HTTP/1.0 or 1.1 request line and header lines
/// is answered 400 and closed; a connection that has no answer by the deadline is closed (a head
/// that had ended answered 400). When the server shuts down, a connection still waiting for its
/// head closes. Once the first answer goes out it leaves the pipeline, and the server's own idle
/// timeout takes over. Runs on the connection's event loop.
final class FirstRequestLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let deadline: TimeAmount
    private let maximumHeadSize: Int
    private let waiting: WaitingConnections
    private var timer: Scheduled<Void>?
    /// The head's bytes so far, until its blank line.
    private var head: [UInt8] = []
    private var headEnded = false
    private var refused = false

    init(deadline: TimeAmount, maximumHeadSize: Int, waiting: WaitingConnections) {
        self.deadline = deadline
        self.maximumHeadSize = maximumHeadSize
        self.waiting = waiting
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            let (context, handler) = loopBound.value
            // A head that ended and has no answer was one the server could not read.
            if handler.headEnded, !handler.refused { handler.refuse(context: context, "400 Bad Request") } else { context.close(promise: nil) }
        }
        waiting.add(context.channel)
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
            guard Self.isRequestHead(head[..<end]) else { return refuse(context: context, "400 Bad Request") }
            head = []
        }
        context.fireChannelRead(data)
    }

    /// The first answer is going out: the first request is over, and so is this handler's part.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard headEnded, !refused else { return }
        timer?.cancel()
        timer = nil
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Answers with a status and no body, and closes.
    private func refuse(context: ChannelHandlerContext, _ status: String) {
        refused = true
        let answer = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
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

/// A server child channel that puts a `FirstRequestLimitHandler` in front of another's pipeline.
struct FirstRequestLimitChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let deadline: TimeAmount
    let maximumHeadSize: Int
    let waiting: WaitingConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                FirstRequestLimitHandler(
                    deadline: deadline, maximumHeadSize: maximumHeadSize,
                    waiting: waiting))
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
