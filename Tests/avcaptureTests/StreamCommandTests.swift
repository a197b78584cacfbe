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
        XCTAssertTrue(waitUntil(timeout: 10) { isListening(onLoopbackPort: port) }, "ffmpeg's RTSP listener is up")
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

    /// Real time: the virtual camera runs for 8 s; the playlist is waited for with 30 s of margin.
    func testHLSFillsAFolderAPlayerReadsWhileItGrows() throws {
        let folder = AVCaptureTool.folder("hls").appendingPathComponent("live")
        let playlist = folder.appendingPathComponent("index.m3u8")
        let executable = try XCTUnwrap(AVCaptureTool.executable)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["stream", "--hls", folder.path, "--seconds", "8", "--segment-seconds", "1", "--format", "640x480@30"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LINUXAVFOUNDATION_DEVICES": "virtual"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The playlist appears once its segments last three target durations, where players start a live playlist.
        XCTAssertTrue(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: playlist.path) })
        let first = try String(contentsOf: playlist, encoding: .utf8)
        let target = Double(first.split(separator: "\n").first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }?.split(separator: ":").last ?? "") ?? 0
        let listed = first.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).dropLast()) }.reduce(0, +)
        XCTAssertEqual(target, 1, "1 s segments have a target duration of 1 (the nearest second): \(first)")
        XCTAssertGreaterThanOrEqual(listed, 3 * target - 0.05, "first published with three target durations: \(first)")
        // While it grows: a playlist of whole segments, not yet ended, that ffprobe plays.
        XCTAssertTrue(waitUntil(timeout: 30) { ((try? String(contentsOf: playlist, encoding: .utf8)) ?? "").components(separatedBy: "#EXTINF").count > 3 })
        let growing = try String(contentsOf: playlist, encoding: .utf8)
        XCTAssertTrue(process.isRunning, "the playlist is read while it grows")
        XCTAssertFalse(growing.contains("#EXT-X-ENDLIST"))
        XCTAssertTrue(growing.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        // ffprobe lists an HLS playlist's streams twice, under its program and on their own: the first line is enough.
        func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }
        let early = Int(firstLine(MediaProbe.entries(playlist, "stream=nb_read_frames", stream: "v:0", countFrames: true))) ?? 0
        XCTAssertGreaterThan(early, 30, "the segments listed so far play")
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, summary)

        let ended = try String(contentsOf: playlist, encoding: .utf8)
        XCTAssertTrue(ended.hasSuffix("#EXT-X-ENDLIST\n"))
        let durations = ended.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).dropLast()) }
        XCTAssertGreaterThanOrEqual(durations.count, 7)
        for duration in durations.dropLast() { XCTAssertEqual(duration, 1, accuracy: 0.1, "segments of the length asked: \(durations)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertFalse(names.contains { $0.hasPrefix(".") }, "no partial files are left: \(names)")
        XCTAssertEqual(names.filter { $0.hasSuffix(".m4s") }.count, durations.count)
        let frames = Int(firstLine(MediaProbe.entries(playlist, "stream=nb_read_frames", stream: "v:0", countFrames: true))) ?? 0
        let written = Int(summary.split(separator: "\n").last?.split(separator: "(").last?.split(separator: " ").first ?? "") ?? -1
        XCTAssertEqual(frames, written, summary)
        XCTAssertEqual(firstLine(MediaProbe.entries(playlist, "stream=codec_name", stream: "a:0")), "aac")

        let again = try AVCaptureTool.run(["stream", "--hls", folder.path, "--seconds", "1"])
        XCTAssertNotEqual(again.status, 0, "a folder that holds a playlist is not written over")
        XCTAssertTrue(again.standardError.contains("already holds index.m3u8"), again.standardError)
        let both = try AVCaptureTool.run(["stream", "rtmp://127.0.0.1/live/x", "--hls", folder.path])
        XCTAssertTrue(both.standardError.contains("not both"), both.standardError)
        let short = try AVCaptureTool.run(["stream", "--hls", folder.path, "--segment-seconds", "nan"])
        XCTAssertTrue(short.standardError.contains("--segment-seconds must be from 0.5 to 60"), short.standardError)
    }

    /// Real time: Debian's Chromium plays `stream --hls`'s folder natively, served over loopback, while
    /// it grows (Tests/Browser/hls_page.py): the picture's size, playing, and time moving on.
    func testChromiumPlaysTheHLSFolderWhileItGrows() throws {
        let results = try AVCaptureTool.browserResults(script: "hls_page.py", seconds: 3)
        XCTAssertEqual(results["streamRunningAtStart"] as? Bool, true, "\(results)")
        XCTAssertEqual(results["streamRunningWhilePlaying"] as? Bool, true, "\(results)")
        let early = try XCTUnwrap(results["early"] as? [String: Any]), later = try XCTUnwrap(results["later"] as? [String: Any])
        XCTAssertEqual(later["width"] as? Int, 640)
        XCTAssertEqual(later["height"] as? Int, 480)
        // A media error says why (its message, the element's ranges) and what the folder held then (folderAtError).
        // Chromium's HLS engine may quit once on its own live-playback decision (DEMUXER_ERROR_COULD_NOT_PARSE, no
        // detail) and the page reloads, as players do; content Chromium's MP4 parser rejects fails at once.
        let errors = (results["mediaErrors"] as? [[String: Any]]) ?? []
        XCTAssertLessThanOrEqual(errors.count, 1, "\(results)")
        for error in errors {
            XCTAssertEqual(error["message"] as? String, "PipelineStatus::DEMUXER_ERROR_COULD_NOT_PARSE", "\(results)")
        }
        XCTAssertTrue(later["error"] is NSNull, "\(results)")
        XCTAssertEqual(later["paused"] as? Bool, false)
        let start = (early["currentTime"] as? Double) ?? 0, end = (later["currentTime"] as? Double) ?? 0
        XCTAssertGreaterThan(end - start, 1.5, "the video plays on while the stream grows: \(start) to \(end)")
        XCTAssertEqual(results["streamStatus"] as? Int, 0)
        XCTAssertEqual(results["ended"] as? Bool, true)
    }
}
