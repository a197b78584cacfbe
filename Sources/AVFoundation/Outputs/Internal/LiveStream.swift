import CaptureDevices
import Foundation
import MovieEngine

/// One stream of a live stream output: an encoding job whose policies are a connection that is
/// opened with the first frame, dropped when the network fails and opened again after a growing
/// pause, and the live stream delegate's messages.
///
/// Thread ownership: as its job's; the sender (writer) thread alone touches the network.
final class LiveStream: CaptureEncodingJob, @unchecked Sendable {
    let delegate: LiveStreamOutputDelegate
    private let output: LiveStreamOutput
    private let muxer: String
    private let settings: LiveStreamOutput.Settings

    // The sender thread's own state.
    private var encoder: MovieEncoder?
    /// Where on the stream's clock the current connection began: its timestamps start there at zero.
    /// Invalid while a connection that took a while to open waits for a frame taken after it opened.
    private var connectionStart = CMTime.invalid
    /// The stream time a connection opened at: frames taken before then are stale and not sent.
    private var openedAt = CMTime.invalid
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
        output: LiveStreamOutput, url: URL, muxer: String, delegate: LiveStreamOutputDelegate, connections: [AVCaptureConnection],
        settings: LiveStreamOutput.Settings
    ) {
        self.output = output
        self.muxer = muxer
        self.delegate = delegate
        self.settings = settings
        super.init(url: url, connections: connections, threadName: "live stream \(url.host ?? "")", videoQueue: 4)
    }

    // MARK: Device threads

    /// A full queue means the network is behind: the frame was dropped before it was encoded.
    override func didDropFrame() { output.counters.framesDropped.add(1, ordering: .relaxed) }

    // MARK: Any thread

    private func toDelegate(_ body: @escaping @Sendable (LiveStreamOutputDelegate, LiveStreamOutput) -> Void) {
        let client = UncheckedSendable((delegate, output))
        output.delegateQueue.async { body(client.value.0, client.value.1) }
    }

    // MARK: The sender thread

    override func write(_ pixelBuffer: CVPixelBuffer, at time: CMTime) {
        guard failure == nil else { return }
        if encoder == nil, !connect(firstFrame: pixelBuffer, at: time) {
            output.counters.framesDropped.add(1, ordering: .relaxed)
            return
        }
        if !connectionStart.isValid {
            // Frames that waited while the connection opened would start it in the past, then leave a gap.
            guard time >= openedAt else {
                output.counters.framesDropped.add(1, ordering: .relaxed)
                return
            }
            connectionStart = time
        }
        do {
            try encoder!.appendVideo(pixelBuffer, at: time - connectionStart)
        } catch {
            return lose(error)
        }
        if !everConnected || lost { connected() }
        output.counters.framesSent.add(1, ordering: .relaxed)
        countBytes()
    }

    override func write(_ sampleBuffer: CMSampleBuffer, first: Int64) {
        guard failure == nil, sampleBuffer.dataBuffer != nil else { return }
        if encoder == nil {
            guard !hasVideo, connect(firstFrame: nil, at: .zero) else { return }
        }
        guard let encoder, connectionStart.isValid, let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate else { return }
        // Sample numbers start again at zero with each connection, as its video does.
        let number = first - Self.sampleNumber(connectionStart, rate: rate)
        guard number >= 0 else { return }
        do {
            guard try encoder.appendSound(sampleBuffer, first: number) else { return }
        } catch {
            return lose(error)
        }
        if !hasVideo, !everConnected || lost { connected() }
        countBytes()
    }

    /// Opens a connection for a stream whose first frame (if it has video) is `firstFrame` at `time`;
    /// false while the pause after a failed attempt lasts, or when this attempt fails.
    private func connect(firstFrame: CVPixelBuffer?, at time: CMTime) -> Bool {
        let now = Double(CMClock.hostTimeNanoseconds()) / 1e9
        guard now >= nextAttempt else { return false }
        var compression = ValidatedSettings.Compression()
        if settings.videoBitRate > 0 { compression.bitRate = settings.videoBitRate }
        var encoding = plannedEncoding(container: .mp4, fragmented: false, firstFrame: firstFrame, codec: .h264, compression: compression, for: .liveStream)
        encoding.live = (muxer, Int(settings.connectionTimeout * 1000))
        do {
            encoder = try MovieEncoder(url: url, encoding: encoding, metadata: [])
            connectionBytes = 0
            // With video, the connection starts with the first frame taken once it is open: the newest
            // frame the clock has taken (frames go on being taken while a server answers slowly).
            let newest = firstFrame == nil ? CMTime.invalid : clock.withLock { $0.newestVideoTime }
            openedAt = newest.isValid ? max(newest, time) : time
            connectionStart = openedAt == time ? time : .invalid
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

    override func finish() {
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
