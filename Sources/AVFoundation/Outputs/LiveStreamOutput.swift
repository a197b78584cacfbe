import Foundation
import MovieEngine
import Synchronization

/// Methods a live stream output calls as its stream starts, loses and regains its server, and ends (Linux).
public protocol LiveStreamOutputDelegate: AnyObject {
    /// Tells the delegate that the first frames reached the server.
    func liveStreamOutput(_ output: LiveStreamOutput, didStartStreamingTo url: URL, from connections: [AVCaptureConnection])
    /// Tells the delegate that the server went away or refused the stream; the output tries again.
    func liveStreamOutput(_ output: LiveStreamOutput, didLoseConnectionTo url: URL, error: Error)
    /// Tells the delegate that the stream reached the server again after losing it.
    func liveStreamOutput(_ output: LiveStreamOutput, didReconnectTo url: URL)
    /// Tells the delegate that the stream ended: `error` is nil when it was stopped, an `AVError` otherwise.
    func liveStreamOutput(_ output: LiveStreamOutput, didFinishStreamingTo url: URL, from connections: [AVCaptureConnection], error: Error?)
}

extension LiveStreamOutputDelegate {
    /// Does nothing by default.
    public func liveStreamOutput(_ output: LiveStreamOutput, didStartStreamingTo url: URL, from connections: [AVCaptureConnection]) {}
    /// Does nothing by default.
    public func liveStreamOutput(_ output: LiveStreamOutput, didLoseConnectionTo url: URL, error: Error) {}
    /// Does nothing by default.
    public func liveStreamOutput(_ output: LiveStreamOutput, didReconnectTo url: URL) {}
}

/// A capture output that publishes a session's video and audio live, as H.264 and AAC, to the
/// streaming servers people run: RTMP (`rtmp://`, FLV), SRT (`srt://`, MPEG-TS), RTSP
/// (`rtsp://`) and UDP (`udp://`, MPEG-TS), through FFmpeg's libavformat (Linux).
///
/// The camera never waits for the network: frames go through a short queue to the output's own
/// thread, which encodes and sends them; when the network is slower than the camera the queue
/// fills and frames are dropped before they are encoded, so what is sent always decodes and
/// memory stays bounded. When the server goes away, the output tries again with growing pauses
/// (half a second, doubling to eight) without stopping the session, and starts the new
/// connection with a keyframe. A connection starts with the first frame taken once the server
/// answered: frames that waited while a slow server answered are not sent.
open class LiveStreamOutput: AVCaptureOutput, @unchecked Sendable {
    struct Settings: Sendable {
        var videoBitRate = 0
        var reconnectsAutomatically = true
        var connectionTimeout: TimeInterval = 5
    }
    private let settings = LockedValue(Settings())
    private let current = EncodingJobSlot<LiveStream>()
    let delegateQueue = DispatchQueue(label: "LiveStreamOutput delegate")
    let counters = LiveStreamCounters()

    /// Creates a live stream output.
    public override init() {
        super.init()
        FFmpegLibraries.loadSoon()
    }

    /// The URL being streamed to, or `nil`.
    open var streamURL: URL? { current.job?.url }
    /// Whether a stream is under way (connected or trying to connect).
    open var isStreaming: Bool { current.job != nil }
    /// The video bit rate in bits per second; 0 chooses one by the picture's size and rate.
    open var videoBitRate: Int {
        get { settings.withLock { $0.videoBitRate } }
        set { settings.withLock { $0.videoBitRate = max(0, newValue) } }
    }
    /// Whether the output connects again when the server goes away or refuses it; when false, the stream ends.
    open var reconnectsAutomatically: Bool {
        get { settings.withLock { $0.reconnectsAutomatically } }
        set { settings.withLock { $0.reconnectsAutomatically = newValue } }
    }
    /// How long connecting, or sending one frame, may take before the connection counts as lost.
    open var connectionTimeout: TimeInterval {
        get { settings.withLock { $0.connectionTimeout } }
        set { settings.withLock { $0.connectionTimeout = max(0.1, newValue) } }
    }
    /// Video frames sent since the output was created.
    open var framesSent: Int { counters.framesSent.load(ordering: .relaxed) }
    /// Video frames dropped since the output was created: while the network was slow or the server away.
    open var framesDropped: Int { counters.framesDropped.load(ordering: .relaxed) }
    /// Times the stream reached its server again after losing it.
    open var reconnectionCount: Int { counters.reconnections.load(ordering: .relaxed) }
    /// Bytes handed to the network since the output was created.
    open var bytesSent: Int64 { counters.bytesSent.load(ordering: .relaxed) }

    /// Samples handed to the stream and not yet encoded and sent; a test clock waits on it.
    package var samplesWaitingToBeSent: Int { current.job?.samplesWaiting ?? 0 }

    /// The URL schemes the output publishes to, with the container each carries.
    public static let supportedURLSchemes: [String: String] = ["rtmp": "flv", "rtmps": "flv", "srt": "mpegts", "udp": "mpegts", "rtsp": "rtsp"]

    /// Starts publishing to `url`; the delegate hears when the first frames reach the server, and
    /// when the stream ends. A URL of a scheme the output does not publish to, or a session that is
    /// not running, ends the stream at once with an error.
    open func startStreaming(to url: URL, delegate: LiveStreamOutputDelegate) {
        // The first frames must not wait for FFmpeg to load: it is loaded before the stream starts.
        FFmpegLibraries.load()
        let connections = self.connections
        let client = UncheckedSendable((delegate, connections))
        let refuse = { [self] (code: AVError.Code, message: String) in
            delegateQueue.async { [self] in
                client.value.0.liveStreamOutput(
                    self, didFinishStreamingTo: url, from: client.value.1,
                    error: AVError(code, userInfo: [NSURLErrorKey: url, NSLocalizedDescriptionKey: message]))
            }
        }
        guard let scheme = url.scheme?.lowercased(), let muxer = Self.supportedURLSchemes[scheme], url.host != nil else {
            refuse(
                .invalidOutputURLPathExtension,
                "Cannot stream to \(url.absoluteString): the URL is not rtmp://, rtmps://, srt://, udp:// or rtsp:// with a host.")
            return
        }
        guard session?.isRunning ?? false else {
            refuse(.sessionNotRunning, "Cannot stream: the session is not running.")
            return
        }
        current.end(reason: nil)
        let stream = LiveStream(output: self, url: url, muxer: muxer, delegate: delegate, connections: connections, settings: settings.withLock { $0 })
        current.start(stream)
    }

    /// Stops the stream; the delegate hears when it has ended.
    open func stopStreaming() {
        current.end(reason: nil)
    }

    // MARK: Session hooks

    override var demand: OutputDemand { OutputDemand(video: 1, audio: 1) }

    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if isAttached { current.receive(sampleBuffer, from: connection) }
    }

    override func sessionWillStop(because error: AVError?) { current.sessionWillStop(because: error) }

    override func sessionWasInterrupted() { current.sessionWasInterrupted() }

    override func didDetach() { current.didDetach() }

    /// The stream ended; forget it unless another has started.
    func streamDidFinish(_ stream: LiveStream) { current.finished(stream) }
}

/// What a live stream output has sent and dropped, counted on its threads.
final class LiveStreamCounters: Sendable {
    let framesSent = Atomic<Int>(0)
    let framesDropped = Atomic<Int>(0)
    let reconnections = Atomic<Int>(0)
    let bytesSent = Atomic<Int64>(0)
}
