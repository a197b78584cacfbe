import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Darwin's host time and its units, which Apple's Foundation brings: media code times work with
// `mach_absolute_time()` and converts with `mach_timebase_info(_:)`. Here the host time is the
// clock every timestamp of the package counts in (CLOCK_MONOTONIC, in nanoseconds, as
// `CMClockGetHostTimeClock()`, `AVAudioTime(hostTime:)` and `CACurrentMediaTime()` read it), so
// the timebase is 1/1.

/// The result of a Mach kernel call.
public typealias kern_return_t = Int32

/// The Mach kernel call succeeded.
public let KERN_SUCCESS: kern_return_t = 0

/// Nanoseconds in a second.
public let NSEC_PER_SEC: UInt64 = 1_000_000_000
/// Nanoseconds in a millisecond.
public let NSEC_PER_MSEC: UInt64 = 1_000_000
/// Nanoseconds in a microsecond.
public let NSEC_PER_USEC: UInt64 = 1_000
/// Microseconds in a second.
public let USEC_PER_SEC: UInt64 = 1_000_000

/// The ratio that turns host time units into nanoseconds: nanoseconds = units × numer / denom.
public struct mach_timebase_info_data_t: Sendable, Equatable {
    /// The numerator of the ratio.
    public var numer: UInt32
    /// The denominator of the ratio.
    public var denom: UInt32

    /// A timebase of zeros, to be filled by `mach_timebase_info(_:)`.
    public init() {
        numer = 0
        denom = 0
    }

    /// A timebase of the ratio given.
    public init(numer: UInt32, denom: UInt32) {
        self.numer = numer
        self.denom = denom
    }
}

/// A pointer to a timebase, as `mach_timebase_info(_:)` takes it.
public typealias mach_timebase_info_t = UnsafeMutablePointer<mach_timebase_info_data_t>

/// Fills `info` with the ratio that turns host time units into nanoseconds (1/1 here).
@discardableResult
public func mach_timebase_info(_ info: mach_timebase_info_t!) -> kern_return_t {
    info.pointee = mach_timebase_info_data_t(numer: 1, denom: 1)
    return KERN_SUCCESS
}

/// The host clock's current time, in host time units (nanoseconds here): the clock the package's
/// sample buffers, audio times and media times count in.
@inlinable
public func mach_absolute_time() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * NSEC_PER_SEC + UInt64(now.tv_nsec)
}
