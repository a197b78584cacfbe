import Dispatch
import CoreVideo
import Foundation

/// The signals that stop a server run from a terminal or a service manager: Ctrl-C (SIGINT),
/// `kill`, `timeout` and systemd (SIGTERM), and a closed terminal (SIGHUP).
enum StopSignals {
    static let all: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Returns when the process receives one of `signals`, or when the task is cancelled. While
    /// it waits, the signals' default action (ending the process at once) is off.
    static func first(of signals: [Int32] = all) async {
        let sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        let resumed = LockedValue<CheckedContinuation<Void, Never>?>(nil)
        let fire: @Sendable () -> Void = {
            resumed.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }?.resume()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                resumed.withLock { $0 = continuation }
                for (source, signal) in zip(sources, signals) {
                    Foundation.signal(signal, SIG_IGN)
                    source.setEventHandler(handler: fire)
                    source.activate()
                }
                if Task.isCancelled { fire() }
            }
        } onCancel: {
            fire()
        }
        for source in sources { source.cancel() }
    }
}
