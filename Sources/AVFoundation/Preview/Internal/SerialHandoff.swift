import Foundation

/// Hands one value at a time to a handler on a serial queue without allocating: the value waits in
/// a slot, and a user-data dispatch source on the queue, made once, runs the handler with it. (A
/// closure given to `DispatchQueue.async` costs a context, a block and a continuation each time.)
/// A value handed while another still waits replaces it; a value replaced, or still waiting when the
/// handoff goes away, is given to `discarded`, so that its owner knows it will not be handled.
///
/// Thread ownership: `hand(_:)` from any thread; the handler runs on the queue.
final class SerialHandoff<Value>: @unchecked Sendable {
    private let slot = LockedValue<Value?>(nil)
    private let source: DispatchSourceUserDataAdd
    private let discarded: (Value) -> Void

    /// A handoff to `queue`, whose `handler` gets each value handed (it should capture nothing it
    /// keeps alive: a value may carry its owner); `discarded` gets a value that will not be handled.
    init(queue: DispatchQueue, discarded: @escaping (Value) -> Void = { _ in }, handler: @escaping (Value) -> Void) {
        self.discarded = discarded
        source = DispatchSource.makeUserDataAddSource(queue: queue)
        source.setEventHandler { [slot] in
            guard
                let value = slot.withLock({ waiting -> Value? in
                    defer { waiting = nil }
                    return waiting
                })
            else { return }
            handler(value)
        }
        source.activate()
    }

    deinit {
        source.cancel()
        // The handler takes a value under the same lock: one of the two has it.
        if let waiting = slot.withLock({ waiting -> Value? in
            defer { waiting = nil }
            return waiting
        }) {
            discarded(waiting)
        }
    }

    /// Hands `value` to the handler, soon, on the queue.
    func hand(_ value: Value) {
        let replaced = slot.withLock { waiting -> Value? in
            defer { waiting = value }
            return waiting
        }
        if let replaced { discarded(replaced) }
        source.add(data: 1)
    }
}
