import CoreMedia
import Foundation

/// An object that loops a time range of an item in a queue player.
///
/// The looper keeps replicas of the template item queued in the player (three at a time); as
/// each one finishes and leaves the queue, a new one goes to the end, so playback runs on with
/// no gap to wait for. Thread-safe.
open class AVPlayerLooper: NSObject, @unchecked Sendable {
    /// The states a looper can be in.
    public enum Status: Int, Sendable {
        /// The looper has not loaded its item yet.
        case unknown = 0
        /// The looper loops.
        case ready = 1
        /// The item cannot be looped; `error` says why.
        case failed = 2
        /// Looping was disabled.
        case cancelled = 3
    }

    private struct State {
        var status = Status.unknown
        var error: (any Error)?
        var loopCount = 0
        var replicas: [AVPlayerItem] = []
        var looping = true
    }
    private let state = LockedValue(State())
    private weak var player: AVQueuePlayer?
    private let template: AVPlayerItem
    private let range: CMTimeRange
    private var observation: NSKeyValueObservation?
    private static let replicaCount = 3

    /// Loops an item's time range in a queue player, whose queue the looper then owns.
    public init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem, timeRange loopRange: CMTimeRange) {
        self.player = player
        template = itemToLoop
        range = loopRange
        super.init()
        player.removeAllItems()
        for _ in 0..<Self.replicaCount { enqueueReplica() }
        observation = player.observe(\.currentItem) { [weak self] player, _ in self?.currentItemChanged(player) }
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            do {
                let contents = try itemToLoop.asset.loadedContents()
                self.state.withLock { state in
                    if state.status == .unknown {
                        state.status = contents.isPlayable ? .ready : .failed
                        if !contents.isPlayable { state.error = AVError(.failedToLoadMediaData) }
                    }
                }
            } catch {
                self.state.withLock { state in
                    state.status = .failed
                    state.error = error
                }
            }
        }
    }

    /// Loops all of an item in a queue player.
    public convenience init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem) {
        self.init(player: player, templateItem: itemToLoop, timeRange: .invalid)
    }

    deinit { observation?.invalidate() }

    /// Whether the looper loops.
    open var status: Status { state.withLock { $0.status } }
    /// Why the looper failed.
    open var error: (any Error)? { state.withLock { $0.error } }
    /// How many times the item has played to the end of its range.
    open var loopCount: Int { state.withLock { $0.loopCount } }
    /// The replicas of the template item the looper has queued.
    open var loopingPlayerItems: [AVPlayerItem] { state.withLock { $0.replicas } }

    /// Stops queueing replicas: the ones queued play out, then the player has nothing left.
    open func disableLooping() {
        state.withLock { state in
            state.looping = false
            state.status = .cancelled
        }
    }

    /// Queues one more replica, starting at the range's start and ending at its end.
    private func enqueueReplica() {
        guard let player else { return }
        let replica = AVPlayerItem(asset: template.asset)
        replica.audioTimePitchAlgorithm = template.audioTimePitchAlgorithm
        replica.audioMix = template.audioMix
        if range.isValid, range.start.isNumeric {
            replica.state.withLock { $0.clock.jump(to: max(.zero, range.start)) }
            if range.end.isNumeric { replica.forwardPlaybackEndTime = range.end }
        }
        state.withLock { $0.replicas.append(replica) }
        player.insert(replica, after: nil)
    }

    /// A replica left the queue: one more loop, and a new replica at the end while looping.
    private func currentItemChanged(_ player: AVQueuePlayer) {
        let queued = Set(player.items().map(ObjectIdentifier.init))
        let (finished, looping) = state.withLock { state -> (Int, Bool) in
            let gone = state.replicas.filter { !queued.contains(ObjectIdentifier($0)) }
            state.replicas.removeAll { !queued.contains(ObjectIdentifier($0)) }
            state.loopCount += gone.count
            return (gone.count, state.looping)
        }
        guard looping else { return }
        for _ in 0..<finished { enqueueReplica() }
    }
}
