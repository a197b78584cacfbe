import CoreMedia
import Foundation

/// A player that plays a queue of items, one after another.
///
/// When an item reaches its end the queue advances (`actionAtItemEnd` is `.advance`): the item
/// leaves the queue and the next starts at the player's rate. Items load as soon as they are
/// queued, so the next is ready when its turn comes.
open class AVQueuePlayer: AVPlayer, @unchecked Sendable {
    /// Creates a queue player with no items.
    public override init() {
        super.init(items: [], actionAtItemEnd: .advance)
    }

    /// Creates a queue player that plays items in order.
    public init(items: [AVPlayerItem]) {
        var seen: [AVPlayerItem] = []
        for item in items where !seen.contains(where: { $0 === item }) { seen.append(item) }
        super.init(items: seen, actionAtItemEnd: .advance)
    }

    /// The items in the queue, the current one first.
    open func items() -> [AVPlayerItem] { state.withLock { $0.items } }

    /// Ends the current item and plays the next; the current item leaves the queue.
    open func advanceToNextItem() {
        let gone = state.withLock { state -> AVPlayerItem? in
            state.items.isEmpty ? nil : state.items.removeFirst()
        }
        gone?.detach(from: self)
        currentItemChanged()
    }

    /// Whether an item can go into the queue after another (nil: at the end).
    open func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        if let owner = item.player, owner !== self { return false }
        return state.withLock { state in
            guard !state.items.contains(where: { $0 === item }) else { return false }
            guard let afterItem else { return true }
            return state.items.contains { $0 === afterItem }
        }
    }

    /// Puts an item into the queue after another (nil: at the end).
    open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        guard canInsert(item, after: afterItem) else { return }
        item.attach(to: self)
        let becameCurrent = state.withLock { state -> Bool in
            if let afterItem, let index = state.items.firstIndex(where: { $0 === afterItem }) {
                state.items.insert(item, at: index + 1)
            } else {
                state.items.append(item)
            }
            return state.items.first === item
        }
        if becameCurrent { currentItemChanged() } else { prepare(item) }
    }

    /// Takes an item out of the queue; taking the current one advances.
    open func remove(_ item: AVPlayerItem) {
        let (found, wasCurrent) = state.withLock { state -> (Bool, Bool) in
            guard let index = state.items.firstIndex(where: { $0 === item }) else { return (false, false) }
            state.items.remove(at: index)
            return (true, index == 0)
        }
        guard found else { return }
        item.detach(from: self)
        if wasCurrent { currentItemChanged() }
    }

    /// Empties the queue.
    open func removeAllItems() {
        let gone = state.withLock { state -> [AVPlayerItem] in
            defer { state.items = [] }
            return state.items
        }
        for item in gone { item.detach(from: self) }
        if !gone.isEmpty { currentItemChanged() }
    }

    /// Replaces the current item, keeping the rest of the queue.
    open override func replaceCurrentItem(with item: AVPlayerItem?) {
        let old = state.withLock { state -> AVPlayerItem? in
            let old = state.items.first
            if !state.items.isEmpty { state.items.removeFirst() }
            if let item { state.items.insert(item, at: 0) }
            return old
        }
        if let item, item !== old { item.attach(to: self) }
        if let old, old !== item { old.detach(from: self) }
        currentItemChanged()
    }

    override func subclassKeyPaths(_ keyPath: PartialKeyPath<AVPlayer>) -> [AnyKeyPath] {
        switch keyPath {
        case \AVPlayer.rate: [\AVQueuePlayer.rate]
        case \AVPlayer.timeControlStatus: [\AVQueuePlayer.timeControlStatus]
        case \AVPlayer.reasonForWaitingToPlay: [\AVQueuePlayer.reasonForWaitingToPlay]
        case \AVPlayer.currentItem: [\AVQueuePlayer.currentItem]
        case \AVPlayer.volume: [\AVQueuePlayer.volume]
        case \AVPlayer.isMuted: [\AVQueuePlayer.isMuted]
        default: []
        }
    }
}
