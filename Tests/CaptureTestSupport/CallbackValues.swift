import Foundation
import XCTest

/// A value shared with a callback.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    /// Creates a box holding `value`.
    public init(_ value: Value) { stored = value }
    /// The value now.
    public var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

extension XCTestCase {
    /// Skips a test that needs a real server on a machine without one, except under CI, where its absence fails.
    public func skipOrFail(_ reason: String) throws -> Never {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("CI runs every real-server test: \(reason)")
        }
        throw XCTSkip(reason)
    }
}
