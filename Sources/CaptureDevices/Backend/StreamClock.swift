import CoreMedia
import Foundation

/// Sleeping until a point on the host clock, for producers paced in real time.
package enum StreamClock {
    /// Sleeps until `nanoseconds` on CLOCK_MONOTONIC.
    package static func sleep(untilNanoseconds nanoseconds: Int64) {
        var deadline = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }

    /// The host clock now, in nanoseconds.
    package static var now: Int64 { CMClock.hostTimeNanoseconds() }
}
