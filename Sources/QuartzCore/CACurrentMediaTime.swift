import CoreGraphics
import Foundation

/// Returns the current absolute time, in seconds, on the host clock that media timing uses.
public func CACurrentMediaTime() -> CFTimeInterval {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
