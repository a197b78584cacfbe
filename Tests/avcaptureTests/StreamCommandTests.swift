import XCTest
import Foundation
import TestSupport

/// `avcapture stream`, as ffmpeg users publish to a server.
final class StreamCommandTests: XCTestCase {

    func testStreamPublishesToAnRTSPServerForTheSecondsAsked() throws {
        let folder = AVCaptureTool.folder("stream")
        let received = folder.appendingPathComponent("received.ts")
        let port = freeLoopbackPort()
        // ffmpeg listening for one RTSP publisher, copying what it receives.
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        listener.arguments = [
            "-nostdin", "-v", "error", "-rtsp_flags", "listen", "-i", "rtsp://127.0.0.1:\(port)/live", "-c", "copy", "-f", "mpegts", received.path,
        ]
        listener.standardOutput = FileHandle.nullDevice
        listener.standardError = FileHandle.nullDevice
        try listener.run()
        defer { if listener.isRunning { listener.terminate() } }
        Thread.sleep(forTimeInterval: 0.5)
        let result = try AVCaptureTool.run(["stream", "rtsp://127.0.0.1:\(port)/live", "--seconds", "2", "--format", "640x480@30"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardError.contains("Streaming Virtual"), result.standardError)
        XCTAssertTrue(result.standardOutput.contains("streaming"), result.standardOutput)
        let summary = try XCTUnwrap(result.standardOutput.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(summary.hasPrefix("Streamed "), summary)
        let frames = Int(summary.split(separator: " ")[1]) ?? 0
        XCTAssertGreaterThan(frames, 40, summary)
        let deadline = Date().addingTimeInterval(10)
        while listener.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let codecs = MediaProbe.entries(received, "stream=codec_name")
        XCTAssertEqual(Set(codecs.split(separator: "\n").map { $0.trimmingCharacters(in: .punctuationCharacters) }), ["h264", "aac"], codecs)
    }

    func testWhatItCannotDoIsRefusedInOneLine() throws {
        let scheme = try AVCaptureTool.run(["stream", "http://127.0.0.1/live"])
        XCTAssertNotEqual(scheme.status, 0)
        XCTAssertTrue(scheme.standardError.contains("is not an rtmp://, rtmps://, srt://, rtsp:// or udp:// URL"), scheme.standardError)
        let rate = try AVCaptureTool.run(["stream", "rtmp://127.0.0.1/live/x", "--bitrate", "64"])
        XCTAssertNotEqual(rate.status, 0)
        XCTAssertTrue(rate.standardError.contains("--bitrate is in bits per second"), rate.standardError)
        // Nothing listens there, and it is told not to try again.
        let nobody = try AVCaptureTool.run(["stream", "rtmp://127.0.0.1:\(freeLoopbackPort())/live/x", "--no-reconnect", "--seconds", "10"])
        XCTAssertNotEqual(nobody.status, 0)
        XCTAssertTrue(nobody.standardError.contains("could not reach its server"), nobody.standardError)
        XCTAssertLessThan(nobody.seconds, 9, "it ends when the server cannot be reached, not at --seconds")
    }
}
