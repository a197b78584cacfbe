import Synchronization

/// A ring of fixed size that passes values from one thread to another without locks or
/// allocation: the render thread hands finished work to a queue, or a queue hands buffers back.
///
/// Thread ownership: one pushing thread and one popping thread at a time (each may change, when
/// something else orders the change). Push fails when the ring is full; pop gives nil when it is empty.
final class HandoffRing<Element>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element?>
    private let capacity: Int
    /// The next slot to pop, and the next to push, counted from the start (never wrapped).
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots = .allocate(capacity: self.capacity)
        slots.initialize(repeating: nil, count: self.capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Adds a value at the end; false (the value not taken) when the ring is full.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let end = tail.load(ordering: .relaxed), start = head.load(ordering: .acquiring)
        guard end - start < capacity else { return false }
        slots[end % capacity] = element
        tail.store(end + 1, ordering: .releasing)
        return true
    }

    /// Takes the value at the front; nil when the ring is empty.
    func pop() -> Element? {
        let start = head.load(ordering: .relaxed), end = tail.load(ordering: .acquiring)
        guard start < end else { return nil }
        let element = slots[start % capacity]
        slots[start % capacity] = nil
        head.store(start + 1, ordering: .releasing)
        return element
    }
}
