import Dispatch
import Foundation
import LiveView

/// Stopping cleanly on every signal that asks a command to stop: Ctrl-C (SIGINT), `kill`,
/// `timeout` and systemd (SIGTERM), and a closed terminal (SIGHUP). A recording, stream or
/// export stopped by any of them leaves a complete file, as Ctrl-C does.
enum StopSignals {
    /// Runs `handler` on `queue` for each of the signals instead of ending the process; keep the
    /// returned watch for as long as the handler should run.
    static func handle(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> StopSignalWatch {
        StopSignalWatch(queue: queue) { _ in handler() }
    }
}
