import CoreMedia
import CoreVideo
import Foundation

/// A fixed set of audio sample buffers, each with its own block of samples.
///
/// A buffer is free again when no client holds its sample buffer, so steady-state capture
/// allocates nothing; when all are held, `dequeue` returns nil and the microphone reports a
/// discontinuity. Thread ownership: one producer thread.
package final class AudioBufferPool: @unchecked Sendable {
    private var shells: [CMSampleBuffer]
    private let blocks: [CMBlockBuffer]
    private let format: CMFormatDescription
    private let framesPerBuffer: Int
    private let bytesPerFrame: Int

    package init(description: AudioStreamBasicDescription, framesPerBuffer: Int, capacity: Int = 32) {
        format = CMFormatDescription(audio: description)
        self.framesPerBuffer = framesPerBuffer
        bytesPerFrame = Int(description.mBytesPerFrame)
        blocks = (0..<capacity).map { _ in CMBlockBuffer(capacity: framesPerBuffer * Int(description.mBytesPerFrame)) }
        shells = (0..<capacity).map { _ in CMSampleBuffer() }
    }

    /// The index of a free buffer, or nil when clients hold them all.
    package func dequeue() -> Int? {
        for index in shells.indices where isOnlyReferencedByPool(&shells[index]) { return index }
        return nil
    }

    /// The samples of buffer `index`, to fill.
    package func samples(_ index: Int) -> UnsafeMutablePointer<Int16> { blocks[index].bytes.assumingMemoryBound(to: Int16.self) }

    /// The sample buffer of buffer `index`, once its samples are filled, stamped with the time of its first sample.
    package func finish(_ index: Int, at time: CMTime) -> CMSampleBuffer {
        let shell = shells[index], block = blocks[index]
        shell.reset()
        block.length = framesPerBuffer * bytesPerFrame
        shell.dataBufferStorage = block
        shell.formatDescriptionStorage = format
        shell.sampleCount = framesPerBuffer
        shell.sampleSize = bytesPerFrame
        shell.timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: time.timescale), presentationTimeStamp: time, decodeTimeStamp: .invalid)
        return shell
    }
}
