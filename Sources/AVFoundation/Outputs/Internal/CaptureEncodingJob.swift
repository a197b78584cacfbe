import CaptureDevices
import Foundation
import MovieEngine

/// A job that encodes what a capture output's connections carry, a recording or a live stream:
/// the movie's clock, fed from device threads; a writer thread that owns the encoder; and the end,
/// which comes once, from the client, the session, a limit or a failure.
///
/// Subclasses are the policies: which samples the clock admits (limits, pauses, an opening frame),
/// and what the writer thread does with them (fragments, reconnection, the delegate's messages).
///
/// Thread ownership: `receive` runs on device threads and `end` on any thread, both under the
/// clock's lock; the `write` and `finish` methods run on the writer thread, which alone touches
/// the encoder.
class CaptureEncodingJob: @unchecked Sendable {
    /// Where the movie goes.
    let url: URL
    /// The connections whose samples the job encodes.
    let connections: [AVCaptureConnection]
    /// Whether an enabled video connection feeds the job: then its time starts with a frame.
    let hasVideo: Bool
    /// Whether an enabled audio connection feeds the job.
    let hasAudio: Bool
    /// The movie's timeline.
    let clock = LockedValue(EncodingClock())
    private var writer: MovieWriterThread!

    /// What the clock makes of a video frame.
    enum VideoAdmission {
        /// The frame is not taken.
        case drop
        /// The frame goes to the writer thread to open the encoder with, and is not written.
        case open
        /// The frame is written at this movie time.
        case write(CMTime)
        /// The frame passes a limit: the job ends.
        case finish
    }

    /// Creates a job and starts its writer thread.
    init(url: URL, connections: [AVCaptureConnection], threadName: String, videoQueue: Int) {
        self.url = url
        self.connections = connections
        hasVideo = connections.contains { $0.mediaType == .video && $0.isEnabled }
        hasAudio = connections.contains { $0.mediaType == .audio && $0.isEnabled }
        writer = MovieWriterThread(name: threadName, videoCapacity: videoQueue) { [self] item in handle(item) }
    }

    // MARK: Device threads

    /// Takes a sample from a device thread.
    final func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let pts = sampleBuffer.presentationTimeStamp
        if let pixelBuffer = sampleBuffer.imageBuffer {
            switch clock.withLock({ admitVideo(sampleBuffer, at: pts, on: &$0) }) {
            case .drop: return
            case .open: if !writer.enqueue(.video(pixelBuffer, .indefinite)) { clock.withLock { $0.opening = false } }
            case .write(let time): if !writer.enqueue(.video(pixelBuffer, time)) { didDropFrame() }
            case .finish: writer.enqueue(.finish)
            }
        } else if sampleBuffer.dataBuffer != nil, let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate {
            guard let first = clock.withLock({ admitSound(sampleBuffer, at: pts, rate: rate, on: &$0) }) else { return }
            if first == Int64.min { writer.enqueue(.finish); return }
            writer.enqueue(.audio(sampleBuffer, first))
        }
    }

    /// What the clock makes of a video frame, under the clock's lock: by default, written at its movie time.
    func admitVideo(_ sampleBuffer: CMSampleBuffer, at pts: CMTime, on clock: inout EncodingClock) -> VideoAdmission {
        guard clock.isTaking else { return .drop }
        clock.noteDuration(of: sampleBuffer)
        return .write(clock.videoTime(pts))
    }

    /// The number in the movie of a sound buffer's first sample, under the clock's lock; nil when it is
    /// not taken, and `Int64.min` when it passes a limit and the job ends.
    func admitSound(_ sampleBuffer: CMSampleBuffer, at pts: CMTime, rate: Double, on clock: inout EncodingClock) -> Int64? {
        guard let time = clock.soundTime(pts, startsWithVideo: hasVideo) else { return nil }
        return Self.sampleNumber(time, rate: rate)
    }

    /// The writer thread had no room for a frame: the network or the disk is behind.
    func didDropFrame() {}

    /// The number of the sample at a movie time, at a sample rate.
    static func sampleNumber(_ time: CMTime, rate: Double) -> Int64 { Int64((time.seconds * rate).rounded()) }

    // MARK: Any thread

    /// How many samples wait for the writer thread.
    final var samplesWaiting: Int { writer.pending }

    /// Ends the job; `reason` is nil when the client ended it. Only the first end counts.
    final func end(reason: AVError?) {
        if clock.withLock({ $0.end(reason: reason) }) { writer.enqueue(.finish) }
    }

    /// The encoding for a movie of these connections whose first frame (if it has video) is `firstFrame`.
    final func plannedEncoding(
        container: AVFileType, fragmented: Bool, firstFrame: CVPixelBuffer?, codec: AVVideoCodecType, compression: ValidatedSettings.Compression,
        for purpose: EncodingPlan.Purpose
    ) -> MovieEncoding {
        var encoding = MovieEncoding(container: container.muxerName, fragmented: fragmented)
        if let frame = firstFrame {
            let frameDuration = clock.withLock { $0.frameDuration }
            encoding.video = EncodingPlan.video(
                codec: codec, like: frame, frameRate: EncodingPlan.frameRate(frameDuration: frameDuration), compression: compression, for: purpose)
            encoding.colour = EncodingPlan.colour(of: frame)
        }
        if hasAudio, let connection = connections.first(where: { $0.mediaType == .audio }) {
            encoding.audio = EncodingPlan.audio(for: connection)
        }
        return encoding
    }

    // MARK: The writer thread

    private func handle(_ item: MovieWriterThread.Item) -> Bool {
        switch item {
        case .video(let pixelBuffer, let time, _) where time.isIndefinite: open(with: pixelBuffer)
        case .video(let pixelBuffer, let time, _): write(pixelBuffer, at: time)
        case .audio(let sampleBuffer, let first): write(sampleBuffer, first: first)
        case .packet: break  // capture delivers uncompressed samples only
        case .finish:
            finish()
            return false
        }
        return true
    }

    /// Opens the encoder with a frame that is not written (after `.open`).
    func open(with pixelBuffer: CVPixelBuffer) {}

    /// Writes a frame at a movie time.
    func write(_ pixelBuffer: CVPixelBuffer, at time: CMTime) {}

    /// Writes sound whose first sample is sample `first` of the movie.
    func write(_ sampleBuffer: CMSampleBuffer, first: Int64) {}

    /// Finishes the movie and tells the delegate; the writer thread ends after.
    func finish() {}
}
