import CoreMedia
import Foundation

/// An item's timeline against its player's source clock (the host clock unless the player's
/// `sourceClock` says otherwise): the item time at an anchor clock time, and the rate it moves at
/// from there (0 while paused, waiting or ended).
///
/// A paused timeline keeps the exact `CMTime` it was set to; a moving one is computed in seconds
/// from the anchor, as a nanosecond `CMTime`.
struct PlaybackClock: Sendable {
    /// The clock the timeline moves by.
    private(set) var source = CMClock.hostTimeClock
    /// The item time at the anchor.
    var anchorTime: CMTime = .zero
    /// The source clock's time at the anchor, in seconds.
    var anchorHost: Double = CMClock.hostTimeClock.seconds
    /// How fast item time moves per second of the source clock.
    var rate: Double = 0

    /// The source clock now, in seconds.
    var hostNow: Double { source.seconds }

    /// The item time at a time of the source clock.
    func time(atHost host: Double) -> CMTime {
        guard rate != 0 else { return anchorTime }
        return CMTime(seconds: anchorTime.seconds + (host - anchorHost) * rate, preferredTimescale: 1_000_000_000)
    }

    /// The item time now.
    var now: CMTime { time(atHost: hostNow) }

    /// The source clock's time at which the timeline reaches an item time, if it is moving towards it.
    func host(reaching time: CMTime) -> Double? {
        guard rate != 0, time.isNumeric else { return nil }
        let host = anchorHost + (time.seconds - anchorTime.seconds) / rate
        return host
    }

    /// Starts moving at `rate` from where the timeline is at `host` (now, if nil).
    mutating func set(rate newRate: Double, host: Double? = nil) {
        let host = host ?? hostNow
        anchorTime = time(atHost: host)
        anchorHost = host
        rate = newRate
    }

    /// Jumps to an item time at `host` (now, if nil), keeping the rate.
    mutating func jump(to time: CMTime, host: Double? = nil) {
        anchorTime = time
        anchorHost = host ?? hostNow
    }

    /// The source clock's time at a host time in seconds, by the clocks' offset now.
    func sourceTime(atHostTime host: Double) -> Double {
        source.isManuallyAdvanced ? host + (hostNow - CMClock.hostTimeClock.seconds) : host
    }

    /// The host time in seconds at a time of the source clock, by the clocks' offset now.
    func hostTime(atSourceTime time: Double) -> Double {
        source.isManuallyAdvanced ? time - (hostNow - CMClock.hostTimeClock.seconds) : time
    }

    /// Moves by another clock from now on, the item time and rate unchanged.
    mutating func follow(_ clock: CMClock) {
        guard clock !== source else { return }
        anchorTime = now
        source = clock
        anchorHost = hostNow
    }
}
