import Synchronization

/// Where configuration publishes a new render plan and the renderer picks it up, without a lock:
/// the renderer swaps in the newest plan at the start of a cycle, and the plan it let go of is
/// released by the next publication, off the render thread.
///
/// Thread ownership: `publish` from configuring threads (one at a time, under the engine's lock);
/// `adopt` from the renderer (one cycle at a time).
final class PlanSlot<Plan: AnyObject>: @unchecked Sendable {
    private let pending = Atomic<Unmanaged<Plan>?>(nil)
    private let retired = Atomic<Unmanaged<Plan>?>(nil)

    deinit {
        pending.load(ordering: .acquiring)?.release()
        retired.load(ordering: .acquiring)?.release()
    }

    /// Makes `plan` the one the renderer takes next, in place of any it has not taken yet.
    func publish(_ plan: Plan) {
        pending.exchange(.passRetained(plan), ordering: .acquiringAndReleasing)?.release()
        retired.exchange(nil, ordering: .acquiringAndReleasing)?.release()
    }

    /// On the renderer: the plan published since the last call, or nil; `current` is kept for a
    /// configuring thread to release.
    func adopt(replacing current: Plan?) -> Plan? {
        guard let next = pending.exchange(nil, ordering: .acquiringAndReleasing) else { return nil }
        if let current {
            // The slot is empty here (every adoption follows a publication, which emptied it); released all the same.
            retired.exchange(.passRetained(current), ordering: .acquiringAndReleasing)?.release()
        }
        return next.takeRetainedValue()
    }
}
