import CoreVideo
import Dispatch
import Foundation
import Synchronization

/// The signals that stop a command or a server run from a terminal or a service manager: Ctrl-C
/// (SIGINT), `kill`, `timeout` and systemd (SIGTERM), and a closed terminal (SIGHUP).
///
/// While any watch is alive, each of these signals is caught by a handler that only writes its
/// number into a pipe, and the watches hear it on their queues: the handler is in place the
/// moment the watch is made, so a signal that comes at once is neither lost nor fatal (an ignored
/// signal with a dispatch source registered later was one or the other). When the last watch
/// ends, the signals' default action (ending the process) returns.
///
/// Thread ownership: watches are made and end on any thread; handlers run on their queues.
package final class StopSignalWatch: @unchecked Sendable {
    /// The signals watched.
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let queue: DispatchQueue
    private let handler: @Sendable (Int32) -> Void

    /// Starts watching: `handler` runs on `queue` with each stop signal the process receives.
    package init(queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        self.queue = queue
        self.handler = handler
        StopSignalHub.shared.add(self)
    }

    deinit { StopSignalHub.shared.remove(ObjectIdentifier(self)) }

    fileprivate func hear(_ number: Int32) { queue.async { [handler] in handler(number) } }
}

/// The process's one pipe from the signal handler to the watches.
private final class StopSignalHub: @unchecked Sendable {
    static let shared = StopSignalHub()

    private struct Watches {
        var pipe: (read: Int32, write: Int32)?
        var source: (any DispatchSourceRead)?
        var watches: [ObjectIdentifier: Weak] = [:]
    }
    private struct Weak { weak var watch: StopSignalWatch? }
    private let state = Mutex(Watches())
    private let queue = DispatchQueue(label: "stop signals")

    func add(_ watch: StopSignalWatch) {
        state.withLock { state in
            state.watches[ObjectIdentifier(watch)] = Weak(watch: watch)
            guard state.watches.count == 1 else { return }
            if state.pipe == nil {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { return }
                for end in ends {
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                }
                state.pipe = (ends[0], ends[1])
                let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: queue)
                source.setEventHandler { [weak self] in self?.drain() }
                source.activate()
                state.source = source
            }
            guard let pipe = state.pipe else { return }
            stopSignalPipe.store(pipe.write, ordering: .releasing)
            for number in StopSignalWatch.signals { install(number, handler: onStopSignal) }
        }
    }

    func remove(_ identifier: ObjectIdentifier) {
        state.withLock { state in
            state.watches[identifier] = nil
            guard state.watches.isEmpty else { return }
            for number in StopSignalWatch.signals { install(number, handler: SIG_DFL) }
        }
    }

    /// Reads the signals the handler wrote and tells every watch.
    private func drain() {
        guard let read = state.withLock({ $0.pipe?.read }) else { return }
        var numbers = [UInt8](repeating: 0, count: 16)
        while true {
            let count = numbers.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            let watches = state.withLock { $0.watches.values.compactMap(\.watch) }
            for number in numbers.prefix(count) { for watch in watches { watch.hear(Int32(number)) } }
        }
    }

    private func install(_ number: Int32, handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }
}

/// The pipe's write end, for the signal handler (which may only make async-signal-safe calls).
private let stopSignalPipe = Atomic<Int32>(-1)

/// The signal handler: writes the signal's number into the pipe and nothing else.
private func onStopSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(stopSignalPipe.load(ordering: .acquiring), &byte, 1)
}

/// The first stop signal after it was made, awaited in async code.
final class FirstStopSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state: LockedValue<State>
    private let watch: StopSignalWatch

    /// Starts watching at once: a signal from now on ends `wait()`.
    init() {
        let state = LockedValue(State())
        watch = StopSignalWatch(queue: .global()) { _ in Self.fire(state) }
        self.state = state
    }

    /// Returns when a stop signal has come since the watch was made, or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let fired = state.withLock { state in
                    if !state.fired { state.waiter = continuation }
                    return state.fired
                }
                if fired { continuation.resume() }
            }
        } onCancel: {
            Self.fire(state)
        }
        withExtendedLifetime(watch) {}
    }

    /// Marks the signal come and resumes the waiter, if any, once.
    private static func fire(_ state: LockedValue<State>) {
        state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }
}
