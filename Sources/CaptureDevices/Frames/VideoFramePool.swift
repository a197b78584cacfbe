import CoreMedia
import CoreVideo
import Foundation

/// A fixed set of video frames: pixel buffers paired with the sample buffers that carry them.
///
/// A frame is free again when neither its sample buffer nor its pixel buffer is held
/// outside the pool, so steady-state capture allocates nothing. When every frame is held,
/// `dequeue` returns `nil` and the caller drops the frame with `OutOfBuffers`.
/// Thread-safe.
package final class VideoFramePool: @unchecked Sendable {
    private struct Slot {
        var pixelBuffer: CVPixelBuffer
        var sampleBuffer: CMSampleBuffer
    }

    package let width: Int
    package let height: Int
    package let pixelFormat: OSType
    package let capacity: Int
    package let formatDescription: CMFormatDescription
    private let slots: LockedValue<[Slot]>

    /// Allocates `capacity` frames up front.
    package init?(width: Int, height: Int, pixelFormat: OSType, capacity: Int) {
        var slots: [Slot] = []
        slots.reserveCapacity(capacity)
        for _ in 0..<capacity {
            guard let pixelBuffer = CVPixelBuffer(width: width, height: height, pixelFormatType: pixelFormat) else { return nil }
            // Video's colour convention until whoever fills the frame says otherwise.
            VideoColorimetry.standard(width: width, height: height).tag(pixelBuffer)
            slots.append(Slot(pixelBuffer: pixelBuffer, sampleBuffer: CMSampleBuffer()))
        }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.capacity = capacity
        self.formatDescription = CMFormatDescription(video: pixelFormat, width: Int32(width), height: Int32(height))
        self.slots = LockedValue(slots)
    }

    /// Returns a free frame's pixel buffer and sample buffer, the sample buffer emptied, or `nil` if all are held.
    package func dequeue() -> (CVPixelBuffer, CMSampleBuffer)? {
        slots.withLock { slots in
            for index in slots.indices where isOnlyReferencedByPool(&slots[index].sampleBuffer) {
                slots[index].sampleBuffer.imageBufferStorage = nil
                guard isOnlyReferencedByPool(&slots[index].pixelBuffer) else { continue }
                let sample = slots[index].sampleBuffer
                sample.reset()
                return (slots[index].pixelBuffer, sample)
            }
            return nil
        }
    }

    /// Fills a dequeued sample buffer with its pixel buffer and timing.
    package func prepare(_ sampleBuffer: CMSampleBuffer, pixelBuffer: CVPixelBuffer, presentationTime: CMTime, duration: CMTime) {
        sampleBuffer.imageBufferStorage = pixelBuffer
        sampleBuffer.formatDescriptionStorage = formatDescription
        sampleBuffer.timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: presentationTime, decodeTimeStamp: .invalid)
        sampleBuffer.sampleCount = 1
    }

    /// The number of frames held outside the pool now.
    package var framesInUse: Int {
        slots.withLock { slots in
            var count = 0
            for index in slots.indices {
                let sampleHeld = !isKnownUniquelyReferenced(&slots[index].sampleBuffer)
                if sampleHeld { count += 1; continue }
                if slots[index].sampleBuffer.imageBufferStorage == nil, !isKnownUniquelyReferenced(&slots[index].pixelBuffer) { count += 1 }
            }
            return count
        }
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
}
