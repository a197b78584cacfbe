import CaptureDevices
import CoreMedia
import CoreVideo
import Foundation

/// A recorder's path from a microphone to a file: each buffer the device delivers is converted to
/// the file's processing format and metered on the device's thread, then written on the
/// pipeline's own queue.
///
/// Thread ownership: the device calls `deviceDidProduce` on its thread; the file belongs to the
/// writing queue. Buffers for the queue come from a pool of eight: when a slow disk holds them
/// all, the device's newest buffers are dropped (and counted), and memory does not grow.
final class RecordingPipeline: CaptureSampleSink, @unchecked Sendable {
    /// The file written.
    let file: AVAudioFile
    /// The meter of what is recorded.
    let meter: AudioMeter
    /// Called on the writing queue when the frame limit is reached or writing fails (with the error).
    private let finished: @Sendable (Error?) -> Void
    private let queue = DispatchQueue(label: "AVAudioRecorder writing")

    private struct State {
        var paused = false
        var framesWritten: Int64 = 0
        var frameLimit: Int64?
        var done = false
        var dropped = 0
        var free: [AVAudioPCMBuffer] = []
        var madeBuffers = 0
    }
    private let state = LockedValue(State())
    /// Device thread: the device's samples and their converter to the file's processing format.
    private let sound: DeviceSound

    init(file: AVAudioFile, meter: AudioMeter, frameLimit: Int64?, finished: @escaping @Sendable (Error?) -> Void) {
        self.file = file
        self.meter = meter
        self.finished = finished
        sound = DeviceSound(target: file.processingFormat)
        state.withLock { $0.frameLimit = frameLimit }
    }

    /// Frames written to the file so far.
    var framesWritten: Int64 { state.withLock { $0.framesWritten } }

    /// Buffers the device delivered that were dropped because writing fell behind.
    var droppedBuffers: Int { state.withLock { $0.dropped } }

    /// Whether buffers are dropped rather than recorded.
    var isPaused: Bool {
        get { state.withLock { $0.paused } }
        set { state.withLock { $0.paused = newValue } }
    }

    /// Waits for every buffer handed to the writing queue to be written.
    func drain() { queue.sync {} }

    func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {
        let (paused, done) = state.withLock { ($0.paused, $0.done) }
        if paused || done { return }
        guard let (input, converter) = sound.load(sampleBuffer) else { return }
        let capacity = AVAudioFrameCount((Double(input.frameLength) * file.processingFormat.sampleRate / input.format.sampleRate).rounded(.up)) + 64
        guard let output = takeBuffer(capacity: capacity) else { return }
        var given = false
        let status = converter.convert(to: output, error: nil) { _, status in
            status.pointee = given ? .noDataNow : .haveData
            defer { given = true }
            return given ? nil : input
        }
        guard status == .haveData else { giveBack(output); return }
        if AVAudioApplication.shared.isInputMuted { AVAudioNode.silence(output, frames: Int(output.frameLength)) }
        meter.measure(output)
        queue.async { [self] in write(output) }
    }

    func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}

    /// On the writing queue: writes a buffer, up to the frame limit.
    private func write(_ buffer: AVAudioPCMBuffer) {
        defer { giveBack(buffer) }
        let remaining = state.withLock { state -> Int64? in
            guard !state.done else { return 0 }
            return state.frameLimit.map { $0 - state.framesWritten }
        }
        if let remaining, remaining < Int64(buffer.frameLength) { buffer.frameLength = AVAudioFrameCount(max(0, remaining)) }
        guard buffer.frameLength > 0 else { return }
        do {
            try file.write(from: buffer)
        } catch {
            state.withLock { $0.done = true }
            finished(error)
            return
        }
        let reachedLimit = state.withLock { state -> Bool in
            state.framesWritten += Int64(buffer.frameLength)
            guard let limit = state.frameLimit, state.framesWritten >= limit else { return false }
            state.done = true
            return true
        }
        if reachedLimit { finished(nil) }
    }

    /// A buffer of the processing format from the pool (eight at most are made), or nil, counted
    /// as a drop, when the writing queue holds them all.
    private func takeBuffer(capacity: AVAudioFrameCount) -> AVAudioPCMBuffer? {
        enum Take {
            case free(AVAudioPCMBuffer)
            case make
            case none
        }
        let take = state.withLock { state -> Take in
            if let index = state.free.firstIndex(where: { $0.frameCapacity >= capacity }) { return .free(state.free.remove(at: index)) }
            if !state.free.isEmpty {
                // A free buffer too small for the device's new buffer size gives way to a larger one.
                state.free.removeFirst()
                return .make
            }
            if state.madeBuffers < 8 {
                state.madeBuffers += 1
                return .make
            }
            state.dropped += 1
            return .none
        }
        switch take {
        case .free(let buffer): return buffer
        case .make: return AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: max(capacity, 4096))
        case .none: return nil
        }
    }

    /// Returns a buffer to the pool.
    private func giveBack(_ buffer: AVAudioPCMBuffer) { state.withLock { $0.free.append(buffer) } }
}
