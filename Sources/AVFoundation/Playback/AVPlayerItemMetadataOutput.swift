import CoreMedia
import Foundation
import MovieEngine

/// The methods a push output's delegate implements.
public protocol AVPlayerItemOutputPushDelegate: NSObjectProtocol {
    /// The output's media sequence was flushed, as a seek or a new item flushes it.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPushDelegate {
    /// Does nothing.
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}

/// The methods a metadata output's delegate implements to receive timed metadata as playback reaches it.
public protocol AVPlayerItemMetadataOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// New timed metadata groups became current, from a track of the item (nil when the track is not known).
    func metadataOutput(_ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup], from track: AVPlayerItemTrack?)
}

extension AVPlayerItemMetadataOutputPushDelegate {
    /// Does nothing.
    public func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup], from track: AVPlayerItemTrack?
    ) {}
}

/// An output that gives an item's timed metadata to its delegate as playback reaches it.
///
/// On Linux, timed metadata is the ID3 tags an MPEG-TS stream carries (as HLS segments do),
/// read with FFmpeg and libid3tag: each tag is a group, lasting until the next tag of its track,
/// each frame an item (`id3/TIT2`, `id3/TXXX`, `id3/PRIV`, ...). A group is delivered when the
/// item's time reaches its start (less `advanceIntervalForDelegateInvocation`) during playback
/// at any rate and direction, by the player's own timer or its manual clock. After a seek, or when
/// the output is added, the delegate hears `outputSequenceWasFlushed(_:)` (when it had been given
/// groups) and then the groups current at the new time. The tags are read once, from the stream's
/// start on a thread of the output's own, when the output first follows an item, and published as
/// they are read (a group already current then is given at once); a tag libid3tag cannot read is
/// passed over.
open class AVPlayerItemMetadataOutput: AVPlayerItemOutput, @unchecked Sendable {
    private let identifiers: Set<String>?
    private struct Delegation: @unchecked Sendable {
        weak var delegate: (any AVPlayerItemMetadataOutputPushDelegate)?
        var queue: DispatchQueue?
        var advance: TimeInterval = 0
    }
    private let delegation = LockedValue(Delegation())

    /// One group with where it applies, and the item track it comes from.
    private struct Entry {
        let group: AVTimedMetadataGroup
        let start: CMTime
        let end: CMTime
        let trackID: CMPersistentTrackID
    }
    /// The groups read so far, what was delivered and the player's last move followed.
    private struct Timeline {
        weak var item: AVPlayerItem?
        /// The groups read so far, in time order.
        var entries: [Entry] = []
        /// Groups published since playback last crossed a time, already given as current then.
        var justPublished: Set<ObjectIdentifier> = []
        /// Whether groups were given since the last flush.
        var delivered = false
        /// The item time the output last heard of: a "jump" to it (the item becoming ready, a
        /// clock changed) is no discontinuity, and flushes nothing.
        var position: CMTime?
        /// Whether reading has ended: at the stream's end, or at `maximumGroups`.
        var finished = false
        /// Whether reading ended at `maximumGroups`.
        var reachedLimit = false
        var move = 0
    }
    private let timeline = LockedValue(Timeline())

    /// Creates an output that delivers the items whose identifiers are listed (`id3/TIT2`, ...), or every item for nil.
    public init(identifiers: [String]?) {
        self.identifiers = identifiers.map(Set.init)
        super.init()
    }

    /// Sets the delegate given the metadata, and the queue it is given it on (the main queue for nil).
    open func setDelegate(_ delegate: (any AVPlayerItemMetadataOutputPushDelegate)?, queue delegateQueue: DispatchQueue?) {
        nonisolated(unsafe) let delegate = delegate
        delegation.withLock {
            $0.delegate = delegate; $0.queue = delegateQueue
        }
    }

    /// The delegate.
    open var delegate: (any AVPlayerItemMetadataOutputPushDelegate)? { delegation.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }
    /// How long before its time, in seconds of item time, a group is delivered.
    open var advanceIntervalForDelegateInvocation: TimeInterval {
        get { delegation.withLock { $0.advance } }
        set { delegation.withLock { $0.advance = newValue.isFinite ? max(0, newValue) : 0 } }
    }

    // MARK: Following the player

    override func detach() {
        super.detach()
        timeline.withLock { $0 = Timeline() }
    }

