import CoreVideo
import Foundation

/// A tap on a node's output bus: frames gathered on the render thread into buffers of the tap's
/// size, handed to the tap's block on a queue of its own, in the tap's format.
///
/// Thread ownership: `take` is called on the render thread; the block runs on the tap's queue.
/// Four buffers go round. A block that keeps a buffer keeps it for good (a new one takes its
/// place); a block so slow that it holds all four makes the render thread drop frames, never
/// wait, and memory does not grow.
final class NodeTap: @unchecked Sendable {
    private let source: AVAudioFormat
    private let format: AVAudioFormat
    private let bufferSize: AVAudioFrameCount
    private let block: AVAudioNodeTapBlock
    private let queue = DispatchQueue(label: "AVAudioNode tap")
    private let free: LockedValue<[AVAudioPCMBuffer]>
    /// Buffers on their way to the queue, by number, so that the queue holds the only reference.
    private let handed = LockedValue<[Int: AVAudioPCMBuffer]>([:])
    /// Converts the bus's format to the tap's, on the tap's queue, when they differ.
    private let converter: AVAudioConverter?
    /// Render thread: the buffer being filled, the sample time of its first frame, and the last buffer's number.
    private var filling: AVAudioPCMBuffer?
    private var fillingTime: AVAudioFramePosition = 0
    private var sequence = 0

    init(source: AVAudioFormat, format: AVAudioFormat, bufferSize: AVAudioFrameCount, block: @escaping AVAudioNodeTapBlock) {
        self.source = source
        self.format = format
        self.bufferSize = bufferSize
        self.block = block
        free = LockedValue((0..<4).compactMap { _ in AVAudioPCMBuffer(pcmFormat: source, frameCapacity: bufferSize) })
        converter = source.isEqual(format) ? nil : AVAudioConverter(from: source, to: format)
    }

    /// On the render thread: takes `frames` rendered frames that start at `sampleTime`.
    func take(_ buffer: AVAudioPCMBuffer, frames: Int, sampleTime: AVAudioFramePosition) {
        var done = 0
        while done < frames {
            if filling == nil {
                guard let next = free.withLock({ $0.popLast() }) else { return }
                next.frameLength = 0
                filling = next
                fillingTime = sampleTime + AVAudioFramePosition(done)
            }
            guard let target = filling else { return }
            let count = min(frames - done, Int(bufferSize - target.frameLength))
            target.copyFrames(from: buffer, at: done, to: Int(target.frameLength), count: count)
            target.frameLength += AVAudioFrameCount(count)
            done += count
            if target.frameLength == bufferSize {
                sequence += 1
                let number = sequence, time = fillingTime
                handed.withLock { $0[number] = target }
                filling = nil
                queue.async { [self] in deliver(number, at: time) }
            }
        }
    }

    /// On the tap's queue: calls the block with a full buffer, then puts a buffer back in the pool.
    private func deliver(_ number: Int, at sampleTime: AVAudioFramePosition) {
        guard var buffer = handed.withLock({ $0.removeValue(forKey: number) }) else { return }
        let time = AVAudioTime(sampleTime: sampleTime, atRate: buffer.format.sampleRate)
        if let converter, let converted = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: bufferSize) {
            try? converter.convert(to: converted, from: buffer)
            block(converted, time)
        } else {
            block(buffer, time)
        }
        if !isKnownUniquelyReferenced(&buffer), let fresh = AVAudioPCMBuffer(pcmFormat: source, frameCapacity: bufferSize) {
            // The block kept the buffer: it is the block's now.
            buffer = fresh
        }
        free.withLock { $0.append(buffer) }
    }
}
