import Foundation

/// The memory that pictures being decoded at once may take together: a decode reserves what its
/// full-size pixels need before it starts, and waits while others hold the rest, so that several
/// large pictures read at once (`avcapture scan --image` on every core) cost one budget, not one each.
///
/// Thread-safe: any thread reserves and releases; a reservation larger than the whole budget is
/// granted once nothing else is reserved.
package final class DecodingBudget: @unchecked Sendable {
    /// The budget every picture decoder shares: 256 MB.
    package static let shared = DecodingBudget(bytes: 256 << 20)

    /// What one reservation holds.
    package struct Reservation: Sendable {
        fileprivate let bytes: Int
    }

    private let total: Int
    private let condition = NSCondition()
    private var reserved = 0

    /// A budget of `bytes`.
    package init(bytes: Int) { total = bytes }

    /// The bytes reserved now.
    package var inUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return reserved
    }

    /// Waits until `bytes` fit in what is left (or nothing else is reserved), then reserves them.
    package func reserve(bytes: Int) -> Reservation {
        let bytes = max(0, bytes)
        condition.lock()
        defer { condition.unlock() }
        while reserved > 0, reserved + bytes > total { condition.wait() }
        reserved += bytes
        return Reservation(bytes: bytes)
    }

    /// Gives a reservation back.
    package func release(_ reservation: Reservation) {
        condition.lock()
        reserved -= reservation.bytes
        condition.broadcast()
        condition.unlock()
    }
}