    override func playerMoved(time: CMTime, rate: Double, jumped: Bool, timeJumped: Bool, move: Int) {
        guard let item else { return }
        let (load, flush, current) = timeline.withLock { timeline -> (Bool, Bool, [Entry]) in
            guard move > timeline.move else { return (false, false, []) }
            timeline.move = move
            var load = false
            if timeline.item !== item {
                timeline = Timeline(item: item, move: move)
                load = true
            }
            defer { timeline.position = time }
            // The media restarting where they were (the item becoming ready while time runs) is no jump.
            guard timeJumped, timeline.position != time else { return (load, false, []) }
            let flush = timeline.delivered
            let current = Self.entries(timeline.entries, currentAt: time)
            timeline.delivered = timeline.delivered || !current.isEmpty
            return (load, flush, current)
        }
        if flush { tellFlushed() }
        deliver(current, of: item)
        if load { startLoading(item) }
    }

    override func playbackCrossed(from last: CMTime, to now: CMTime, forward: Bool) {
        guard let item else { return }
        let advance = advanceIntervalForDelegateInvocation
        let crossed = timeline.withLock { timeline -> [Entry] in
            guard timeline.item === item else { return [] }
            let published = timeline.justPublished
            timeline.justPublished = []
            timeline.position = now
            var due: [Entry] = []
            if forward {
                // The groups are in order of their starts: those due start after `last` and by `now`, less the advance.
                let interval = CMTime(seconds: advance, preferredTimescale: 1_000_000_000)
                var index = Self.firstIndex(in: timeline.entries, startingAfter: last + interval)
                while index < timeline.entries.count, timeline.entries[index].start <= now + interval {
                    if !published.contains(ObjectIdentifier(timeline.entries[index].group)) { due.append(timeline.entries[index]) }
                    index += 1
                }
            } else {
                due = timeline.entries.filter { entry in
                    guard !published.contains(ObjectIdentifier(entry.group)) else { return false }
                    let at = Self.deliveryTime(of: entry, advance: advance, forward: false)
                    return at < last && at >= now
                }
            }
            timeline.delivered = timeline.delivered || !due.isEmpty
            return due
        }
        deliver(crossed, of: item)
    }

    override func nextEventTime(after now: CMTime, forward: Bool) -> CMTime? {
        let advance = advanceIntervalForDelegateInvocation
        return timeline.withLock { timeline -> CMTime? in
            if forward {
                let interval = CMTime(seconds: advance, preferredTimescale: 1_000_000_000)
                let index = Self.firstIndex(in: timeline.entries, startingAfter: now + interval)
                return index < timeline.entries.count ? timeline.entries[index].start - interval : nil
            }
            var latest: CMTime?
            for entry in timeline.entries {
                let at = Self.deliveryTime(of: entry, advance: advance, forward: false)
                if at < now, latest.map({ at > $0 }) ?? true { latest = at }
            }
            return latest
        }
    }

