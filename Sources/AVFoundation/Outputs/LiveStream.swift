import CaptureDevices
import Foundation
import MovieEngine

/// One stream of a live stream output: its clock, its sender thread and its connection.
///
/// Thread ownership: `receive` runs on device threads and `end` on any thread, under the
/// clock's lock; everything else runs on the sender thread, which alone touches the network.
final class LiveStream: CaptureEncodingJob, @unchecked Sendable {
    let url: URL
    let delegate: AVCaptureLiveStreamOutputDelegate
    let connections: [AVCaptureConnection]
    private let output: AVCaptureLiveStreamOutput
    private let muxer: String
    private let settings: AVCaptureLiveStreamOutput.Settings
    private var sender: MovieWriterThread!

    private struct Clock {
        var start: CMTime?
        var frameDuration = CMTime(value: 1, timescale: 30)
        var ended = false
        var endReason: AVError?
    }
    private let clock = LockedValue(Clock())
    private let hasVideo: Bool
    private let hasAudio: Bool

    // The sender thread's own state.
    private var encoder: MovieEncoder?
    /// Where on the stream's clock the current connection began: its timestamps start there at zero.
    private var connectionStart = CMTime.invalid
    private var connectionBytes: Int64 = 0
    private var everConnected = false
    private var lost = false
    private var failure: AVError?
    /// When the next attempt to connect may be made (host clock, seconds), and the pause after it.
    private var nextAttempt = 0.0
    private var pause = LiveStream.firstPause

    static let firstPause = 0.5
    static let longestPause = 8.0

    init(
        output: AVCaptureLiveStreamOutput, url: URL, muxer: String, delegate: AVCaptureLiveStreamOutputDelegate, connections: [AVCaptureConnection],
        settings: AVCaptureLiveStreamOutput.Settings
    ) {
        self.output = output
        self.url = url
        self.muxer = muxer
        self.delegate = delegate
        self.connections = connections
        self.settings = settings
        hasVideo = connections.contains { $0.mediaType == .video && $0.isEnabled }
        hasAudio = connections.contains { $0.mediaType == .audio && $0.isEnabled }
        sender = MovieWriterThread(name: "live stream \(url.host ?? "")") { [self] item in handle(item) }
    }

    // MARK: Device threads

