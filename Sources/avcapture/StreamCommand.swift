import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture stream`: publishes a camera and a microphone to a streaming server.
struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Publish the camera and microphone live, H.264 and AAC, to an RTMP, SRT, RTSP or UDP server, or as HLS into a folder.",
        discussion: """
            URL is rtmp://HOST[:PORT]/APP/KEY (nginx-rtmp, MediaMTX, go2rtc, YouTube and Twitch ingest), \
            srt://HOST:PORT (a listener such as srt-live-transmit or MediaMTX), rtsp://HOST:PORT/PATH (MediaMTX, \
            go2rtc) or udp://HOST:PORT (MPEG-TS). When the server goes away the stream tries again, with pauses \
            growing to eight seconds, until Ctrl-C or --seconds. With --hls FOLDER instead of a URL, the folder \
            fills with an HTTP Live Streaming playlist (index.m3u8) of fragmented MPEG-4 segments that any web \
            server or CDN can serve while it grows.
            """)

    @Argument(help: "Where to publish.") var url: String?
    @Option(help: "Write HTTP Live Streaming into this folder (index.m3u8, init.mp4, segmentN.m4s) instead of publishing to a URL.")
    var hls: String?
    @Option(help: "With --hls, the length of each segment in seconds.") var segmentSeconds: Double = 2
    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var video: String?
    @Option(help: "The unique ID of the microphone.") var audio: String?
    @Flag(help: "Stream no audio.") var noAudio = false
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@30.") var format: String?
    @Option(help: "The video bit rate in bits per second (default: by size and rate).") var bitrate: Int?
    @Option(help: "How long to stream, in seconds; without it, until Ctrl-C.", transform: DurationOption.positiveSeconds) var seconds: Double?
    @Flag(help: "End when the server goes away rather than trying again.") var noReconnect = false

    func validate() throws {
        switch (url, hls) {
        case (nil, nil): throw ValidationError("Give a URL to publish to, or --hls FOLDER.")
        case (.some, .some): throw ValidationError("Give a URL or --hls FOLDER, not both.")
        case (let url?, nil):
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                LiveStreamOutput.supportedURLSchemes[scheme] != nil, parsed.host != nil
            else {
                throw ValidationError("\(url) is not an rtmp://, rtmps://, srt://, rtsp:// or udp:// URL with a host.")
            }
        case (nil, let folder?):
            guard !folder.isEmpty else { throw ValidationError("--hls needs a folder; an empty path names none.") }
            guard segmentSeconds.isFinite, segmentSeconds >= 0.5, segmentSeconds <= 60 else {
                throw ValidationError("--segment-seconds must be from 0.5 to 60.")
            }
        }
        if let bitrate, bitrate < 100_000 { throw ValidationError("--bitrate is in bits per second: at least 100000.") }
        if let seconds, seconds <= 0 { throw ValidationError("--seconds must be more than 0.") }
    }

    func run() throws {
        if let hls { return try runHLS(folder: hls) }
        let url = url!
        let destination = URL(string: url)!
        let session = AVCaptureSession()
        session.beginConfiguration()
        let camera = try CameraChoice.addCamera(video, preset: nil, format: format, to: session, preferring: FormatChoice.encoderPixelFormats)
        let microphoneName = try addMicrophone(to: session)?.localizedName
        let output = LiveStreamOutput()
        session.addOutput(output)
        if let bitrate { output.videoBitRate = bitrate }
        output.reconnectsAutomatically = !noReconnect
        session.commitConfiguration()

        let progress = StreamProgress()
        let stopSignals = StopSignals.handle(on: .main) { output.stopStreaming() }
        defer { withExtendedLifetime(stopSignals) {} }
        session.startRunning()
        guard session.isRunning else { throw CommandFailure("The session could not start.") }
        StandardStreams.err("Streaming \(camera.localizedName)\(microphoneName.map { " and \($0)" } ?? "") to \(url); Ctrl-C stops.\n")
        output.startStreaming(to: destination, delegate: progress)
        let start = Date()
        var lastLine = Date()
        while !progress.isFinished {
            RunLoop.main.run(until: Date().addingTimeInterval(0.25))
            if let seconds, Date().timeIntervalSince(start) >= seconds { output.stopStreaming() }
            if Date().timeIntervalSince(lastLine) >= 1 {
                lastLine = Date()
                print(
                    String(
                        format: "%7.1fs  %@  %d frames sent, %d dropped, %.2f MB, %d reconnections", Date().timeIntervalSince(start), progress.state,
                        output.framesSent, output.framesDropped, Double(output.bytesSent) / 1_000_000, output.reconnectionCount))
            }
        }
        session.stopRunning()
        if let error = progress.error { throw CommandFailure("Streaming failed: \(error.localizedDescription)") }
        print(
            String(
                format: "Streamed %d frames (%.2f MB) to %@; %d dropped, %d reconnections.", output.framesSent,
                Double(output.bytesSent) / 1_000_000, url, output.framesDropped, output.reconnectionCount))
    }
}

extension Stream {
    /// Adds the microphone asked for (or the default one) to `session`, unless --no-audio; the microphone added, if any.
    func addMicrophone(to session: AVCaptureSession) throws -> AVCaptureDevice? {
        guard !noAudio else { return nil }
        let microphone =
            try audio.map { id in
                guard let device = AVCaptureDevice(uniqueID: id), device.hasMediaType(.audio) else {
                    throw CommandFailure("No microphone \(id) found; see `avcapture devices`.")
                }
                return device
            } ?? AVCaptureDevice.default(for: .audio)
        guard let microphone else { return nil }
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        return microphone
    }

    /// Captures into an HTTP Live Streaming folder until Ctrl-C or --seconds.
    func runHLS(folder path: String) throws {
        let folder = try HLSFolder(folder: path)
        let session = AVCaptureSession()
        session.beginConfiguration()
        let camera = try CameraChoice.addCamera(video, preset: nil, format: format, to: session, preferring: FormatChoice.encoderPixelFormats)
        let microphone = try addMicrophone(to: session)
        let dimensions = camera.activeFormat.formatDescription.dimensions
        let frameDuration = camera.activeVideoMinFrameDuration
        let frameRate = frameDuration.isNumeric && frameDuration.seconds > 0 ? 1 / frameDuration.seconds : 30
        let microphoneInput = session.inputs.compactMap { $0 as? AVCaptureDeviceInput }.first { $0.device === microphone }
        let sound = microphoneInput?.ports.first?.formatDescription?.audioStreamBasicDescription.map {
            (sampleRate: $0.mSampleRate, channels: Int($0.mChannelsPerFrame))
        }
        let capture = HLSCapture(
            folder: folder, width: Int(dimensions.width), height: Int(dimensions.height), frameRate: frameRate, bitRate: bitrate, audioFormat: sound,
            segmentSeconds: segmentSeconds)
        let queue = DispatchQueue(label: "avcapture stream --hls")
        let videoOutput = AVCaptureVideoDataOutput()
        videoOutput.alwaysDiscardsLateVideoFrames = true
        videoOutput.setSampleBufferDelegate(capture, queue: queue)
        guard session.canAddOutput(videoOutput) else { throw CommandFailure("The camera's frames cannot be taken.") }
        session.addOutput(videoOutput)
        if microphone != nil {
            let audioOutput = AVCaptureAudioDataOutput()
            audioOutput.setSampleBufferDelegate(capture, queue: queue)
            if session.canAddOutput(audioOutput) { session.addOutput(audioOutput) }
        }
        session.commitConfiguration()

        let signalled = LockedValue(false)
        let stopSignals = StopSignals.handle(on: .main) { signalled.withLock { $0 = true } }
        defer { withExtendedLifetime(stopSignals) {} }
        session.startRunning()
        guard session.isRunning else { throw CommandFailure("The session could not start.") }
        StandardStreams.err(
            "Writing HLS from \(camera.localizedName)\(microphone.map { " and \($0.localizedName)" } ?? "") into \(folder.folder.path); Ctrl-C stops.\n")
        let start = Date()
        var lastLine = Date()
        while !signalled.withLock({ $0 }), folder.failure == nil {
            RunLoop.main.run(until: Date().addingTimeInterval(0.25))
            if let seconds, Date().timeIntervalSince(start) >= seconds { break }
            if Date().timeIntervalSince(lastLine) >= 1 {
                lastLine = Date()
                let counts = capture.counts
                print(
                    String(
                        format: "%7.1fs  %d frames, %d dropped, %d segments", Date().timeIntervalSince(start), counts.frames, counts.dropped,
                        folder.segmentCount))
            }
        }
        capture.stop()
        session.stopRunning()
        if capture.writer.status == .writing {
            let finished = DispatchSemaphore(value: 0)
            capture.writer.finishWriting { finished.signal() }
            finished.wait()
        }
        folder.finish()
        if let failure = folder.failure { throw CommandFailure(failure) }
        if let error = capture.writer.error { throw CommandFailure("Writing HLS failed: \(error.localizedDescription)") }
        let counts = capture.counts
        print(
            "Wrote \(folder.segmentCount) segments (\(counts.frames) frames, \(counts.dropped) dropped) and \(folder.folder.appendingPathComponent(HLSFolder.playlistName).path)."
        )
    }
}

/// Follows a live stream's delegate callbacks.
final class StreamProgress: LiveStreamOutputDelegate, @unchecked Sendable {
    private let progress = LockedValue<(finished: Bool, failure: Error?, current: String)>((false, nil, "connecting"))

    var isFinished: Bool { progress.withLock { $0.finished } }
    var error: Error? { progress.withLock { $0.failure } }
    var state: String { progress.withLock { $0.current } }

    func liveStreamOutput(_ output: LiveStreamOutput, didStartStreamingTo url: URL, from connections: [AVCaptureConnection]) {
        progress.withLock { $0.current = "streaming" }
    }

    func liveStreamOutput(_ output: LiveStreamOutput, didLoseConnectionTo url: URL, error: Error) {
        progress.withLock { $0.current = "reconnecting" }
        StandardStreams.err("avcapture stream: \(error.localizedDescription); trying again.\n")
    }

    func liveStreamOutput(_ output: LiveStreamOutput, didReconnectTo url: URL) {
        progress.withLock { $0.current = "streaming" }
    }

    func liveStreamOutput(_ output: LiveStreamOutput, didFinishStreamingTo url: URL, from connections: [AVCaptureConnection], error: Error?) {
        progress.withLock {
            $0.finished = true; $0.failure = error
        }
    }
}