    /// The index of the first group (of groups in order of their starts) starting after `time`.
    private static func firstIndex(in entries: [Entry], startingAfter time: CMTime) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].start > time { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The item time at which playback in a direction reaches a group: its start less the advance
    /// forwards, its end plus the advance backwards.
    private static func deliveryTime(of entry: Entry, advance: TimeInterval, forward: Bool) -> CMTime {
        let interval = CMTime(seconds: advance, preferredTimescale: 1_000_000_000)
        return forward ? entry.start - interval : entry.end + interval
    }

    /// The groups whose time ranges hold a time.
    private static func entries(_ entries: [Entry], currentAt time: CMTime) -> [Entry] {
        entries.filter { $0.start <= time && time < $0.end }
    }

    // MARK: Reading the tags

    /// Reads the item's timed ID3 tracks on a thread of the output's own, from the file's start,
    /// publishing groups as they are read (a long stream's first groups do not wait for its last):
    /// groups current at the item's time when published are given at once, and the player times
    /// the rest. Stops when the output leaves the item.
    private func startLoading(_ item: AVPlayerItem) {
        let identifiers = self.identifiers
        Thread.detachNewThread { [weak self, weak item] in
            guard let asset = item?.asset else { return }
            let tracks = (try? asset.loadedContents().tracks.filter { $0.mediaType == .metadata && $0.facts.codecName == TimedID3.codecName }) ?? []
            for track in tracks {
                guard let file = try? asset.openMovie() else { return }
                var pending: TimedID3Packet?
                var batch: [Entry] = []
                var lastPublished = -Double.infinity
                /// The group a packet makes, lasting until `next` (the next packet's time) or the track's end.
                func entry(_ packet: TimedID3Packet, next: CMTime?) -> Entry? {
                    var end = packet.duration.isNumeric && packet.duration > .zero ? packet.time + packet.duration : (next ?? track.timeRange.end)
                    if !end.isNumeric || end <= packet.time { end = next ?? .positiveInfinity }
                    guard let frames = try? TimedID3.frames(inPacket: packet.bytes) else { return nil }
                    let range = CMTimeRange(start: packet.time, end: end)
                    let items = frames.map { AVMetadataItem.id3($0, time: packet.time, duration: range.duration) }
                        .filter { identifiers == nil || identifiers!.contains($0.identifier?.rawValue ?? "") }
                    guard !items.isEmpty else { return nil }
                    return Entry(group: AVTimedMetadataGroup(items: items, timeRange: range), start: packet.time, end: end, trackID: track.trackID)
                }
                var following = true
                try? file.forEachTimedID3Packet(stream: track.facts.streamIndex) { packet in
                    // A packet's group ends where the next begins: each is made once the next is read.
                    if let previous = pending, let made = entry(previous, next: packet.time) { batch.append(made) }
                    pending = packet
                    // The first group at once, then every tenth of a second of reading.
                    if !batch.isEmpty, CMClock.hostTimeClock.seconds - lastPublished > 0.1 {
                        following = self?.publish(batch, of: item) ?? false
                        batch = []
                        lastPublished = CMClock.hostTimeClock.seconds
                    }
                    return following
                }
                guard following else { return }
                if let last = pending, let made = entry(last, next: nil) { batch.append(made) }
                guard self?.publish(batch, of: item) ?? false else { return }
            }
            self?.timeline.withLock { timeline in if timeline.item === item { timeline.finished = true } }
        }
    }

    /// Whether reading the item's tags has ended (for tests that time playback by hand).
    var hasStoppedReading: Bool { timeline.withLock { $0.finished } }
    /// Whether every tag of the item the output follows has been read.
    var hasReadEveryTag: Bool { timeline.withLock { $0.finished && !$0.reachedLimit } }

    /// The most groups kept for an item (by default a day of a tag every half second), so a stream
    /// of nothing but tags cannot grow memory without bound; tags past them are not read.
    let maximumGroups = LockedValue(200_000)

    /// Adds groups read to the timeline and gives those current at the item's time; false when
    /// the output no longer follows the item or holds `maximumGroups` groups (reading stops).
    private func publish(_ batch: [Entry], of item: AVPlayerItem?) -> Bool {
        guard let item else { return false }
        let time = item.state.withLock { AVPlayerItem.clamped($0.clock.now, $0) }
        var full = false
        let current = timeline.withLock { timeline -> [Entry]? in
            guard timeline.item === item else { return nil }
            let room = max(0, maximumGroups.withLock { $0 } - timeline.entries.count)
            full = batch.count >= room
            if full { timeline.finished = true; timeline.reachedLimit = true }
            let batch = batch.prefix(room)
            timeline.entries.append(contentsOf: batch)
            timeline.entries.sort { $0.start < $1.start }
            let current = Self.entries(Array(batch), currentAt: time)
            for entry in current { timeline.justPublished.insert(ObjectIdentifier(entry.group)) }
            timeline.delivered = timeline.delivered || !current.isEmpty
            return current
        }
        guard let current else { return false }
        deliver(current, of: item)
        if !batch.isEmpty { item.player?.outputEventsChanged() }
        return !full
    }

    // MARK: Telling the delegate

    /// Gives groups to the delegate, a call for each track they come from, in time order.
    private func deliver(_ entries: [Entry], of item: AVPlayerItem) {
        guard !entries.isEmpty else { return }
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return }
        nonisolated(unsafe) let target = delegate
        var byTrack: [(CMPersistentTrackID, [AVTimedMetadataGroup])] = []
        for entry in entries {
            if let index = byTrack.firstIndex(where: { $0.0 == entry.trackID }) {
                byTrack[index].1.append(entry.group)
            } else {
                byTrack.append((entry.trackID, [entry.group]))
            }
        }
        for (trackID, groups) in byTrack {
            let track = item.tracks.first { $0.assetTrack?.trackID == trackID }
            (queue ?? .main).async { target.metadataOutput(self, didOutputTimedMetadataGroups: groups, from: track) }
        }
    }

    private func tellFlushed() {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return }
        nonisolated(unsafe) let target = delegate
        (queue ?? .main).async { target.outputSequenceWasFlushed(self) }
    }
}
