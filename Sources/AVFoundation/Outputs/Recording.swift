import CaptureDevices
import Foundation
import MovieEngine
import Synchronization

/// One recording of a file output: its clock, its limits and its writer thread.
///
/// Thread ownership: `receive` runs on device threads and `end`, `pause` and `resume` on
/// any thread, all under the clock's lock; everything else runs on the writer thread.
final class Recording: CaptureEncodingJob, @unchecked Sendable {
    let url: URL
    let delegate: AVCaptureFileOutputRecordingDelegate
    let connections: [AVCaptureConnection]
    let limits: AVCaptureFileOutput.Limits
    let plan: RecordingPlan
    private let output: AVCaptureFileOutput
    private var writer: MovieWriterThread!

    private struct Clock {
        var start: CMTime?
        var pausedTotal = CMTime.zero
        var isPaused = false
        var resumePending = false
        var lastVideoAbsolute = CMTime.invalid
        var recorded = CMTime.zero
        var frameDuration = CMTime(value: 1, timescale: 30)
        var ended = false
        var endReason: AVError?
        var droppedFrames = 0
        /// Whether a frame has gone to the writer thread to open the file with.
        var opening = false
        /// Whether the file is open: the recording's time starts with the first frame after this.
        var isOpen = false
    }
    private let clock = LockedValue(Clock())
    private let bytes = Atomic<Int64>(0)
    private let hasVideo: Bool
    private let hasAudio: Bool

    // The writer thread's own state.
    private var encoder: MovieEncoder?
    private var failure: AVError?
    private var lastFragment = CMTime.zero
    /// The longest the first fragment waits, whatever the interval.
    private static let firstFragmentInterval = CMTime(value: 1, timescale: 1)
    private var lastDiskCheck = CMTime.negativeInfinity
    private var samplesWritten = 0
    private var videoBytes: Int64 = 0
    private var videoFrames = 0

    init(
        output: AVCaptureFileOutput, url: URL, delegate: AVCaptureFileOutputRecordingDelegate, connections: [AVCaptureConnection],
        limits: AVCaptureFileOutput.Limits, plan: RecordingPlan
    ) {
        self.output = output
        self.url = url
        self.delegate = delegate
        self.connections = connections
        self.limits = limits
        self.plan = plan
        hasVideo = connections.contains { $0.mediaType == .video && $0.isEnabled }
        hasAudio = connections.contains { $0.mediaType == .audio && $0.isEnabled }
        writer = MovieWriterThread(name: "recording \(url.lastPathComponent)", videoCapacity: MovieWriterThread.realTimeVideoQueue) { [self] item in
            handle(item)
        }
    }

    var isPaused: Bool { clock.withLock { $0.isPaused } }
    var recordedDuration: CMTime { clock.withLock { $0.recorded } }
    var recordedFileSize: Int64 { bytes.load(ordering: .relaxed) }

    // MARK: Device threads

