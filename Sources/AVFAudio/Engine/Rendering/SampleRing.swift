import Foundation
import Synchronization

/// Deinterleaved float frames passed from one thread (a microphone's) to another (the render
/// thread): a ring of fixed size per channel, written and read without locks.
///
/// Thread ownership: one writer and one reader. A writer that finds the ring full drops the
/// newest frames; a reader that finds it short gets silence for the rest.
final class SampleRing: @unchecked Sendable {
    private let channels: Int
    private let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: channels * self.capacity)
        storage.initialize(repeating: 0, count: channels * self.capacity)
    }

    deinit { storage.deallocate() }

    /// Writes a buffer's frames (deinterleaved floats, the ring's channels).
    func write(_ buffer: AVAudioPCMBuffer) {
        guard let data = buffer.floatChannelData else { return }
        let start = written.load(ordering: .relaxed), end = read.load(ordering: .acquiring)
        let room = capacity - (start - end)
        let frames = min(room, Int(buffer.frameLength))
        for channel in 0..<channels {
            let source = data[min(channel, Int(buffer.format.channelCount) - 1)]
            let ring = storage + channel * capacity
            for frame in 0..<frames { ring[(start + frame) % capacity] = source[frame] }
        }
        written.store(start + frames, ordering: .releasing)
    }

    /// The frames waiting to be read.
    var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }

    /// The frames that can be written without dropping any.
    var room: Int { capacity - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring)) }

    /// Drops up to `frames` waiting frames, the oldest first.
    func discard(_ frames: Int) {
        let start = read.load(ordering: .relaxed), end = written.load(ordering: .acquiring)
        read.store(start + max(0, min(frames, end - start)), ordering: .releasing)
    }

    /// Reads up to `frames` waiting frames into a buffer from its frame `position`, leaving the
    /// rest untouched; the frames read.
    func read(into buffer: AVAudioPCMBuffer, at position: Int, frames: Int) -> Int {
        guard let data = buffer.floatChannelData else { return 0 }
        let start = read.load(ordering: .relaxed), end = written.load(ordering: .acquiring)
        let count = max(0, min(frames, end - start))
        for channel in 0..<Int(buffer.format.channelCount) {
            let destination = data[channel] + position
            let ring = storage + min(channel, channels - 1) * capacity
            let first = min(count, capacity - start % capacity)
            destination.update(from: ring + start % capacity, count: first)
            if count > first { (destination + first).update(from: ring, count: count - first) }
        }
        read.store(start + count, ordering: .releasing)
        return count
    }

    /// Reads `frames` frames into a buffer; false when nothing was waiting (silence).
    func read(into buffer: AVAudioPCMBuffer, frames: Int) -> Bool {
        guard let data = buffer.floatChannelData else { return false }
        let start = read.load(ordering: .relaxed), end = written.load(ordering: .acquiring)
        let available = min(frames, end - start)
        for channel in 0..<Int(buffer.format.channelCount) {
            let destination = data[channel]
            let ring = storage + min(channel, channels - 1) * capacity
            for frame in 0..<max(0, available) { destination[frame] = ring[(start + frame) % capacity] }
            for frame in max(0, available)..<frames { destination[frame] = 0 }
        }
        read.store(start + max(0, available), ordering: .releasing)
        return available > 0
    }
}
