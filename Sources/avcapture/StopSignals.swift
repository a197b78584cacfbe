import Dispatch
import Foundation

/// Stopping cleanly on every signal that asks a command to stop: Ctrl-C (SIGINT), `kill`,
/// `timeout` and systemd (SIGTERM), and a closed terminal (SIGHUP). A recording, stream or
/// export stopped by any of them leaves a complete file, as Ctrl-C does.
enum StopSignals {
    /// Runs `handler` on `queue` for each of the signals instead of ending the process; keep the
    /// returned sources for as long as the handler should run.
    static func handle(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            signal(number, SIG_IGN)
            source.setEventHandler(handler: handler)
            source.activate()
            return source
        }
    }
}
