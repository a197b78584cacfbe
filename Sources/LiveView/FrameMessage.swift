import CaptureDevices
import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing
import Hummingbird

/// The binary WebSocket message that carries one frame to the page.
///
/// Layout, little-endian: the capture time in milliseconds since 1970 (Float64), the frame's
/// number (UInt32), its width and height (UInt16 each), then the JPEG. The capture time is the
/// frame's presentation time on the host clock moved onto the wall clock, so a page on the same
/// machine measures capture-to-display latency against `Date.now()`.
///
/// The page answers each frame it has drawn with the text message `acknowledgement`; the server
/// sends a viewer at most `framesInFlight` frames it has not acknowledged, so a slow or paused
/// page is sent fewer frames, always the newest, and never builds a queue in the network.
enum FrameMessage {
    /// What the page sends once it has drawn a frame.
    static let acknowledgement = "drawn"
    /// The most frames sent to one viewer and not yet acknowledged.
    static let framesInFlight = 2

    /// The stream a viewer's acknowledgements are counted through: it keeps at most
    /// `framesInFlight` of them, so that a page that floods acknowledgements holds no more memory.
    static func acknowledgementStream() -> (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) {
        AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(framesInFlight))
    }

    /// The header's size in bytes.
    static let headerSize = 16

    /// The capture time of a preview frame on the wall clock, in milliseconds since 1970, from its
    /// time attachments; now when it has none.
    static func captureMilliseconds(of frame: CVPixelBuffer) -> Double {
        let now = Date().timeIntervalSince1970
        guard let (value, timescale) = frame.attachedTime, timescale > 0 else { return now * 1000 }
        let captured = CMTime(value: value, timescale: timescale)
        let age = CMClockGetTime(CMClockGetHostTimeClock()).seconds - captured.seconds
        return (now - max(0, age)) * 1000
    }

    /// Reads a message's header: capture time, number, width and height; nil when it is too short.
    static func header(of message: ByteBuffer) -> (captureMilliseconds: Double, number: UInt32, width: Int, height: Int)? {
        guard message.readableBytes > headerSize,
            let bits = message.getInteger(at: message.readerIndex, endianness: .little, as: UInt64.self),
            let number = message.getInteger(at: message.readerIndex + 8, endianness: .little, as: UInt32.self),
            let width = message.getInteger(at: message.readerIndex + 12, endianness: .little, as: UInt16.self),
            let height = message.getInteger(at: message.readerIndex + 14, endianness: .little, as: UInt16.self)
        else { return nil }
        return (Double(bitPattern: bits), number, Int(width), Int(height))
    }
}

/// Encodes preview frames as frame messages with libjpeg-turbo.
///
/// The JPEG is written straight after the header in one buffer, the only copy. Thread ownership:
/// one encoder belongs to one thread at a time (the preview layer's frame queue).
final class FrameMessageEncoder: @unchecked Sendable {
    private let encoder = JPEGEncoder()
    private let allocator = ByteBufferAllocator()
    private let quality: Int32
    private var number: UInt32 = 0

    /// Creates an encoder at a JPEG quality (1...100).
    init(quality: Int32) { self.quality = quality }

    /// The frame as a message, or nil when it cannot be encoded.
    func message(for frame: CVPixelBuffer) -> ByteBuffer? {
        let captured = FrameMessage.captureMilliseconds(of: frame)
        number &+= 1
        let number = self.number
        return encoder.encode(frame, quality: quality, accurateDCT: false) { jpeg -> ByteBuffer in
            var message = allocator.buffer(capacity: FrameMessage.headerSize + jpeg.count)
            message.writeInteger(captured.bitPattern, endianness: .little, as: UInt64.self)
            message.writeInteger(number, endianness: .little, as: UInt32.self)
            message.writeInteger(UInt16(clamping: CVPixelBufferGetWidth(frame)), endianness: .little, as: UInt16.self)
            message.writeInteger(UInt16(clamping: CVPixelBufferGetHeight(frame)), endianness: .little, as: UInt16.self)
            message.writeBytes(jpeg)
            return message
        }
    }
}