    func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let pts = sampleBuffer.presentationTimeStamp
        if let pixelBuffer = sampleBuffer.imageBuffer {
            let time = clock.withLock { clock -> CMTime? in
                guard !clock.ended else { return nil }
                if clock.start == nil { clock.start = pts }
                if sampleBuffer.timing.duration.isNumeric { clock.frameDuration = sampleBuffer.timing.duration }
                return pts - clock.start!
            }
            guard let time else { return }
            // A full queue means the network is behind: the frame is dropped before it is encoded.
            if !sender.enqueue(.video(pixelBuffer, time)) { output.counters.framesDropped.add(1, ordering: .relaxed) }
        } else if sampleBuffer.dataBuffer != nil, let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription {
            let first = clock.withLock { clock -> Int64? in
                guard !clock.ended else { return nil }
                if clock.start == nil {
                    if hasVideo { return nil }  // the stream's clock starts with its first video frame
                    clock.start = pts
                }
                return Int64(((pts - clock.start!).seconds * asbd.mSampleRate).rounded())
            }
            guard let first else { return }
            sender.enqueue(.audio(sampleBuffer, first))
        }
    }

    // MARK: Any thread

    /// Ends the stream; `reason` is nil when the client stopped it.
    func end(reason: AVError?) {
        let first = clock.withLock { clock -> Bool in
            guard !clock.ended else { return false }
            clock.ended = true
            clock.endReason = reason
            return true
        }
        if first { sender.enqueue(.finish) }
    }

    private func toDelegate(_ body: @escaping @Sendable (AVCaptureLiveStreamOutputDelegate, AVCaptureLiveStreamOutput) -> Void) {
        let client = UncheckedSendable((delegate, output))
        output.delegateQueue.async { body(client.value.0, client.value.1) }
    }

    // MARK: The sender thread

    private func handle(_ item: MovieWriterThread.Item) -> Bool {
        switch item {
        case .video(let pixelBuffer, let time):
            guard failure == nil else { return true }
            if encoder == nil, !connect(firstFrame: pixelBuffer, at: time) {
                output.counters.framesDropped.add(1, ordering: .relaxed)
                return true
            }
            do {
                try encoder!.appendVideo(pixelBuffer, at: time - connectionStart)
            } catch {
                lose(error)
                return true
            }
            if !everConnected || lost { connected() }
            output.counters.framesSent.add(1, ordering: .relaxed)
            countBytes()
        case .audio(let sampleBuffer, let first):
            guard failure == nil, let block = sampleBuffer.dataBuffer else { return true }
            if encoder == nil {
                guard !hasVideo, connect(firstFrame: nil, at: .zero) else { return true }
            }
            guard let encoder, let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate else { return true }
            let channels = Int(sampleBuffer.formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame ?? 1)
            // Sample numbers start again at zero with each connection, as its video does.
            let number = first - Int64((connectionStart.seconds * rate).rounded())
            guard number >= 0 else { return true }
            do {
                try encoder.appendAudio(UnsafePointer(block.bytes.assumingMemoryBound(to: Int16.self)), frames: block.length / (2 * channels), first: number)
            } catch {
                lose(error)
                return true
            }
            if !hasVideo, !everConnected || lost { connected() }
            countBytes()
        case .packet:
            break  // capture delivers uncompressed samples only
        case .finish:
            finish()
            return false
        }
        return true
    }

    /// Opens a connection for a stream whose first frame (if it has video) is `firstFrame` at `time`;
    /// false while the pause after a failed attempt lasts, or when this attempt fails.
    private func connect(firstFrame: CVPixelBuffer?, at time: CMTime) -> Bool {
        let now = Double(CMClock.hostTimeNanoseconds()) / 1e9
        guard now >= nextAttempt else { return false }
        var encoding = MovieEncoding(container: AVFileType.mp4.muxerName, fragmented: false)
        encoding.live = (muxer, Int(settings.connectionTimeout * 1000))
        if let frame = firstFrame {
            let frameDuration = clock.withLock { $0.frameDuration }
            var compression = ValidatedSettings.Compression()
            if settings.videoBitRate > 0 { compression.bitRate = settings.videoBitRate }
            encoding.video = EncodingPlan.video(
                codec: .h264, like: frame, frameRate: EncodingPlan.frameRate(frameDuration: frameDuration),
                compression: compression, for: .liveStream)
            encoding.colour = EncodingPlan.colour(of: frame)
        }
        if hasAudio, let connection = connections.first(where: { $0.mediaType == .audio }) {
            encoding.audio = EncodingPlan.audio(for: connection)
        }
        do {
            encoder = try MovieEncoder(url: url, encoding: encoding, metadata: [])
            connectionStart = time
            connectionBytes = 0
            return true
        } catch {
            lose(error)
            return false
        }
    }

    /// The first frame of a connection reached the server.
    private func connected() {
        pause = Self.firstPause
        let url = self.url
        if !everConnected {
            everConnected = true
            lost = false
            let connections = self.connections
            toDelegate { delegate, output in delegate.liveStreamOutput(output, didStartStreamingTo: url, from: connections) }
        } else if lost {
            lost = false
            output.counters.reconnections.add(1, ordering: .relaxed)
            toDelegate { delegate, output in delegate.liveStreamOutput(output, didReconnectTo: url) }
        }
    }

    private func countBytes() {
        guard let encoder else { return }
        let muxed = encoder.bytesMuxed
        output.counters.bytesSent.add(muxed - connectionBytes, ordering: .relaxed)
        connectionBytes = muxed
    }

    /// Connecting or sending failed: drop the connection and try again after a pause (or end).
    private func lose(_ error: MovieEncoderError) {
        encoder?.abandon()
        encoder = nil
        let reason = AVError(
            .serverIncorrectlyConfigured,
            userInfo: [
                NSURLErrorKey: url,
                NSLocalizedDescriptionKey: "The stream to \(url.absoluteString) \(everConnected ? "lost its server" : "could not reach its server"): \(error)",
            ])
        guard settings.reconnectsAutomatically else {
            failure = reason
            end(reason: reason)
            return
        }
        nextAttempt = Double(CMClock.hostTimeNanoseconds()) / 1e9 + pause
        pause = min(pause * 2, Self.longestPause)
        if !lost {
            lost = true
            let url = self.url
            toDelegate { delegate, output in delegate.liveStreamOutput(output, didLoseConnectionTo: url, error: reason) }
        }
    }

    private func finish() {
        var result = clock.withLock { $0.endReason }
        if let failure { result = failure }
        if let encoder {
            countBytes()
            do {
                try encoder.finish()
            } catch {
                encoder.abandon()
            }
        }
        encoder = nil
        output.streamDidFinish(self)
        let url = self.url, connections = self.connections, error = result
        toDelegate { delegate, output in delegate.liveStreamOutput(output, didFinishStreamingTo: url, from: connections, error: error) }
    }
}
