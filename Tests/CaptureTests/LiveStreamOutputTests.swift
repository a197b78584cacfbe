import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// LiveStreamOutput against real servers from Debian on loopback: RTMP (nginx's RTMP
/// module), SRT (srt-live-transmit) and RTSP (ffmpeg listening), what they receive read back with
/// ffprobe; a server that dies mid-stream and comes back; a server that is not there.
final class LiveStreamOutputTests: CaptureTestCase {
    /// Records the delegate's calls.
    final class Events: LiveStreamOutputDelegate, @unchecked Sendable {
        let lock = NSLock()
        private(set) var names: [String] = []
        private(set) var finishError: Error?
        private(set) var lossError: Error?
        func add(_ name: String) { lock.withLock { names.append(name) } }
        func has(_ name: String) -> Bool { lock.withLock { names.contains(name) } }
        func liveStreamOutput(_ output: LiveStreamOutput, didStartStreamingTo url: URL, from connections: [AVCaptureConnection]) {
            XCTAssertEqual(Set(connections.map(\.mediaType)), [.video, .audio])
            add("start")
        }
        func liveStreamOutput(_ output: LiveStreamOutput, didLoseConnectionTo url: URL, error: Error) {
            lock.withLock { lossError = error }
            add("lost")
        }
        func liveStreamOutput(_ output: LiveStreamOutput, didReconnectTo url: URL) { add("reconnect") }
        func liveStreamOutput(_ output: LiveStreamOutput, didFinishStreamingTo url: URL, from connections: [AVCaptureConnection], error: Error?) {
            lock.withLock { finishError = error }
            add("finish")
        }
    }

    /// A running session from the virtual back camera (640x480) and microphone to a live stream
    /// output; on the manual clock when `manualClock` is true, where time waits for the stream.
    private func streamingSession(collector: FrameCollector? = nil, manualClock: Bool = false) throws -> LiveStreamOutput {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        if let collector {
            let video = AVCaptureVideoDataOutput()
            video.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutput(video)
        }
        let output = LiveStreamOutput()
        XCTAssertTrue(session.canAddOutput(output))
        session.addOutput(output)
        if manualClock {
            useManualClock()
            outputsCaughtUp = { output.samplesWaitingToBeSent == 0 }
        }
        session.startRunning()
        return output
    }

