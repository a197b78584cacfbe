import CVideoWindow
import CoreVideo
import Foundation

/// The one thread that owns the desktop's windows: SDL's video calls belong to one thread, so every
/// window is opened, drawn, resized and closed here, and the events of all of them are read here.
/// Other threads hand it work (`perform`, `performAndWait`) and pictures (a window's mailbox), and
/// wake it with `cvw_wake`.
///
/// Thread ownership: `hosts` and every `cvw_*` call but `cvw_wake` belong to the thread itself.
final class WindowThread: @unchecked Sendable {
    /// The process's window thread, started when the first window opens.
    static let shared = WindowThread()

    private let lock = NSLock()
    private var jobs: [() -> Void] = []
    private let jobArrived = DispatchSemaphore(value: 0)
    /// The open windows by identifier (the thread's alone).
    private var hosts: [UInt32: WindowHost] = [:]
    /// The thread itself.
    private var thread: Thread?

    private init() {
        let thread = Thread { [unowned self] in loop() }
        thread.name = "LinuxVideoWindow"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// Runs `job` on the window thread, soon.
    func perform(_ job: @escaping () -> Void) {
        lock.withLock { jobs.append(job) }
        jobArrived.signal()
        cvw_wake()
    }

    /// Runs `job` on the window thread and returns its result (at once when called there, as from an overlay).
    func performAndWait<Result>(_ job: @escaping () -> Result) -> Result {
        if Thread.current === thread { return job() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result?
        perform {
            result = job()
            done.signal()
        }
        done.wait()
        return result!
    }

    /// Adds a window the thread draws and reads events for (on the thread).
    func add(_ host: WindowHost) { hosts[host.identifier] = host }

    /// Forgets a window (on the thread).
    func remove(_ host: WindowHost) { hosts[host.identifier] = nil }

    /// Wakes the thread because a picture is waiting in a window's mailbox.
    func pictureArrived() { cvw_wake() }

    private func loop() {
        var event = cvw_event()
        while true {
            // Taken whole when there are any; an empty queue (most wakes: a picture) costs no copy.
            let pending = lock.withLock { () -> [() -> Void] in
                guard !jobs.isEmpty else { return [] }
                defer { jobs = [] }
                return jobs
            }
            for job in pending { job() }
            if hosts.isEmpty {
                // No window: nothing to read from SDL; wait for work.
                jobArrived.wait()
                continue
            }
            // Events of every window, then the newest picture of each; a wake (a picture or a job) ends the wait.
            if cvw_next_event(&event, 100) == 1 {
                repeat {
                    handle(event)
                } while cvw_next_event(&event, 0) == 1
            }
            for host in hosts.values { host.presentWaitingPicture() }
        }
    }

    private func handle(_ event: cvw_event) {
        switch event.kind {
        case CVW_EVENT_CLOSE where event.window == 0:
            // The session is ending: every window is told.
            for host in hosts.values { host.handle(event) }
        case CVW_EVENT_CLOSE, CVW_EVENT_RESIZE, CVW_EVENT_KEY, CVW_EVENT_CLICK, CVW_EVENT_EXPOSE:
            hosts[event.window]?.handle(event)
        default:
            break
        }
    }
}
