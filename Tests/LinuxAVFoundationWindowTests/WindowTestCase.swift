import AVFoundation
import Foundation
import LinuxAVFoundationWindow
import TestSupport
import XCTest

/// A test with an X server of its own (Xvfb, 640 x 480) named by `DISPLAY` while it runs, and a
/// scratch folder; skipped where ffmpeg or xdotool is missing (failed in CI, where they must be).
class WindowTestCase: XCTestCase {
    /// The test's X server.
    var display: VirtualDisplay!
    /// A folder of the test's own, removed afterwards.
    var folder: URL!
    private var savedDisplay: String?

    override func setUpWithError() throws {
        try XCTSkipUnless(isInstalled("/usr/bin/ffmpeg") && isInstalled("/usr/bin/xdotool"), "ffmpeg and xdotool are needed")
        do { display = try VirtualDisplay(width: 640, height: 480) } catch {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw error }
            throw XCTSkip("\(error)")
        }
        savedDisplay = ProcessInfo.processInfo.environment["DISPLAY"]
        setenv("DISPLAY", display.name, 1)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        display?.stop()
        if let savedDisplay { setenv("DISPLAY", savedDisplay, 1) } else { unsetenv("DISPLAY") }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    /// The screen's pixel at (x, y), R, G, B.
    func pixel(_ x: Int, _ y: Int) throws -> [Int] {
        let grabbed = try XCTUnwrap(
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "x11grab", "-video_size", "1x1", "-i", "\(display.name)+\(x),\(y)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt",
                    "rgb24", "-",
                ]))
        XCTAssertEqual(grabbed.count, 3)
        return grabbed.map(Int.init)
    }

    /// A movie of one colour, `width` x `height`, lasting `seconds`, in the test's folder.
    func movie(_ colour: String, width: Int, height: Int, seconds: Int = 20) throws -> URL {
        let url = folder.appendingPathComponent("\(colour)-\(width)x\(height).mp4")
        let made = runTool(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):size=\(width)x\(height):rate=30:duration=\(seconds)", "-c:v", "libx264", "-pix_fmt",
                "yuv420p", "-y", url.path,
            ])
        XCTAssertNotNil(made, "ffmpeg made the movie")
        return url
    }

    /// A player of `url` shown in a window of `width` x `height` at the screen's top left, playing.
    func playInWindow(_ url: URL, width: Int, height: Int, gravity: AVLayerVideoGravity, title: String = "window-test") throws -> (
        LinuxVideoWindow, AVPlayerLayer, AVPlayer
    ) {
        let player = AVPlayer(url: url)
        let layer = AVPlayerLayer(player: player)
        layer.videoGravity = gravity
        let window = try LinuxVideoWindow(title: title, width: width, height: height, x: 0, y: 0)
        window.show(layer)
        XCTAssertTrue(waitUntil(timeout: 10) { player.currentItem?.status == .readyToPlay })
        player.play()
        XCTAssertTrue(waitUntil(timeout: 20) { window.statistics.shown > 0 }, "a picture is drawn")
        return (window, layer, player)
    }
}
