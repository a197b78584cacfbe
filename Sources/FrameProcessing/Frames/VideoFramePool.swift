import CoreMedia
import CoreVideo
import Foundation

/// A fixed set of video frames: pixel buffers from a fixed-size pixel buffer pool, handed out
/// with sample buffers that carry them.
///
/// A frame is free again when neither its sample buffer nor its pixel buffer is held
/// outside the pool, so steady-state capture allocates nothing. When every frame is held,
/// `dequeue` returns `nil` and the caller drops the frame with `OutOfBuffers`.
/// Thread-safe.
package final class VideoFramePool: @unchecked Sendable {
    package let width: Int
    package let height: Int
    package let pixelFormat: OSType
    package let capacity: Int
    package let formatDescription: CMFormatDescription
    private let pixelBuffers: CVPixelBufferPool
    private let shells: LockedValue<[CMSampleBuffer]>

    /// Allocates `capacity` frames up front.
    package convenience init?(width: Int, height: Int, pixelFormat: OSType, capacity: Int) {
        guard let pixelBuffers = CVPixelBufferPool.videoFrames(width: width, height: height, pixelFormatType: pixelFormat, count: capacity) else { return nil }
        self.init(pixelBuffers, capacity: capacity)
    }

    /// Frames over `buffers` (of one size and format), such as memory a device writes into.
    package convenience init?(frames buffers: [CVPixelBuffer]) {
        guard let pixelBuffers = CVPixelBufferPool(buffers: buffers) else { return nil }
        self.init(pixelBuffers, capacity: buffers.count)
    }

    private init(_ pixelBuffers: CVPixelBufferPool, capacity: Int) {
        width = pixelBuffers.width
        height = pixelBuffers.height
        pixelFormat = pixelBuffers.pixelFormatType
        self.capacity = capacity
        formatDescription = CMFormatDescription(video: pixelFormat, width: Int32(width), height: Int32(height))
        self.pixelBuffers = pixelBuffers
        shells = LockedValue((0..<capacity).map { _ in CMSampleBuffer() })
    }

    /// Returns a free frame's pixel buffer and an emptied sample buffer, or `nil` if all are held.
    package func dequeue() -> (CVPixelBuffer, CMSampleBuffer)? {
        shells.withLock { shells in
            // A sample buffer the clients have let go of lets go of its frame too, so that the frame is free.
            var free: Int?
            for index in shells.indices where isOnlyReferencedByPool(&shells[index]) {
                shells[index].imageBufferStorage = nil
                if free == nil { free = index }
            }
            guard let free, let pixelBuffer = pixelBuffers.dequeue() else { return nil }
            shells[free].reset()
            return (pixelBuffer, shells[free])
        }
    }

    /// Fills a dequeued sample buffer with its pixel buffer and timing.
    package func prepare(_ sampleBuffer: CMSampleBuffer, pixelBuffer: CVPixelBuffer, presentationTime: CMTime, duration: CMTime) {
        sampleBuffer.imageBufferStorage = pixelBuffer
        sampleBuffer.formatDescriptionStorage = formatDescription
        sampleBuffer.timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: presentationTime, decodeTimeStamp: .invalid)
        sampleBuffer.sampleCount = 1
    }
}

/// A fixed set of empty sample buffers, for reports such as dropped frames. Thread-safe.
package final class SampleBufferShellPool: @unchecked Sendable {
    private let shells: LockedValue<[CMSampleBuffer]>

    package init(capacity: Int) {
        shells = LockedValue((0..<capacity).map { _ in CMSampleBuffer() })
    }

    /// Returns an emptied shell, or a new one when all are held.
    package func dequeue() -> CMSampleBuffer {
        shells.withLock { shells in
            for index in shells.indices where isOnlyReferencedByPool(&shells[index]) {
                shells[index].reset()
                return shells[index]
            }
            return CMSampleBuffer()
        }
    }

    /// Returns a sample buffer for one picture: an emptied shell (or a new one when all are held)
    /// carrying `imageBuffer`, its format description and its timing, as
    /// `CMSampleBufferCreateReadyWithImageBuffer` makes it.
    package func sampleBuffer(imageBuffer: CVPixelBuffer, formatDescription: CMFormatDescription, timing: CMSampleTimingInfo) -> CMSampleBuffer {
        let shell = dequeue()
        shell.imageBufferStorage = imageBuffer
        shell.formatDescriptionStorage = formatDescription
        shell.timing = timing
        shell.sampleCount = 1
        return shell
    }
}
