import Foundation

/// A value guarded by a lock, for state that is not `Sendable` by itself: the package's one way
/// of sharing state between threads.
///
/// Callers hold the lock only for the closure they pass; never across a client callback. Besides
/// it the package uses `NSCondition` where a thread sleeps until told, atomics for counters read
/// without a lock, and a plain `NSLock` only where an operation rather than a value is serialized
/// (one reader of a track at a time) or below this module (QuartzCore's layer geometry).
package final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// Wraps a value.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
