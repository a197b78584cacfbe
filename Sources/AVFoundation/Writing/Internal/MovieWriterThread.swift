import Foundation

/// A thread that writes a movie, fed through a bounded queue.
///
/// Producers (device threads, or a client appending) never wait: `enqueue` returns false
/// when the queue is full, and the caller decides what to drop. A final item always fits.
/// The handler runs on the thread; the thread ends when the handler returns false.
final class MovieWriterThread: @unchecked Sendable {
    enum Item {
        case video(CVPixelBuffer, CMTime, keyFrame: Bool = false)
        case audio(CMSampleBuffer, Int64)
        /// An already-compressed sample, with its presentation and decode times relative to the start.
        case packet(CMSampleBuffer, video: Bool, CMTime, CMTime)
        case finish
    }

    private let condition = NSCondition()
    private var ring: [Item?]
    private var head = 0
    private var count = 0
    private var videoCount = 0
    private let capacity: Int
    private let videoCapacity: Int
    private var running = true

    /// How many frames a recording may queue for its encoder: 133 ms at 30 fps, which absorbs an
    /// encoder's stall on a busy moment (its file opens before the recording starts, so many
    /// cameras starting at once do not queue behind eight encoders' set-up). A deeper queue made
    /// things worse: eight 720p cameras on two cores with 8 frames each peaked at 211-297 MB and
    /// lost up to 5 frames a camera in half the runs, the pool's new buffers costing the time that
    /// put encoders further behind; with 4, 208-212 MB and every frame, in every run.
    static let realTimeVideoQueue = 4

    /// Creates and starts a writer thread.
    init(name: String, capacity: Int = 64, videoCapacity: Int = 4, handler: @escaping @Sendable (Item) -> Bool) {
        self.capacity = capacity
        self.videoCapacity = videoCapacity
        ring = Array(repeating: nil, count: capacity + 1)
        let thread = Thread { [self] in run(handler) }
        thread.name = name
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Queues an item; false when the queue has no room for it.
    @discardableResult
    func enqueue(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard running else { return false }
        let isFinish: Bool
        switch item {
        case .finish: isFinish = true
        case .video: isFinish = false; if videoCount >= videoCapacity { return false }
        case .audio, .packet: isFinish = false
        }
        guard count < capacity || (isFinish && count <= capacity) else { return false }
        ring[(head + count) % ring.count] = item
        count += 1
        if case .video = item { videoCount += 1 }
        condition.broadcast()
        return true
    }

    /// Queues an item, waiting for room; false only when the thread has ended.
    @discardableResult
    func enqueueWaiting(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while running {
            let isVideo: Bool
            if case .video = item { isVideo = true } else { isVideo = false }
            if count < capacity, !isVideo || videoCount < videoCapacity {
                ring[(head + count) % ring.count] = item
                count += 1
                if isVideo { videoCount += 1 }
                condition.broadcast()
                return true
            }
            condition.wait()
        }
        return false
    }

    /// Waits until a video frame would fit, or the thread ends; returns whether it fits.
    func waitForRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while running, !(videoCount < videoCapacity && count < capacity) { condition.wait() }
        return running
    }

    /// How many items wait.
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Whether a video frame would fit now.
    var hasRoomForVideo: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running && videoCount < videoCapacity && count < capacity
    }

    private func run(_ handler: (Item) -> Bool) {
        while true {
            condition.lock()
            while count == 0 { condition.wait() }
            let item = ring[head]!
            ring[head] = nil
            head = (head + 1) % ring.count
            count -= 1
            if case .video = item { videoCount -= 1 }
            condition.broadcast()
            condition.unlock()
            if !handler(item) { break }
        }
        condition.lock()
        running = false
        condition.broadcast()
        for index in ring.indices { ring[index] = nil }
        count = 0
        condition.unlock()
    }
}
