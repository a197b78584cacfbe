import Synchronization

/// Work that runs at most once, whichever of several threads asks first: such as a Live Photo
/// movie written when its last frame comes or at a backstop, whichever is sooner.
///
/// Thread ownership: any thread may call `run`; the work runs on the first caller's thread.
final class OnceOnly: Sendable {
    private let done = Atomic<Bool>(false)
    private let work: @Sendable () -> Void

    /// Creates the work, not yet run.
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }

    /// Runs the work if it has not run yet.
    func run() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        work()
    }
}
