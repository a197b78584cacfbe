import CaptureDevices
import Foundation
import FrameProcessing

/// What a delivery channel hands its output, on the client's queue.
protocol SampleBufferDeliveryClient: AnyObject, Sendable {
    /// Calls the client's delegate with a sample; runs on the client's queue.
    func deliver(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
    /// Calls the client's delegate with a dropped sample; runs on the client's queue.
    func deliverDrop(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

/// Hands one output's samples from a device's thread to the client's serial queue.
///
/// The device never waits: a sample is put in a small fixed slot and the queue is woken
/// through a dispatch source, which costs no allocation. With `discardsLateSamples`, a
/// sample that arrives while the client is still busy with an earlier one, or while one
/// is already waiting, is dropped at once and reported after the current callback; without
/// it, up to `capacity` samples wait, and only beyond that are samples dropped. Drops are
/// remembered in a fixed ring; if the client is so slow that it overflows, the newest
/// record counts the extra frames. No lock is held while the client runs.
///
/// Thread ownership: `offer` and `recordDrop` run on device threads; the drain runs on the
/// client's queue.
final class SampleBufferDelivery: @unchecked Sendable {
    private struct DropRecord {
        var presentationTime: CMTime
        var duration: CMTime
        var reason: FrameDropReason
        var count: Int
    }

    private struct State {
        var pending: [CMSampleBuffer?]
        var pendingHead = 0
        var pendingCount = 0
        var pendingConnection: AVCaptureConnection?
        var drops: [DropRecord]
        var dropHead = 0
        var dropCount = 0
        var busy = false
        var capacity = 1
        var discardsLateSamples = true
        var source: DispatchSourceUserDataAdd?
        var discontinuity = false
        /// The format of the latest sample, so that drop reports say what was dropped.
        var formatDescription: CMFormatDescription?
    }

    static let maximumCapacity = 16
    static let dropRecordCapacity = 64
    private let state: LockedValue<State>
    private let shells = SampleBufferShellPool(capacity: 8)
    weak var client: SampleBufferDeliveryClient?

    init(client: SampleBufferDeliveryClient) {
        self.client = client
        let placeholder = DropRecord(presentationTime: .invalid, duration: .invalid, reason: .frameWasLate, count: 0)
        state = LockedValue(
            State(
                pending: Array(repeating: nil, count: Self.maximumCapacity),
                drops: Array(repeating: placeholder, count: Self.dropRecordCapacity)))
    }

    /// Points the channel at a queue, or at none; samples waiting for the old queue are dropped silently.
    func setQueue(_ queue: DispatchQueue?) {
        let source = queue.map { DispatchSource.makeUserDataAddSource(queue: $0) }
        source?.setEventHandler { [weak self] in self?.drain() }
        let old = state.withLock { state -> DispatchSourceUserDataAdd? in
            let old = state.source
            state.source = source
            for index in state.pending.indices { state.pending[index] = nil }
            state.pendingCount = 0
            state.dropCount = 0
            return old
        }
        old?.cancel()
        source?.activate()
    }

    /// Forgets samples and drops waiting for the client.
    func flush() {
        state.withLock { state in
            for index in state.pending.indices { state.pending[index] = nil }
            state.pendingCount = 0
            state.dropCount = 0
        }
    }

    /// Sets how many samples may wait and whether late ones are dropped at once.
    func setPolicy(discardsLateSamples: Bool, capacity: Int) {
        state.withLock { state in
            state.discardsLateSamples = discardsLateSamples
            state.capacity = max(1, min(Self.maximumCapacity, capacity))
        }
    }

    /// Whether no sample or drop report waits for the client and the client is not handling one.
    var isIdle: Bool { state.withLock { $0.pendingCount == 0 && $0.dropCount == 0 && !$0.busy } }

    /// Offers a sample from a device's thread; returns whether it will be delivered.
    @discardableResult
    func offer(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) -> Bool {
        let source = state.withLock { state -> DispatchSourceUserDataAdd? in
            guard let source = state.source else { return nil }
            state.formatDescription = sampleBuffer.formatDescriptionStorage
            let full = state.pendingCount >= state.capacity || (state.discardsLateSamples && state.busy)
            if full {
                Self.record(
                    &state,
                    DropRecord(
                        presentationTime: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.timing.duration,
                        reason: .frameWasLate, count: 1))
                state.discontinuity = true
                return source
            }
            let slot = (state.pendingHead + state.pendingCount) % Self.maximumCapacity
            state.pending[slot] = sampleBuffer
            state.pendingCount += 1
            state.pendingConnection = connection
            return source
        }
        source?.add(data: 1)
        return source != nil
    }

    /// Records a sample the device dropped, to report on the client's queue.
    func recordDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, from connection: AVCaptureConnection) {
        let source = state.withLock { state -> DispatchSourceUserDataAdd? in
            guard let source = state.source else { return nil }
            Self.record(&state, DropRecord(presentationTime: presentationTime, duration: duration, reason: reason, count: 1))
            state.pendingConnection = connection
            state.discontinuity = true
            return source
        }
        source?.add(data: 1)
    }

    /// Whether samples were lost since the last call, for outputs that mark discontinuities.
    func takeDiscontinuity() -> Bool {
        state.withLock { state in
            defer { state.discontinuity = false }
            return state.discontinuity
        }
    }

    private static func record(_ state: inout State, _ record: DropRecord) {
        if state.dropCount == dropRecordCapacity {
            let newest = (state.dropHead + state.dropCount - 1) % dropRecordCapacity
            state.drops[newest].count += 1
            return
        }
        state.drops[(state.dropHead + state.dropCount) % dropRecordCapacity] = record
        state.dropCount += 1
    }

    private enum Step {
        case sample(CMSampleBuffer, AVCaptureConnection)
        case drop(DropRecord, AVCaptureConnection, CMFormatDescription?)
        case done
    }

    /// Runs on the client's queue: hands over waiting samples in order, reporting the drops
    /// recorded so far after each sample, with one lock round trip per step.
    private func drain() {
        var delivered = false
        var reportingDrops = false
        while true {
            let step = state.withLock { state -> Step in
                if delivered { state.busy = false }
                if reportingDrops, let drop = Self.takeDrop(&state) { return drop }
                if state.pendingCount > 0, let connection = state.pendingConnection, connection.output?.isAttached == true,
                    let sample = state.pending[state.pendingHead]
                {
                    state.pending[state.pendingHead] = nil
                    state.pendingHead = (state.pendingHead + 1) % Self.maximumCapacity
                    state.pendingCount -= 1
                    state.busy = true
                    return .sample(sample, connection)
                }
                return Self.takeDrop(&state) ?? .done
            }
            delivered = false
            switch step {
            case let .sample(sample, connection):
                client?.deliver(sample, from: connection)
                delivered = true
                reportingDrops = true
            case let .drop(drop, connection, format):
                let shell = shells.dequeue()
                shell.timing = CMSampleTimingInfo(duration: drop.duration, presentationTimeStamp: drop.presentationTime, decodeTimeStamp: .invalid)
                shell.sampleCount = drop.count
                shell.formatDescriptionStorage = format
                CMSetAttachment(
                    shell, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, value: DropReasonStrings.value(for: drop.reason),
                    attachmentMode: kCMAttachmentMode_ShouldPropagate)
                client?.deliverDrop(shell, from: connection)
            case .done:
                return
            }
        }
    }

    private static func takeDrop(_ state: inout State) -> Step? {
        guard state.dropCount > 0, let connection = state.pendingConnection else { return nil }
        let record = state.drops[state.dropHead]
        state.dropHead = (state.dropHead + 1) % dropRecordCapacity
        state.dropCount -= 1
        return .drop(record, connection, state.formatDescription)
    }
}

/// The drop reasons as attachment values: the constants themselves, so that reporting a drop allocates nothing.
enum DropReasonStrings {
    nonisolated(unsafe) static let frameWasLate: AnyObject = kCMSampleBufferDroppedFrameReason_FrameWasLate
    nonisolated(unsafe) static let outOfBuffers: AnyObject = kCMSampleBufferDroppedFrameReason_OutOfBuffers
    nonisolated(unsafe) static let discontinuity: AnyObject = kCMSampleBufferDroppedFrameReason_Discontinuity

    static func value(for reason: FrameDropReason) -> AnyObject {
        switch reason {
        case .frameWasLate: return frameWasLate
        case .outOfBuffers: return outOfBuffers
        case .discontinuity: return discontinuity
        }
    }
}
