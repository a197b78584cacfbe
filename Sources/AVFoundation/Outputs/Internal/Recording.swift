import CaptureDevices
import Foundation
import MovieEngine
import Synchronization

/// One recording of a file output: an encoding job whose policies are the file output's limits,
/// pausing, an encoder opened ahead of the first written frame, fragments, and the recording
/// delegate's messages.
///
/// Thread ownership: as its job's; `pause` and `resume` run on any thread under the clock's lock.
final class Recording: CaptureEncodingJob, @unchecked Sendable {
    let delegate: AVCaptureFileOutputRecordingDelegate
    let limits: AVCaptureFileOutput.Limits
    let plan: RecordingPlan
    private let output: AVCaptureFileOutput
    private let bytes = Atomic<Int64>(0)

    // The writer thread's own state.
    private var encoder: MovieEncoder?
    private var failure: AVError?
    private var fragments: FragmentSchedule
    /// The longest the first fragment waits, whatever the interval.
    private static let firstFragmentInterval = CMTime(value: 1, timescale: 1)
    /// The most bytes of samples a fragment gathers before it is cut, whatever the interval: the
    /// muxer holds a fragment's samples in memory until then (10 s of 720p at 10.5 Mbit/s is 13 MB a
    /// camera). The finished file is rewritten as an ordinary movie, so more fragments cost nothing
    /// there, and a recording cut short keeps more.
    static let maximumFragmentBytes: Int64 = 512 * 1024
    private var lastDiskCheck = CMTime.negativeInfinity
    private var samplesWritten = 0
    private var videoFrames = 0

    init(
        output: AVCaptureFileOutput, url: URL, delegate: AVCaptureFileOutputRecordingDelegate, connections: [AVCaptureConnection],
        limits: AVCaptureFileOutput.Limits, plan: RecordingPlan
    ) {
        self.output = output
        self.delegate = delegate
        self.limits = limits
        self.plan = plan
        fragments = FragmentSchedule(interval: plan.fragmentInterval, firstInterval: Self.firstFragmentInterval, maximumBytes: Self.maximumFragmentBytes)
        super.init(
            url: url, connections: connections, threadName: "recording \(url.lastPathComponent)", videoQueue: MovieWriterThread.realTimeVideoQueue)
    }

    var isPaused: Bool { clock.withLock { $0.isPaused } }
    var recordedDuration: CMTime { clock.withLock { $0.recorded } }
    var recordedFileSize: Int64 { bytes.load(ordering: .relaxed) }

    // MARK: Device threads

    override func admitVideo(_ sampleBuffer: CMSampleBuffer, at pts: CMTime, on clock: inout EncodingClock) -> VideoAdmission {
        guard clock.isTaking else { return .drop }
        clock.noteDuration(of: sampleBuffer)
        // The file is opened (the encoder set up) with a first frame that is not written, and
        // the recording starts with the first frame after: frames never queue up behind the
        // opening, which takes several frames' time when many cameras start recording at once.
        if !clock.isOpen {
            if clock.opening { return .drop }
            clock.opening = true
            return .open
        }
        let relative = clock.videoTime(pts)
        // A frame is recorded only if it ends within the limit.
        if limits.maxRecordedDuration.isNumeric, relative + clock.frameDuration > limits.maxRecordedDuration + CMTime(value: 1, timescale: 1000) {
            _ = clock.end(reason: AVError(.maximumDurationReached))
            return .finish
        }
        clock.recorded = relative + clock.frameDuration
        return .write(relative)
    }

    override func admitSound(_ sampleBuffer: CMSampleBuffer, at pts: CMTime, rate: Double, on clock: inout EncodingClock) -> Int64? {
        guard let relative = clock.soundTime(pts, startsWithVideo: hasVideo) else { return nil }
        if !hasVideo {
            if limits.maxRecordedDuration.isNumeric, relative >= limits.maxRecordedDuration {
                _ = clock.end(reason: AVError(.maximumDurationReached))
                return Int64.min
            }
            clock.recorded = relative + sampleBuffer.duration
        }
        return Self.sampleNumber(relative, rate: rate)
    }

    // MARK: Any thread

    func pause() {
        if clock.withLock({ $0.pause() }) { delegateQueue { [self] in delegate.fileOutput(output, didPauseRecordingTo: url, from: connections) } }
    }

