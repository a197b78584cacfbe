import CoreMedia
import Foundation

/// The methods a pull output's delegate implements to learn when media are coming.
public protocol AVPlayerItemOutputPullDelegate: NSObjectProtocol {
    /// New media are about to be available, as `requestNotificationOfMediaDataChange(withAdvanceInterval:)` asked.
    func outputMediaDataWillChange(_ sender: AVPlayerItemOutput)
    /// The output's media sequence was flushed, as a seek or a new item flushes it.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPullDelegate {
    /// Does nothing.
    public func outputMediaDataWillChange(_ sender: AVPlayerItemOutput) {}
    /// Does nothing.
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}

/// An object that takes an item's media during playback; subclasses say which.
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    private let attached = LockedValue<AttachedItem>(AttachedItem())
    private struct AttachedItem { weak var item: AVPlayerItem? }
    private let suppresses = LockedValue(false)

    /// Creates an output.
    public override init() { super.init() }

    /// Whether the player leaves the item's rendering to this output.
    open var suppressesPlayerRendering: Bool {
        get { suppresses.withLock { $0 } }
        set { suppresses.withLock { $0 = newValue } }
    }

    /// The item time at a host time in seconds (as `CACurrentMediaTime()` tells it): the time to
    /// ask for the picture shown at that moment. With a player's `sourceClock`, the host time is
    /// taken to that clock by their offset now.
    open func itemTime(forHostTime hostTimeInSeconds: CFTimeInterval) -> CMTime {
        guard let item else { return .invalid }
        return item.state.withLock { AVPlayerItem.clamped($0.clock.time(atHost: $0.clock.sourceTime(atHostTime: hostTimeInSeconds)), $0) }
    }

    /// The item time at a host time in the host clock's ticks (nanoseconds here).
    open func itemTime(forMachAbsoluteTime machAbsoluteTime: Int64) -> CMTime {
        itemTime(forHostTime: Double(machAbsoluteTime) / 1_000_000_000)
    }

    /// The item whose media the output takes.
    var item: AVPlayerItem? { attached.withLock { $0.item } }

    /// The item plays in a player: media may flow.
    func attach(to item: AVPlayerItem) {
        attached.withLock { $0.item = item }
    }

    /// The item left its player or the output left the item: media stop.
    func detach() {
        attached.withLock { $0.item = nil }
    }

    /// The item's time moved: the media start again from `time` (`jumped`; `timeJumped` when the
    /// time itself jumped, a seek or a new item, rather than the media restarting where they were)
    /// or a new rate (0 while paused); `move` counts the player's updates, so a move older than one
    /// already followed is left alone.
    func playerMoved(time: CMTime, rate: Double, jumped: Bool, timeJumped: Bool, move: Int) {}

    /// Waits until the output has media for the item's current time, at most `timeout` seconds.
    func waitForMedia(timeout: Double) {}

    /// On the player's engine queue: playback moved from one item time to another (past `last`,
    /// up to and including `now`) in a direction, without a jump.
    func playbackCrossed(from last: CMTime, to now: CMTime, forward: Bool) {}

    /// The next item time past `now`, in a direction, at which the output wants `playbackCrossed` called; nil for none.
    func nextEventTime(after now: CMTime, forward: Bool) -> CMTime? { nil }
}
