import HummingbirdCore
import Logging
import NIOCore

/// Bounds a connection's first request head in time and size: a connection that sends nothing,
/// or trickles its headers, would otherwise hold a place for ever (the server's idle timeout only
/// starts once a request has been read), and one whose head is too large would hang (the
/// upgrade pipeline the first request goes through answers no parse error).
///
/// It sits first in the connection's pipeline and watches the raw bytes for the blank line that
/// ends a request's head. Past the deadline it closes the connection; past `maximumHeadSize`
/// bytes it answers 431 and closes. Once the head has ended it leaves the pipeline, and the
/// server's own idle timeout and parse errors take over. Runs on the connection's event loop.
final class FirstRequestLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let deadline: TimeAmount
    private let maximumHeadSize: Int
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find the blank line across reads.
    private var tail: [UInt8] = []
    private var headSize = 0
    private var refused = false

    init(deadline: TimeAmount, maximumHeadSize: Int) {
        self.deadline = deadline
        self.maximumHeadSize = maximumHeadSize
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            loopBound.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
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

/// A server child channel that puts a `FirstRequestLimitHandler` in front of another's pipeline.
struct FirstRequestLimitChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let deadline: TimeAmount
    let maximumHeadSize: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(FirstRequestLimitHandler(deadline: deadline, maximumHeadSize: maximumHeadSize))
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
