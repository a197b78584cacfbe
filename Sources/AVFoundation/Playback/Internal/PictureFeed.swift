import CoreMedia
import Foundation

/// Decodes a track's pictures for a video output, a few ahead of the item's time, on a thread
/// of its own, in the direction of play.
///
/// Forwards it reads from the start time on; backwards it reads windows of a few frames, each
/// from the keyframe before it, and gives each window's pictures latest first. It holds at most
/// `capacity` pictures: when the client does not take them, the thread waits, and while the item
/// plays it drops the oldest picture once a later one is due (the client would pass over it).
///
/// Thread ownership: its thread decodes; any thread takes pictures; everything shared is under `condition`.
final class PictureFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private var pictures: [CMSampleBuffer] = []
    private var stopped = false
    private var finished = false
    private let capacity = 3

    private let asset: AVAsset
    private let track: AVAssetTrack
    private let settings: [String: Any]
    private let from: CMTime
    private let end: CMTime
    /// The video composition the pictures are composed by, when the item has one with instructions.
    private let composition: AVVideoComposition?
    private let forward: Bool
    private let arrived: @Sendable () -> Void
    /// The item's time and rate now.
    private let clock: @Sendable () -> (time: CMTime, rate: Double)

    init(
        asset: AVAsset, track: AVAssetTrack, settings: [String: Any], from: CMTime, end: CMTime, forward: Bool,
        composition: AVVideoComposition? = nil, clock: @escaping @Sendable () -> (time: CMTime, rate: Double),
        arrived: @escaping @Sendable () -> Void
    ) {
        self.clock = clock
        self.composition = composition.flatMap { $0.instructions.isEmpty || $0.onlyTurns(track) ? nil : $0 }
        self.asset = asset
        self.track = track
        self.settings = settings
        self.from = from
        self.end = end
        self.forward = forward
        self.arrived = arrived
    }

    func start() {
        let thread = Thread { [self] in
            if forward { readForwards() } else { readBackwards() }
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }
        thread.name = "AVPlayerItemVideoOutput"
        thread.start()
    }

    /// Stops decoding; pictures already decoded are dropped.
    func stop() {
        condition.withLock {
            stopped = true
            pictures.removeAll()
            condition.broadcast()
        }
    }

    /// The item's rate changed: a waiting thread looks at the time again.
    func wake() { condition.withLock { condition.broadcast() } }

    var hasPictures: Bool { condition.withLock { !pictures.isEmpty } }

    /// Whether a picture is due at an item time.
    func hasDue(at time: CMTime) -> Bool {
        condition.withLock { pictures.first.map { isDue($0, at: time) } ?? false }
    }

    /// The latest picture due at an item time; earlier ones are passed over.
    func take(dueAt time: CMTime) -> CMSampleBuffer? {
        condition.withLock {
            var taken: CMSampleBuffer?
            while let first = pictures.first, isDue(first, at: time) {
                taken = pictures.removeFirst()
            }
            if taken != nil { condition.broadcast() }
            return taken
        }
    }

    /// Whether the feed holds every picture due at an item time that it will give: it holds one
    /// that is not due yet, or has nothing more to decode.
    func isCaughtUp(at time: CMTime) -> Bool {
        condition.withLock { finished || stopped || pictures.contains { !isDue($0, at: time) } }
    }

    /// Waits until the first picture is decoded (or there is none), at most `timeout` seconds.
    func waitForFirst(timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.withLock {
            while pictures.isEmpty, !finished, !stopped {
                if !condition.wait(until: deadline) { break }
            }
        }
    }

    /// Forwards a picture is due once its time has come; backwards, once time has gone below its end.
    private func isDue(_ picture: CMSampleBuffer, at time: CMTime) -> Bool {
        let start = picture.presentationTimeStamp
        if forward { return start <= time }
        let duration = picture.duration.isNumeric ? picture.duration : track.minFrameDuration
        return start + duration > time
    }

    /// Hands a picture over, waiting for room; false once stopped.
    private func push(_ picture: CMSampleBuffer) -> Bool {
        let accepted = condition.withLock { () -> Bool in
            while pictures.count >= capacity, !stopped {
                let (now, rate) = clock()
                if isDue(pictures[1], at: now) {
                    pictures.removeFirst()  // superseded: a later picture is already due
                    continue
                }
                if rate == 0 {
                    condition.wait()
                } else {
                    let frame = track.minFrameDuration.isNumeric ? track.minFrameDuration.seconds : 1.0 / 30
                    _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.002, min(0.05, frame / abs(rate)))))
                }
            }
            guard !stopped else { return false }
            pictures.append(picture)
            condition.broadcast()
            return true
        }
        if accepted { arrived() }
        return accepted
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    /// A reader of the track's pictures over a time range, or of the pictures the composition composes.
    private func reader(for range: CMTimeRange) -> (AVAssetReader, AVAssetReaderOutput)? {
        guard let reader = try? AVAssetReader(asset: asset) else { return nil }
        reader.timeRange = range
        let output: AVAssetReaderOutput
        if let composition {
            let composing = AVAssetReaderVideoCompositionOutput(
                videoTracks: asset.tracks(withMediaType: .video), videoSettings: settings.filter { $0.key == kCVPixelBufferPixelFormatTypeKey as String })
            composing.videoComposition = composition
            output = composing
        } else {
            output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
        }
        output.alwaysCopiesSampleData = false
        reader.add(output)
        guard reader.startReading() else { return nil }
        return (reader, output)
    }

    private func readForwards() {
        guard end > from, let (reader, output) = reader(for: CMTimeRange(start: from, end: end)) else { return }
        defer { reader.cancelReading() }
        while let picture = output.copyNextSampleBuffer() {
            if !push(picture) { return }
        }
    }

    private func readBackwards() {
        let frame = track.minFrameDuration.isNumeric && track.minFrameDuration > .zero ? track.minFrameDuration : CMTime(value: 1, timescale: 30)
        let span = CMTimeMultiply(frame, multiplier: 8)
        // The picture showing at the start time is the first given.
        var windowEnd = from + CMTime(value: 1, timescale: 1000)
        var earliestGiven = CMTime.positiveInfinity
        while windowEnd > end, !isStopped {
            let windowStart = max(end, windowEnd - span)
            guard let (reader, output) = reader(for: CMTimeRange(start: windowStart, end: windowEnd)) else { return }
            var window: [CMSampleBuffer] = []
            while let picture = output.copyNextSampleBuffer() {
                if picture.presentationTimeStamp < earliestGiven { window.append(picture) }
                if isStopped { break }
            }
            reader.cancelReading()
            guard let earliest = window.map(\.presentationTimeStamp).min() else { return }
            for picture in window.sorted(by: { $0.presentationTimeStamp > $1.presentationTimeStamp }) {
                if !push(picture) { return }
            }
            earliestGiven = earliest
            windowEnd = earliest
        }
    }
}