    func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let pts = sampleBuffer.presentationTimeStamp
        if let pixelBuffer = sampleBuffer.imageBuffer {
            let time = clock.withLock { clock -> CMTime? in
                guard !clock.ended, !clock.isPaused else { return nil }
                if sampleBuffer.timing.duration.isNumeric { clock.frameDuration = sampleBuffer.timing.duration }
                // The file is opened (the encoder set up) with a first frame that is not written, and
                // the recording starts with the first frame after: frames never queue up behind the
                // opening, which takes several frames' time when many cameras start recording at once.
                if !clock.isOpen {
                    if clock.opening { return nil }
                    clock.opening = true
                    return .indefinite
                }
                if clock.resumePending {
                    // The pause leaves no gap: time stops while paused.
                    clock.pausedTotal = clock.pausedTotal + (pts - clock.lastVideoAbsolute) - clock.frameDuration
                    clock.resumePending = false
                }
                if clock.start == nil { clock.start = pts }
                let relative = pts - clock.start! - clock.pausedTotal
                // A frame is recorded only if it ends within the limit.
                if limits.maxRecordedDuration.isNumeric, relative + clock.frameDuration > limits.maxRecordedDuration + CMTime(value: 1, timescale: 1000) {
                    clock.ended = true
                    clock.endReason = AVError(.maximumDurationReached)
                    return .invalid
                }
                clock.lastVideoAbsolute = pts
                clock.recorded = relative + clock.frameDuration
                return relative
            }
            guard let time else { return }
            if time.isIndefinite {
                if !writer.enqueue(.video(pixelBuffer, time)) { clock.withLock { $0.opening = false } }
                return
            }
            if !time.isValid { writer.enqueue(.finish); return }
            if !writer.enqueue(.video(pixelBuffer, time)) { clock.withLock { $0.droppedFrames += 1 } }
        } else if sampleBuffer.dataBuffer != nil, let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription {
            let first = clock.withLock { clock -> Int64? in
                guard !clock.ended, !clock.isPaused, !clock.resumePending else { return nil }
                if clock.start == nil {
                    if hasVideo { return nil }  // the recording starts with its first video frame
                    clock.start = pts
                }
                let relative = pts - clock.start! - clock.pausedTotal
                if !hasVideo {
                    if limits.maxRecordedDuration.isNumeric, relative >= limits.maxRecordedDuration {
                        clock.ended = true
                        clock.endReason = AVError(.maximumDurationReached)
                        return Int64.min
                    }
                    clock.recorded = relative + sampleBuffer.duration
                }
                return Int64((relative.seconds * asbd.mSampleRate).rounded())
            }
            guard let first else { return }
            if first == Int64.min { writer.enqueue(.finish); return }
            writer.enqueue(.audio(sampleBuffer, first))
        }
    }

    // MARK: Any thread

    /// Ends the recording; `reason` is nil when the client stopped it.
    func end(reason: AVError?) {
        let first = clock.withLock { clock -> Bool in
            guard !clock.ended else { return false }
            clock.ended = true
            clock.endReason = reason
            return true
        }
        if first { writer.enqueue(.finish) }
    }

    func pause() {
        let changed = clock.withLock { clock -> Bool in
            guard !clock.ended, !clock.isPaused, clock.start != nil else { return false }
            clock.isPaused = true
            return true
        }
        if changed { delegateQueue { [self] in delegate.fileOutput(output, didPauseRecordingTo: url, from: connections) } }
    }

    func resume() {
        let changed = clock.withLock { clock -> Bool in
            guard !clock.ended, clock.isPaused else { return false }
            clock.isPaused = false
            clock.resumePending = hasVideo
            return true
        }
        if changed { delegateQueue { [self] in delegate.fileOutput(output, didResumeRecordingTo: url, from: connections) } }
    }

    private func delegateQueue(_ body: @escaping @Sendable () -> Void) { output.delegateQueue.async(execute: body) }

    // MARK: The writer thread

    private func handle(_ item: MovieWriterThread.Item) -> Bool {
        switch item {
        case .video(let pixelBuffer, let time) where time.isIndefinite:
            // The frame the file is opened with.
            guard failure == nil, encoder != nil || open(firstFrame: pixelBuffer) else { return true }
            clock.withLock { $0.isOpen = true }
        case .video(let pixelBuffer, let time):
            guard failure == nil else { return true }
            if encoder == nil, !open(firstFrame: pixelBuffer) { return true }
            do {
                try encoder!.appendVideo(pixelBuffer, at: time)
            } catch {
                fail(error)
                return true
            }
            videoFrames += 1
            samplesWritten += 1
            afterWriting(at: time)
        case .audio(let sampleBuffer, let first):
            guard failure == nil, let block = sampleBuffer.dataBuffer else { return true }
            if encoder == nil {
                guard !hasVideo, open(firstFrame: nil) else { return true }
            }
            let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription
            let channels = Int(asbd?.mChannelsPerFrame ?? 1)
            var frames = block.length / (2 * channels)
            if limits.maxRecordedDuration.isNumeric, let rate = asbd?.mSampleRate {
                // Samples past the duration limit are not recorded.
                let last = Int64((limits.maxRecordedDuration.seconds * rate).rounded())
                frames = Int(max(0, min(Int64(frames), last - first)))
                if frames == 0 { return true }
            }
            do {
                try encoder!.appendAudio(UnsafePointer(block.bytes.assumingMemoryBound(to: Int16.self)), frames: frames, first: first)
            } catch {
                fail(error)
                return true
            }
            samplesWritten += 1
            if !hasVideo { afterWriting(at: CMTime(value: first, timescale: Int32(encoder!.encoding.audio!.sampleRate))) }
        case .packet:
            break  // capture delivers uncompressed samples only
        case .finish:
            finish()
            return false
        }
        return true
    }

    /// Creates the file when the first sample arrives.
    private func open(firstFrame: CVPixelBuffer?) -> Bool {
        let (frameDuration, _) = clock.withLock { ($0.frameDuration, $0.start) }
        var encoding = MovieEncoding(container: plan.fileType.muxerName, fragmented: true)
        if let frame = firstFrame {
            encoding.video = EncodingPlan.video(
                codec: plan.videoCodec, like: frame, frameRate: EncodingPlan.frameRate(frameDuration: frameDuration),
                compression: plan.compression, for: .recording)
            encoding.colour = EncodingPlan.colour(of: frame)
            if let connection = connections.first(where: { $0.mediaType == .video }) {
                encoding.rotationDegrees = Int(connection.videoRotationAngle)
                encoding.mirrored = connection.isVideoMirroringSupported && connection.isVideoMirrored
            }
        }
        if hasAudio, let connection = connections.first(where: { $0.mediaType == .audio }) {
            encoding.audio = EncodingPlan.audio(for: connection)
        }
        do {
            encoder = try MovieEncoder(url: url, encoding: encoding, metadata: AVMetadataItem.movieMetadata(plan.metadata()))
        } catch {
            unlink(url.path)
            failure = error.avError(url: url, successfullyFinished: false)
            end(reason: failure)
            return false
        }
        delegateQueue { [self] in delegate.fileOutput(output, didStartRecordingTo: url, from: connections) }
        return true
    }

    private func afterWriting(at time: CMTime) {
        guard let encoder else { return }
        let written = encoder.bytesMuxed
        bytes.store(written, ordering: .relaxed)
        if limits.maxRecordedFileSize > 0 {
            // Stop before the next frame and the finished file's index could pass the limit.
            let averageFrame = videoFrames > 0 ? written / Int64(videoFrames) : 0
            let index = Int64(4096 + samplesWritten * 32)
            if written + index + 2 * averageFrame >= limits.maxRecordedFileSize {
                end(reason: AVError(.maximumFileSizeReached))
            }
        }
        if limits.minFreeDiskSpaceLimit > 0, (time - lastDiskCheck).seconds >= 0.25 {
            lastDiskCheck = time
            var stats = statvfs()
            if statvfs(url.deletingLastPathComponent().path, &stats) == 0,
                Int64(stats.f_bavail) * Int64(stats.f_frsize) < limits.minFreeDiskSpaceLimit
            {
                end(reason: AVError(.diskFull))
            }
        }
        // The first fragment comes after a second at most, so that a process killed early still
        // leaves media; the later ones at the interval asked for.
        let interval = lastFragment == .zero ? min(plan.fragmentInterval, Self.firstFragmentInterval) : plan.fragmentInterval
        if plan.fragmentInterval.isNumeric, plan.fragmentInterval > .zero, time - lastFragment >= interval {
            encoder.requestFragment()
            lastFragment = time
        }
    }

    /// A write failed: keep the file as it was at its last complete fragment, and end.
    private func fail(_ error: MovieEncoderError) {
        let durable = encoder?.durableBytes ?? 0
        encoder?.abandon()
        encoder = nil
        failure = error.avError(url: url, successfullyFinished: durable > 0 && videoFrames > 0)
        end(reason: failure)
    }

    private func finish() {
        let reason = clock.withLock { $0.endReason }
        var result: AVError?
        if let failure {
            result = failure
        } else if let encoder, !(hasVideo && videoFrames == 0) {
            do {
                try encoder.finish()
                // An ordinary movie, index first, with the metadata as it is now.
                try? MovieEncoder.remuxFastStart(
                    url, container: plan.fileType.muxerName, metadata: AVMetadataItem.movieMetadata(plan.metadata()),
                    rotationDegrees: encoder.encoding.rotationDegrees, mirrored: encoder.encoding.mirrored)
                if let reason {
                    var info = reason.userInfo
                    info[AVErrorRecordingSuccessfullyFinishedKey] = true
                    result = AVError(reason.code, userInfo: info)
                }
            } catch {
                let durable = encoder.durableBytes
                encoder.abandon()
                result = error.avError(url: url, successfullyFinished: durable > 0)
            }
            if let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64 { bytes.store(size, ordering: .relaxed) }
        } else {
            // Opened but ended before its first frame: no file is left.
            if let encoder {
                encoder.abandon()
                unlink(url.path)
            }
            var info = reason?.userInfo ?? [:]
            info[AVErrorRecordingSuccessfullyFinishedKey] = false
            info[NSLocalizedDescriptionKey] = "No data was captured before the recording ended."
            result = AVError(.noDataCaptured, userInfo: info)
        }
        encoder = nil
        output.recordingDidFinish(self)
        let finalError = result
        delegateQueue { [self] in
            delegate.fileOutput(output, willFinishRecordingTo: url, from: connections, error: finalError)
            delegate.fileOutput(output, didFinishRecordingTo: url, from: connections, error: finalError)
        }
    }
}
