import Foundation

/// A value guarded by a lock, for state that is not `Sendable` by itself.
///
/// Callers hold the lock only for the closure they pass; never across a client callback.
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
