import Foundation

/// The async sequence an output offers beside its delegate: one at a time, bounded.
final class SampleBufferStreams: @unchecked Sendable {
    private let continuation = LockedValue<AsyncStream<CMSampleBuffer>.Continuation?>(nil)

    /// Starts a new sequence, ending the previous one.
    func makeStream(bufferingNewest limit: Int) -> AsyncStream<CMSampleBuffer> {
        let (stream, newContinuation) = AsyncStream<CMSampleBuffer>.makeStream(bufferingPolicy: .bufferingNewest(max(1, limit)))
        let old = continuation.withLock { current -> AsyncStream<CMSampleBuffer>.Continuation? in
            defer { current = newContinuation }
            return current
        }
        old?.finish()
        newContinuation.onTermination = { [weak self] _ in
            self?.continuation.withLock { $0 = nil }
        }
        return stream
    }

    /// Hands a sample to the current sequence, if there is one.
    @inline(__always)
    func yield(_ sampleBuffer: CMSampleBuffer) {
        guard let current = continuation.withLock({ $0 }) else { return }
        current.yield(sampleBuffer)
    }
}
