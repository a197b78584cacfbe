import CoreMedia
import Foundation

/// An item's timeline against the host clock: the item time at an anchor host time, and the
/// rate it moves at from there (0 while paused, waiting or ended).
///
/// A paused timeline keeps the exact `CMTime` it was set to; a moving one is computed in seconds
/// from the anchor, as a nanosecond `CMTime`.
struct PlaybackClock: Sendable {
    /// The item time at the anchor.
    var anchorTime: CMTime = .zero
    /// The host time of the anchor, in seconds.
    var anchorHost: Double = PlaybackClock.hostNow()
    /// How fast item time moves per host second.
    var rate: Double = 0

    /// The host clock now, in seconds (the clock `CACurrentMediaTime()` and `CMClockGetHostTimeClock()` read).
    static func hostNow() -> Double { Double(CMClock.hostTimeNanoseconds()) / 1_000_000_000 }

    /// The item time at a host time.
    func time(atHost host: Double) -> CMTime {
        guard rate != 0 else { return anchorTime }
        return CMTime(seconds: anchorTime.seconds + (host - anchorHost) * rate, preferredTimescale: 1_000_000_000)
    }

    /// The item time now.
    var now: CMTime { time(atHost: Self.hostNow()) }

    /// The host time at which the timeline reaches an item time, if it is moving towards it.
    func host(reaching time: CMTime) -> Double? {
        guard rate != 0, time.isNumeric else { return nil }
        let host = anchorHost + (time.seconds - anchorTime.seconds) / rate
        return host
    }

    /// Starts moving at `rate` from where the timeline is now.
    mutating func set(rate newRate: Double, host: Double = PlaybackClock.hostNow()) {
        anchorTime = time(atHost: host)
        anchorHost = host
        rate = newRate
    }

    /// Jumps to an item time, keeping the rate.
    mutating func jump(to time: CMTime, host: Double = PlaybackClock.hostNow()) {
        anchorTime = time
        anchorHost = host
    }
}
