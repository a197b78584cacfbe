import Foundation

/// Spins the main run loop until `condition` holds or `timeout` passes; returns whether it held.
///
/// The timeout is a ceiling for a machine under load, not a measure: a test that passes waits
/// only as long as its condition takes.
@discardableResult
public func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        RunLoop.main.run(until: Date().addingTimeInterval(0.01))
    }
    return condition()
}

/// Waits until the main queue has run everything queued on it before this call, such as
/// notifications posted to the main thread from other threads; returns whether it did in time.
@discardableResult
public func drainMainQueue(timeout: TimeInterval = 5) -> Bool {
    final class Flag: @unchecked Sendable { var isSet = false }
    let flag = Flag()
    DispatchQueue.main.async { flag.isSet = true }
    return waitUntil(timeout: timeout) { flag.isSet }
}
