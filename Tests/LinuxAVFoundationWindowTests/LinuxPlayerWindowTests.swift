import AVFoundation
import Foundation
@testable import LinuxAVFoundationWindow
import TestSupport
import XCTest

/// The player window's controls, driven as a user drives them (xdotool's clicks and keys on an Xvfb
/// display) and read back from the screen and the player.
final class LinuxPlayerWindowTests: WindowTestCase {
    private func near(_ seen: [Int], _ wanted: [Int], within: Int = 14) -> Bool { zip(seen, wanted).allSatisfy { abs($0 - $1) <= within } }

    private func xdotool(_ arguments: [String]) { XCTAssertTrue(display.pointer(arguments), "xdotool \(arguments)") }

    func testTheControlsPlaySeekSetTheVolumeAndHideWhilePlaying() throws {
        let movie = folder.appendingPathComponent("colour.mp4")
        XCTAssertNotNil(
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=c=0xC03020:size=320x240:rate=30:duration=60", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-y",
                    movie.path,
                ]))
        let player = AVPlayer(url: movie)
        let closed = expectation(description: "the window is closed by q")
        let controller = try LinuxPlayerWindow(player: player, title: "controls-test", width: 320, height: 240, x: 0, y: 0)
        controller.setCloseHandler { closed.fulfill() }
        XCTAssertTrue(waitUntil(timeout: 20) { controller.window.statistics.shown > 0 }, "the paused movie's first picture is drawn")
        let picture = [0xC0, 0x30, 0x20]
        // Paused: the bar is over the bottom 44 rows, darkened, with the play triangle at its left.
        XCTAssertTrue(controller.controlsAreShown)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.pixel(150, 205)).map { self.near($0, [0x4D, 0x13, 0x0D]) } ?? false }, "the bar darkens the picture")
        XCTAssertTrue(near(try pixel(160, 100), picture), "the picture above the bar")
        XCTAssertTrue(near(try pixel(18, 218), [255, 255, 255], within: 30), "the play triangle")

        let identifier = try XCTUnwrap(
            runTool("/usr/bin/xdotool", ["search", "--name", "^controls-test"]).flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").first }
                .map(String.init))
        // The seek track runs from x 48 to 176 at this size: half way is 30 s of 60 (a movie long
        // enough not to end while the test waits on a busy machine).
        xdotool(["mousemove", "--window", identifier, "112", "218", "click", "1"])
        XCTAssertTrue(waitUntil(timeout: 10) { abs(player.currentTime().seconds - 30) < 0.1 }, "seeked to \(player.currentTime().seconds)")
        XCTAssertTrue(
            waitUntil(timeout: 10) { (try? self.pixel(100, 218)).map { self.near($0, [255, 255, 255], within: 30) } ?? false }, "the track filled to the time")
        var lastName = ""
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                let name = runTool("/usr/bin/env", ["DISPLAY=\(self.display.name)", "xdotool", "getwindowname", identifier]).map {
                    String(decoding: $0, as: UTF8.self)
                }
                lastName = name ?? ""
                return name?.contains("0:30 / 1:00") == true
            }, "the time in the title: \(lastName)")
        // The volume track runs from x 192 to 272: a quarter of the way is 0.25.
        xdotool(["mousemove", "--window", identifier, "212", "218", "click", "1"])
        XCTAssertTrue(waitUntil(timeout: 10) { abs(player.volume - 0.25) < 0.02 }, "volume \(player.volume)")

        // Space plays; the controls go away three seconds after the last key.
        xdotool(["key", "--window", identifier, "space"])
        XCTAssertTrue(waitUntil(timeout: 10) { player.rate == 1 })
        XCTAssertTrue(waitUntil(timeout: 15) { (try? self.pixel(150, 205)).map { self.near($0, picture) } ?? false }, "the controls hide while playing")
        XCTAssertFalse(controller.controlsAreShown)
        // The play button pauses.
        xdotool(["mousemove", "--window", identifier, "20", "218", "click", "1"])  // shows the controls
        xdotool(["mousemove", "--window", identifier, "20", "218", "click", "1"])  // presses the button
        XCTAssertTrue(waitUntil(timeout: 10) { player.rate == 0 }, "paused by the button")
        // (xdotool's key release then finds no window: its status is not the test's.)
        _ = display.pointer(["key", "--window", identifier, "q"])
        wait(for: [closed], timeout: 10)
        XCTAssertFalse(controller.window.isOpen)
    }

    func testTimesAreWrittenAsAPlayerShowsThem() {
        XCTAssertEqual(LinuxPlayerWindow.clock(0), "0:00")
        XCTAssertEqual(LinuxPlayerWindow.clock(65.9), "1:05")
        XCTAssertEqual(LinuxPlayerWindow.clock(3_725), "1:02:05")
        XCTAssertEqual(LinuxPlayerWindow.clock(.nan), "--:--")
    }
}
