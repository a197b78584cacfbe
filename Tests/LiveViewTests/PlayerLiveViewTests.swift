import AVFoundation
import Foundation
@testable import LiveView
import XCTest

/// A player's live view: its page, the player layer's pictures over the socket, and controls that
/// go through AVPlayer (play, pause, exact seeks, the rate play starts at, the time-pitch
/// algorithm, volume, muting) and the layer (gravity), each request checked.
final class PlayerLiveViewTests: LiveViewTestCase {
    private var player: AVPlayer!
    private var playerLayer: AVPlayerLayer!

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is needed: apt-get install ffmpeg")
        unsetenv("PULSE_SERVER")
    }

    override func tearDown() {
        player?.pause()
        super.tearDown()
    }

    /// Serves a player of a 4-second 320x240 movie with a tone, in a 640x640 layer, on a free loopback port.
    private func startPlayerServer(_ name: String = #function) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("player-live-view-\(getpid())-\(name.prefix(40))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let movie = folder.appendingPathComponent("movie.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=4", "-f", "lavfi", "-i", "sine=frequency=1000:duration=4",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", movie.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try XCTSkipUnless(ffmpeg.terminationStatus == 0, "ffmpeg could not make the movie")
        let item = AVPlayerItem(url: movie)
        player = AVPlayer(playerItem: item)
        playerLayer = AVPlayerLayer(player: player)
        playerLayer.frame = CGRect(x: 0, y: 0, width: 640, height: 640)
        let server = LiveViewServer(player: player, playerLayer: playerLayer, title: "movie.mp4", configuration: LiveViewConfiguration(port: 0))
        self.server = server
        serverTask = Task { try await server.run() }
        let deadline = Date().addingTimeInterval(10)
        while (server.port == nil || item.status == .unknown), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        port = try XCTUnwrap(server.port, "the server listens")
        XCTAssertEqual(item.status, .readyToPlay)
    }

    func testThePagePlaysThePlayerLayersPicturesAsTheyFallDue() async throws {
        try startPlayerServer()
        let page = try await request("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("<title>avcapture player</title>") && page.body.contains(#"id="position""#), "the player's page")
        XCTAssertFalse(page.body.contains(#"id="torch""#), "no camera controls")
        player.play()
        let received = try await watch(frames: 30)
        XCTAssertEqual(received.frames.count, 30, "a second of pictures")
        let headers = received.frames.compactMap(FrameMessage.header(of:))
        XCTAssertEqual(headers.count, 30)
        XCTAssertTrue(
            headers.allSatisfy { $0.width == 640 && $0.height == 480 }, "aspect fit of 4:3 in the square layer: \(headers.map { [$0.width, $0.height] })")
        XCTAssertEqual(headers.map(\.number), headers.map(\.number).sorted(), "in order")
        // The time each picture fell due, on the wall clock, just before it arrived.
        for (header, arrived) in zip(headers, received.receivedAt) {
            XCTAssertLessThan(arrived - header.captureMilliseconds, 150, "due to received, ms")
            XCTAssertGreaterThan(arrived - header.captureMilliseconds, -5)
        }
        let state = try object(received.states.first ?? "{}")
        XCTAssertEqual(state["title"] as? String, "movie.mp4")
        XCTAssertEqual(state["duration"] as? Double ?? 0, 4, accuracy: 0.05)
        XCTAssertEqual(state["status"] as? String, "ready")
    }

    func testControlsGoThroughThePlayerAndRefuseWhatTheyCannotTake() async throws {
        try startPlayerServer()
        var answer = try await request("/api/play", method: "POST", body: "{}")
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(player.rate, 1)
        answer = try await request("/api/pause", method: "POST")
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(player.rate, 0)
        answer = try await request("/api/seek", method: "POST", body: #"{"time": 1.5}"#)
        XCTAssertEqual(try object(answer.body)["finished"] as? Bool, true, answer.body)
        XCTAssertEqual(player.currentTime().seconds, 1.5, accuracy: 1e-9, "an exact seek")
        answer = try await request("/api/rate", method: "POST", body: #"{"rate": 2}"#)
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(player.defaultRate, 2)
        XCTAssertEqual(player.rate, 0, "paused stays paused")
        _ = try await request("/api/play", method: "POST")
        XCTAssertEqual(player.rate, 2, "play starts at the rate chosen")
        _ = try await request("/api/rate", method: "POST", body: #"{"rate": -1}"#)
        XCTAssertEqual(player.rate, -1, "a playing player takes the rate at once; backwards too")
        _ = try await request("/api/pitch", method: "POST", body: #"{"algorithm": "varispeed"}"#)
        XCTAssertEqual(player.currentItem?.audioTimePitchAlgorithm, .varispeed)
        _ = try await request("/api/volume", method: "POST", body: #"{"volume": 0.25}"#)
        XCTAssertEqual(player.volume, 0.25)
        _ = try await request("/api/mute", method: "POST", body: #"{"muted": true}"#)
        XCTAssertTrue(player.isMuted)
        _ = try await request("/api/gravity", method: "POST", body: #"{"gravity": "resizeAspectFill"}"#)
        XCTAssertEqual(playerLayer.videoGravity, .resizeAspectFill)
        let state = try object(try await request("/api/state").body)
        XCTAssertEqual(state["rate"] as? Double, -1)
        XCTAssertEqual(state["pitch"] as? String, "varispeed")
        XCTAssertEqual(state["muted"] as? Bool, true)
        XCTAssertEqual(state["gravity"] as? String, "resizeAspectFill")
        player.pause()

        let cases: [(path: String, body: String, status: Int, reason: String)] = [
            ("/api/seek", #"{"time": 9}"#, 422, "between 0.0 and 4."),
            ("/api/seek", #"{"time": "start"}"#, 400, "'time' must be a number"),
            ("/api/rate", #"{"rate": 0}"#, 422, "must not be 0"),
            ("/api/rate", #"{"rate": 100}"#, 422, "between -32.0 and 32.0"),
            ("/api/pitch", #"{"algorithm": "fast"}"#, 422, "one of lowQualityZeroLatency, spectral, timeDomain, varispeed"),
            ("/api/volume", #"{"volume": "loud"}"#, 400, "must be a number"),
            ("/api/mute", #"{"muted": 1}"#, 400, "true or false"),
            ("/api/play", #"{"now": true}"#, 400, "accepts: none"),
            ("/api/focus", #"{"x": 1, "y": 1}"#, 404, "no control 'focus'"),
        ]
        for refused in cases {
            let answer = try await request(refused.path, method: "POST", body: refused.body)
            XCTAssertEqual(answer.status, refused.status, "\(refused.path) \(refused.body): \(answer.body)")
            let reason = try object(answer.body)["error"] as? String ?? ""
            XCTAssertTrue(reason.contains(refused.reason), "\(refused.path) \(refused.body): \(reason)")
        }
        XCTAssertEqual(player.rate, 0, "refused requests change nothing")
        XCTAssertEqual(player.volume, 0.25)
        XCTAssertEqual(player.defaultRate, -1)
    }
}