    /// Streams `seconds` of the manual clock's time to `url`, stops, and returns the delegate's
    /// events once the stream has finished.
    private func stream(to url: URL, for seconds: TimeInterval) throws -> Events {
        let output = try streamingSession(manualClock: true)
        let events = Events()
        output.startStreaming(to: url, delegate: events)
        XCTAssertTrue(advanceUntil { events.has("start") }, "the first frames reach \(url)")
        XCTAssertTrue(output.isStreaming)
        XCTAssertEqual(output.streamURL, url)
        pass(seconds)
        output.stopStreaming()
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("finish") })
        XCTAssertNil(events.finishError, "stopped by the client")
        XCTAssertFalse(output.isStreaming)
        XCTAssertGreaterThan(output.framesSent, Int(seconds * 20))
        XCTAssertGreaterThan(output.bytesSent, 10_000)
        return events
    }

    /// What a server received: H.264 at 640x480 and AAC, lasting about `seconds`, with more than
    /// `frames` frames (by default two thirds of the camera's 30 a second).
    private func checkReceived(_ file: URL?, lasting seconds: Double, frames: Int? = nil, _ what: String) throws {
        let file = try XCTUnwrap(file, "\(what) received nothing")
        let probe = try XCTUnwrap(MediaProbe.probe(file), "ffprobe reads what \(what) received")
        XCTAssertEqual(probe.video?.codec, "h264", what)
        XCTAssertEqual(probe.video?.width, 640, what)
        XCTAssertEqual(probe.video?.height, 480, what)
        XCTAssertEqual(probe.audio?.codec, "aac", what)
        XCTAssertGreaterThan(probe.video?.frames ?? 0, frames ?? Int(seconds * 20), what)
        XCTAssertEqual(probe.duration, seconds, accuracy: 1.5, what)
    }

    func testRTMPCarriesH264AndAACToTheServer() throws {
        let server = try StreamingServer.rtmp(self)
        _ = try stream(to: URL(string: "rtmp://127.0.0.1:\(server.port)/live/camera")!, for: 3)
        server.finish()
        XCTAssertEqual(server.receivedFiles.count, 1)
        try checkReceived(server.receivedFiles.first, lasting: 3, "nginx's RTMP module")
    }

    func testSRTCarriesMPEGTSToAListener() throws {
        let server = try StreamingServer.srt(self)
        _ = try stream(to: URL(string: "srt://127.0.0.1:\(server.port)")!, for: 3)
        server.finish()
        try checkReceived(server.receivedFiles.first, lasting: 3, "srt-live-transmit")
    }

    func testRTSPPublishesToAServerThatRecords() throws {
        let server = try StreamingServer.rtsp(self)
        _ = try stream(to: URL(string: "rtsp://127.0.0.1:\(server.port)/live")!, for: 3)
        // ffmpeg ends when the publisher tears the session down.
        XCTAssertTrue(waitUntil(timeout: 10) { !(server.receivedFiles.isEmpty) })
        server.finish()
        try checkReceived(server.receivedFiles.first, lasting: 3, "ffmpeg's RTSP listener")
    }

    func testAServerThatDiesAndReturnsGetsTheStreamBackWithoutRestartingTheSession() throws {
        let server = try StreamingServer.rtmp(self)
        let output = try streamingSession()
        let events = Events()
        output.startStreaming(to: URL(string: "rtmp://127.0.0.1:\(server.port)/live/camera")!, delegate: events)
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("start") })
        spin(1.5)
        let residentBefore = residentMegabytes()
        server.stop()
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("lost") }, "the delegate hears the server went")
        XCTAssertTrue(events.lossError is AVError)
        spin(3)
        let dropped = output.framesDropped
        XCTAssertGreaterThan(dropped, 30, "frames while the server is away are dropped, not kept")
        XCTAssertLessThan(residentMegabytes() - residentBefore, 40, "nothing piles up while the server is away")
        XCTAssertTrue(output.isStreaming, "the stream lives on while it tries again")
        try server.start()
        XCTAssertTrue(waitUntil(timeout: 15) { events.has("reconnect") }, "the stream comes back on its own")
        XCTAssertEqual(output.reconnectionCount, 1)
        XCTAssertTrue(sessions[0].isRunning, "the session never stopped")
        spin(2)
        output.stopStreaming()
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("finish") })
        XCTAssertNil(events.finishError)
        server.finish()
        XCTAssertEqual(server.receivedFiles.count, 2, "one recording before the server died and one after")
        try checkReceived(server.receivedFiles.last, lasting: 2, "nginx after it returned")
    }

    func testAServerThatAnswersLateGetsFramesFromWhenItAnsweredWithoutAGap() throws {
        let server = try StreamingServer.rtmp(self)
        server.freeze()
        let output = try streamingSession()
        output.connectionTimeout = 15
        let events = Events()
        output.startStreaming(to: URL(string: "rtmp://127.0.0.1:\(server.port)/live/camera")!, delegate: events)
        spin(4)
        XCTAssertFalse(events.has("start"), "a frozen server has not answered")
        server.thaw()
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("start") })
        spin(2)
        output.stopStreaming()
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("finish") })
        XCTAssertNil(events.finishError)
        server.finish()
        // Had the frame that opened the connection been sent, the recording would begin four seconds
        // before the frames after it. Its subject is when the recording begins, not how many frames
        // a busy machine encodes in the 2 s (the encoder has just opened: 23 under ThreadSanitizer).
        try checkReceived(server.receivedFiles.first, lasting: 2, frames: 10, "nginx, answering four seconds late")
    }

    func testWithoutReconnectingAServerThatIsNotThereEndsTheStreamWithAnAVError() throws {
        let output = try streamingSession()
        output.reconnectsAutomatically = false
        output.connectionTimeout = 2
        let events = Events()
        output.startStreaming(to: URL(string: "rtmp://127.0.0.1:\(freeLoopbackPort())/live/nobody")!, delegate: events)
        XCTAssertTrue(waitUntil(timeout: 10) { events.has("finish") })
        let error = try XCTUnwrap(events.finishError as? AVError)
        XCTAssertEqual(error.code, .serverIncorrectlyConfigured)
        XCTAssertTrue(error.localizedDescription.contains("could not reach"), error.localizedDescription)
        XCTAssertFalse(events.has("start"))
        XCTAssertFalse(output.isStreaming)
    }

    func testAServerThatNeverAnswersNeitherSlowsTheCameraNorGrowsMemory() throws {
        // A port that listens and never reads: the RTMP handshake waits until the connection timeout, again and again.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        XCTAssertEqual(withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }, 0)
        XCTAssertEqual(listen(listener, 4), 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let collector = FrameCollector()
        let output = try streamingSession(collector: collector)
        output.connectionTimeout = 1
        let events = Events()
        let residentBefore = residentMegabytes()
        output.startStreaming(to: URL(string: "rtmp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/live/stalled")!, delegate: events)
        spin(1)
        collector.reset()
        spin(3)
        let frames = collector.frames.count
        XCTAssertGreaterThanOrEqual(frames, 81, "the video data output beside it keeps 30 fps: \(frames) frames in 3 s")
        XCTAssertTrue(events.has("lost"), "a server that never answers counts as lost")
        XCTAssertFalse(events.has("start"))
        XCTAssertEqual(output.framesSent, 0)
        XCTAssertGreaterThanOrEqual(output.framesDropped, 90, "its frames are dropped, not kept")
        XCTAssertLessThan(residentMegabytes() - residentBefore, 40, "nothing piles up")
        output.stopStreaming()
        XCTAssertTrue(waitUntil(timeout: 5) { events.has("finish") }, "stopping does not wait for the server")
    }

    func testAURLOfAnotherKindIsRefusedAtOnce() throws {
        let output = try streamingSession()
        let events = Events()
        output.startStreaming(to: URL(string: "http://127.0.0.1/live")!, delegate: events)
        XCTAssertTrue(waitUntil(timeout: 2) { events.has("finish") })
        XCTAssertEqual((events.finishError as? AVError)?.code, .invalidOutputURLPathExtension)
        XCTAssertFalse(output.isStreaming)
    }

    private func residentMegabytes() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
}
