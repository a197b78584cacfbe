import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Bounds a connection's first request head in time and size: a connection that sends nothing,
/// or trickles its headers, would otherwise hold a place for ever (the server's idle timeout only
/// starts once a request has been read), and one whose head is too large would hang (the
/// upgrade pipeline the first request goes through answers no parse error).
///
/// It sits first in the connection's pipeline and watches the raw bytes for the blank line that
/// ends a request's head. Past the deadline it closes the connection; past `maximumHeadSize`
/// bytes it answers 431 and closes; when the server shuts down it closes. Once the head has ended
/// it leaves the pipeline, and the server's own idle timeout and parse errors take over. Runs on
/// the connection's event loop.
final class FirstRequestLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let deadline: TimeAmount
    private let maximumHeadSize: Int
    private let waiting: WaitingConnections
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find the blank line across reads.
    private var tail: [UInt8] = []
    private var headSize = 0
    private var refused = false

    init(deadline: TimeAmount, maximumHeadSize: Int, waiting: WaitingConnections) {
        self.deadline = deadline
        self.maximumHeadSize = maximumHeadSize
        self.waiting = waiting
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            loopBound.value.close(promise: nil)
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
        if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        tail += buffer.readableBytesView
        let ended = Self.containsBlankLine(tail)
        if tail.count > 3 { tail.removeFirst(tail.count - 3) }
        headSize += buffer.readableBytes
        if !ended, headSize > maximumHeadSize {
            refused = true
            let answer = "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).whenComplete { _ in
                loopBound.value.close(promise: nil)
            }
            return
        }
        context.fireChannelRead(data)
        if ended {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// Whether `bytes` hold CR LF CR LF.
    private static func containsBlankLine(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        return false
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
