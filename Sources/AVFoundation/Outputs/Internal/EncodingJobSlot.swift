import Foundation

/// The one job an encoding output runs at a time, and how the session's events end it.
///
/// Thread ownership: any thread; the lock is held only to read or swap the job, never while the
/// job works or calls out.
final class EncodingJobSlot<Job: CaptureEncodingJob>: Sendable {
    private let current = LockedValue<Job?>(nil)

    /// The job running now, if any.
    var job: Job? { current.withLock { $0 } }

    /// Makes `job` the running one; the one before it, if any, was ended by the caller.
    func start(_ job: Job) { current.withLock { $0 = job } }

    /// Ends the running job, if any.
    func end(reason: AVError?) { job?.end(reason: reason) }

    /// Forgets `job` once it has finished, unless another has started since.
    func finished(_ job: Job) { current.withLock { if $0 === job { $0 = nil } } }

    /// Hands a sample to the running job.
    func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        job?.receive(sampleBuffer, from: connection)
    }

    /// The session is stopping: the job ends with the session's error, or as not running.
    func sessionWillStop(because error: AVError?) { end(reason: error ?? AVError(.sessionNotRunning)) }

    /// The session was interrupted: the job ends as interrupted.
    func sessionWasInterrupted() { end(reason: AVError(.sessionWasInterrupted)) }

    /// The output left the session: the job ends as not running.
    func didDetach() { end(reason: AVError(.sessionNotRunning)) }
}
