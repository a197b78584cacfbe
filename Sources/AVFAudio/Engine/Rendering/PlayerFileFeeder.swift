import Dispatch
import Foundation
import Synchronization

/// A segment of a file a player node plays, read ahead off the render thread: a queue reads it
/// in blocks into a ring of half a second, and the renderer takes frames from the ring.
///
/// Thread ownership: made on the thread that schedules; `fill` runs on the reading queue; `take`
/// is called by the renderer; `cancel` from the player's completion queue. Rendering in real time
/// the renderer never waits: frames the queue has not read yet are silence. Rendering offline it
/// waits for them, as an offline render may.
final class PlayerFileFeeder: @unchecked Sendable {
    /// The queue every player's files are read on.
    private static let reading = DispatchQueue(label: "AVAudioPlayerNode file reading", qos: .userInitiated)
    private static let block: AVAudioFrameCount = 4096
    private let file: AVAudioFile
    private let start: AVAudioFramePosition
    /// The frames of the segment.
    let frames: Int64
    private let ring: SampleRing
    private let wake: DispatchSourceUserDataAdd
    /// Signalled each time the queue has read a block, or reached the end.
    private let arrived = DispatchSemaphore(value: 0)
    /// Reading queue: the frames read so far, and the block they are read into.
    private var readSoFar: Int64 = 0
    private var scratch: AVAudioPCMBuffer?
    /// Whether every frame that will come has been read (the end, or a read that failed).
    private let ended = Atomic(false)
    private let cancelled = Atomic(false)

    init(file: AVAudioFile, start: AVAudioFramePosition, frames: Int64) {
        self.file = file
        self.start = start
        self.frames = frames
        let format = file.processingFormat
        ring = SampleRing(channels: Int(format.channelCount), capacity: Int(min(frames, Int64(format.sampleRate / 2))) + Int(Self.block))
        wake = DispatchSource.makeUserDataAddSource(queue: Self.reading)
        wake.setEventHandler { [weak self] in self?.fill() }
        wake.activate()
        wake.add(data: 1)
    }

    deinit { wake.cancel() }

    /// Whether every frame has been read and taken.
    var isExhausted: Bool { ended.load(ordering: .acquiring) && ring.available == 0 }

    /// Stops reading ahead; the file is left alone from here.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        wake.cancel()
    }

    /// On the reading queue: reads blocks while the ring has room for them.
    private func fill() {
        let format = file.processingFormat
        while !cancelled.load(ordering: .relaxed), !ended.load(ordering: .relaxed) {
            let left = frames - readSoFar
            let count = AVAudioFrameCount(min(Int64(Self.block), left))
            guard count > 0 else {
                ended.store(true, ordering: .releasing)
                break
            }
            guard ring.room >= Int(count) else { break }
            if scratch == nil { scratch = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: Self.block) }
            guard let scratch else { break }
            scratch.frameLength = 0
            if file.framePosition != start + readSoFar { file.framePosition = start + readSoFar }
            if (try? file.read(into: scratch, frameCount: count)) == nil || scratch.frameLength == 0 {
                ended.store(true, ordering: .releasing)
                break
            }
            ring.write(scratch)
            readSoFar += Int64(scratch.frameLength)
            arrived.signal()
        }
        arrived.signal()
    }

    /// On the renderer: up to `count` frames into a buffer from its frame `position`; the frames
    /// given. Offline (`waiting`), it waits for the frames the queue has still to read.
    func take(into buffer: AVAudioPCMBuffer, at position: Int, frames count: Int, waiting: Bool) -> Int {
        var got = ring.read(into: buffer, at: position, frames: count)
        while waiting, got < count, !isExhausted, !cancelled.load(ordering: .relaxed) {
            wake.add(data: 1)
            _ = arrived.wait(timeout: .now() + .milliseconds(50))
            got += ring.read(into: buffer, at: position + got, frames: count - got)
        }
        // The queue is woken only when a block fits: not every cycle.
        if ring.room >= Int(Self.block), !ended.load(ordering: .relaxed) { wake.add(data: 1) }
        return got
    }
}
