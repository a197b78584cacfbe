import CoreVideo
import Dispatch
import Foundation

/// A tap on a node's output bus: frames gathered on the render thread into buffers of the tap's
/// size, handed to the tap's block on a queue of its own, in the tap's format.
///
/// Thread ownership: `take` is called by one producer at a time (the render thread, or the
/// microphone's for the input node); the block runs on the tap's queue. Four buffers go round
/// through two lock-free rings, and a dispatch source wakes the queue, so the producer neither
/// locks nor allocates. A block that keeps a buffer keeps it for good (a new one takes its
/// place, on the queue); a block so slow that it holds all four makes the producer drop frames,
/// never wait, and memory does not grow.
final class NodeTap: @unchecked Sendable {
    private static let count = 4
    private let source: AVAudioFormat
    private let format: AVAudioFormat
    private let bufferSize: AVAudioFrameCount
    private let block: AVAudioNodeTapBlock
    private let queue = DispatchQueue(label: "AVAudioNode tap")
    /// The buffers, by number; a number is owned by whoever took it from a ring.
    private let buffers: UnsafeMutablePointer<AVAudioPCMBuffer>
    /// The sample time of each full buffer's first frame.
    private let times: UnsafeMutablePointer<AVAudioFramePosition>
    /// Numbers of empty buffers (queue to producer) and of full ones (producer to queue).
    private let empty = HandoffRing<Int>(capacity: NodeTap.count)
    private let full = HandoffRing<Int>(capacity: NodeTap.count)
    private let wake: DispatchSourceUserDataAdd
    /// Converts the bus's format to the tap's, on the tap's queue, when they differ.
    private let converter: AVAudioConverter?
    /// Producer: the buffer being filled.
    private var filling: Int?

    init?(source: AVAudioFormat, format: AVAudioFormat, bufferSize: AVAudioFrameCount, block: @escaping AVAudioNodeTapBlock) {
        var made: [AVAudioPCMBuffer] = []
        for _ in 0..<Self.count {
            guard let buffer = AVAudioPCMBuffer(pcmFormat: source, frameCapacity: bufferSize) else { return nil }
            made.append(buffer)
        }
        self.source = source
        self.format = format
        self.bufferSize = bufferSize
        self.block = block
        buffers = .allocate(capacity: Self.count)
        buffers.initialize(from: made, count: Self.count)
        times = .allocate(capacity: Self.count)
        times.initialize(repeating: 0, count: Self.count)
        converter = source.isEqual(format) ? nil : AVAudioConverter(from: source, to: format)
        wake = DispatchSource.makeUserDataAddSource(queue: queue)
        for number in 0..<Self.count { empty.push(number) }
        wake.setEventHandler { [weak self] in self?.deliverFullBuffers() }
        wake.activate()
    }

    deinit {
        wake.cancel()
        buffers.deinitialize(count: Self.count)
        buffers.deallocate()
        times.deallocate()
    }

    /// On the producer: takes `frames` rendered frames that start at `sampleTime`.
    func take(_ buffer: AVAudioPCMBuffer, frames: Int, sampleTime: AVAudioFramePosition) {
        var done = 0
        while done < frames {
            if filling == nil {
                guard let next = empty.pop() else { return }
                buffers[next].frameLength = 0
                times[next] = sampleTime + AVAudioFramePosition(done)
                filling = next
            }
            guard let number = filling else { return }
            let target = buffers[number]
            let count = min(frames - done, Int(bufferSize - target.frameLength))
            target.copyFrames(from: buffer, at: done, to: Int(target.frameLength), count: count)
            target.frameLength += AVAudioFrameCount(count)
            done += count
            if target.frameLength == bufferSize {
                filling = nil
                full.push(number)
                wake.add(data: 1)
            }
        }
    }

    /// On the tap's queue: calls the block with each full buffer, then hands the buffer back.
    private func deliverFullBuffers() {
        while let number = full.pop() {
            let time = AVAudioTime(sampleTime: times[number], atRate: source.sampleRate)
            if let converter, let converted = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: bufferSize) {
                try? converter.convert(to: converted, from: buffers[number])
                block(converted, time)
            } else {
                block(buffers[number], time)
            }
            if !isKnownUniquelyReferenced(&buffers[number]), let fresh = AVAudioPCMBuffer(pcmFormat: source, frameCapacity: bufferSize) {
                // The block kept the buffer: it is the block's now.
                buffers[number] = fresh
            }
            empty.push(number)
        }
    }
}