    func resume() {
        if clock.withLock({ $0.resume(hasVideo: hasVideo) }) {
            delegateQueue { [self] in delegate.fileOutput(output, didResumeRecordingTo: url, from: connections) }
        }
    }

    private func delegateQueue(_ body: @escaping @Sendable () -> Void) { output.delegateQueue.async(execute: body) }

    // MARK: The writer thread

    override func open(with pixelBuffer: CVPixelBuffer) {
        guard failure == nil, encoder == nil else { return }
        _ = open(firstFrame: pixelBuffer)
    }

    override func write(_ pixelBuffer: CVPixelBuffer, at time: CMTime) {
        guard failure == nil else { return }
        if encoder == nil, !open(firstFrame: pixelBuffer) { return }
        do {
            try encoder!.appendVideo(pixelBuffer, at: time)
        } catch {
            return fail(error)
        }
        videoFrames += 1
        samplesWritten += 1
        afterWriting(at: time)
    }

    override func write(_ sampleBuffer: CMSampleBuffer, first: Int64) {
        guard failure == nil, sampleBuffer.dataBuffer != nil else { return }
        if encoder == nil {
            guard !hasVideo, open(firstFrame: nil) else { return }
        }
        // Samples past the duration limit are not recorded.
        let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate
        let limit = limits.maxRecordedDuration.isNumeric ? rate.map { Self.sampleNumber(limits.maxRecordedDuration, rate: $0) } : nil
        do {
            guard try encoder!.appendSound(sampleBuffer, first: first, upTo: limit) else { return }
        } catch {
            return fail(error)
        }
        samplesWritten += 1
        if !hasVideo { afterWriting(at: CMTime(value: first, timescale: Int32(encoder!.encoding.audio!.sampleRate))) }
    }

    /// Creates the file when the first sample arrives.
    private func open(firstFrame: CVPixelBuffer?) -> Bool {
        var encoding = plannedEncoding(
            container: plan.fileType, fragmented: true, firstFrame: firstFrame, codec: plan.videoCodec, compression: plan.compression, for: .recording)
        if firstFrame != nil, let connection = connections.first(where: { $0.mediaType == .video }) {
            encoding.rotationDegrees = Int(connection.videoRotationAngle)
            encoding.mirrored = connection.isVideoMirroringSupported && connection.isVideoMirrored
        }
        do {
            encoder = try MovieEncoder(url: url, encoding: encoding, metadata: AVMetadataItem.movieMetadata(plan.metadata()))
        } catch {
            unlink(url.path)
            failure = error.avError(url: url, successfullyFinished: false)
            end(reason: failure)
            return false
        }
        // Frames are taken from now on, before the delegate hears that recording started: a
        // frame the camera delivers after that message is in the file.
        clock.withLock { $0.isOpen = true }
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
        if fragments.isDue(at: time, bytesMuxed: written) { encoder.requestFragment() }
    }

    /// A write failed: keep the file as it was at its last complete fragment, and end.
    private func fail(_ error: MovieEncoderError) {
        let durable = encoder?.durableBytes ?? 0
        encoder?.abandon()
        encoder = nil
        failure = error.avError(url: url, successfullyFinished: durable > 0 && videoFrames > 0)
        end(reason: failure)
    }

    override func finish() {
        let reason = clock.withLock { $0.endReason }
        var result: AVError?
        if let failure {
            result = failure
        } else if let encoder, !(hasVideo && videoFrames == 0) {
            do {
                // A recording of sound alone that its duration limit ended lasts that long: where the
                // sound before the limit was lost (an overrun), the file is silent to it rather than short.
                if !hasVideo, reason?.code == .maximumDurationReached, limits.maxRecordedDuration.isNumeric, let audio = encoder.encoding.audio {
                    let end = Self.sampleNumber(limits.maxRecordedDuration, rate: Double(audio.sampleRate))
                    let silence = UnsafeMutablePointer<Int16>.allocate(capacity: max(1, audio.channels))
                    defer { silence.deallocate() }
                    silence.initialize(repeating: 0, count: max(1, audio.channels))
                    try encoder.appendAudio(silence, frames: 1, first: end - 1)
                }
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
