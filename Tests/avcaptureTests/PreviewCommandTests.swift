import Foundation
import TestSupport
import XCTest

/// `avcapture preview`, as users run it: its page in a real headless Chromium, and its options.
final class PreviewCommandTests: XCTestCase {
    /// The page driven by Debian's chromium through chromium-driver (Tests/Browser/live_view_page.py).
    func testThePageShowsMovingVideoAndAClickFocusesWhereItLandsInARealBrowser() throws {
        let results = try AVCaptureTool.browserResults(script: "live_view_page.py", seconds: 4)
        XCTAssertEqual(results["screenshotsDiffer"] as? Bool, true, "the video moves: two screenshots differ")
        // The scene's frame counter read off the canvas every 0.3 s: about 9 frames apart at 30 fps.
        let counters = try XCTUnwrap(results["counters"] as? [Any], "\(results)")
        let read = counters.compactMap { $0 as? Int }
        XCTAssertEqual(read.count, counters.count, "every reading of the frame counter is digits: \(counters)")
        for (earlier, later) in zip(read, read.dropFirst()) {
            XCTAssertTrue((3...25).contains((later - earlier + 100) % 100), "the frame counter advances: \(read)")
        }
        // Live video, not a still or a backlog: bounds a loaded machine meets too (the rate and the
        // latency themselves are measured by `scripts/bench.sh liveview`'s peers, not asserted here).
        XCTAssertGreaterThan(results["fps"] as? Double ?? 0, 5, "frames drawn a second: \(results)")
        XCTAssertLessThan(results["latencyP95"] as? Double ?? .infinity, 2000, "capture to canvas at the 95th percentile, ms: \(results)")
        // Aspect fill of 16:9 in an 800x800 layer: the picture is 1422.2 wide, 311.1 cropped each
        // side; the layer point (200, 400) is the picture's (511.1, 400) of 1422.2x800.
        let focus = try XCTUnwrap(results["focusPoint"] as? [Double], "\(results)")
        XCTAssertEqual(focus[0], 511.1 / 1422.2, accuracy: 0.005, "the device's focus point of interest")
        XCTAssertEqual(focus[1], 0.5, accuracy: 0.005)
        XCTAssertEqual(results["torch"] as? Bool, true, "the torch button turned the torch on")
        XCTAssertEqual(results["badTokenRefused"] as? Bool, true, "a wrong token is refused")
        XCTAssertEqual((results["pageErrors"] as? [Any])?.count, 0, "the page met no errors: \(results)")
    }

    /// Another origin's page and a rebinding name attack the live view on its defaults, in a real
    /// Chromium (Tests/Browser/cross_origin.py): nothing gets through, and the page still works.
    func testAPageOnAnotherOriginGetsNoFrameAndChangesNothing() throws {
        let results = try AVCaptureTool.browserResults(script: "cross_origin.py", seconds: 2)
        XCTAssertEqual(results["foreignSocketsOpened"] as? Int, 0, "no socket opens from another origin: \(results)")
        XCTAssertEqual(results["foreignFrames"] as? Int, 0, "no frame reaches another origin: \(results)")
        XCTAssertTrue(results["tokenStolen"] is NSNull, "another origin cannot read the page's token: \(results)")
        XCTAssertTrue((results["rebindingPage"] as? String ?? "").contains("own address only"), "a rebinding name is refused: \(results)")
        XCTAssertEqual(results["saved"] as? [String], [], "no photo or movie was taken: \(results)")
        XCTAssertEqual(results["torch"] as? Bool, false, "the torch stayed off: \(results)")
        XCTAssertGreaterThanOrEqual(results["ownPageFrames"] as? Int ?? 0, 10, "the page itself still shows frames: \(results)")
        XCTAssertEqual((results["ownPageErrors"] as? [Any])?.count, 0, "\(results)")
    }

    func testWithWindowTheCameraIsShownInAWindowAndAClickFocusesThere() throws {
        let display: VirtualDisplay
        do { display = try VirtualDisplay(width: 800, height: 600) } catch {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw error }
            throw XCTSkip("\(error)")
        }
        defer { display.stop() }
        // A user's click once the window is mapped, half across and three sixteenths down; two seconds
        // on, q. The window's events arrive in order, so the click is handled before q stops it,
        // however long the window takes to appear on a busy machine.
        let clicked = DispatchSemaphore(value: 0)
        let name = display.name
        Thread {
            defer { clicked.signal() }
            for _ in 0..<600 {
                if let found = runTool("/usr/bin/env", ["DISPLAY=\(name)", "xdotool", "search", "--onlyvisible", "--name", "^avcapture preview"]),
                    let window = String(decoding: found, as: UTF8.self).split(separator: "\n").first
                {
                    Thread.sleep(forTimeInterval: 0.3)
                    _ = runTool("/usr/bin/env", ["DISPLAY=\(name)", "xdotool", "mousemove", "--window", String(window), "320", "90", "click", "1"])
                    Thread.sleep(forTimeInterval: 2)
                    _ = runTool("/usr/bin/env", ["DISPLAY=\(name)", "xdotool", "key", "q"])
                    return
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }.start()
        let result = try AVCaptureTool.run(
            ["preview", "--window", "--seconds", "120", "--detect", "none", "--preset", "640x480"],
            environment: ["DISPLAY": display.name, "WAYLAND_DISPLAY": ""])
        clicked.wait()
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("in a window"), result.output)
        // 320, 90 in a 640 x 480 window of the upright back camera: half across, three sixteenths down.
        XCTAssertTrue(result.standardOutput.contains("Focus and exposure at (0.50, 0.19)."), result.output)
        let words = result.standardOutput.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let shown = try XCTUnwrap(words.firstIndex(of: "pictures").flatMap { Int(words[$0 - 1]) }, result.output)
        XCTAssertGreaterThan(shown, 10, "pictures drawn in the window in the two seconds or more it was up: \(result.output)")

        let none = try AVCaptureTool.run(["preview", "--window", "--seconds", "1"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        XCTAssertNotEqual(none.status, 0)
        XCTAssertTrue(none.standardError.contains("There is no display"), none.output)
    }

    func testBadOptionsAreRefusedBeforeAnythingStarts() throws {
        let gravity = try AVCaptureTool.run(["preview", "--gravity", "sideways"])
        XCTAssertNotEqual(gravity.status, 0)
        XCTAssertTrue(gravity.standardError.contains("--gravity is fit, fill or stretch"), gravity.output)
        let folder = try AVCaptureTool.run(["preview", "--save-to", "/no/such/folder"])
        XCTAssertNotEqual(folder.status, 0)
        XCTAssertTrue(folder.standardError.contains("is not a folder"), folder.output)
        let size = try AVCaptureTool.run(["preview", "--size", "huge"])
        XCTAssertNotEqual(size.status, 0)
        XCTAssertTrue(size.standardError.contains("--size is WIDTHxHEIGHT"), size.output)
        let detect = try AVCaptureTool.run(["preview", "--detect", "cats"])
        XCTAssertNotEqual(detect.status, 0)
        XCTAssertTrue(detect.standardError.contains("--detect is codes, faces, codes,faces or none"), detect.output)
        for token in ["", "short", "has spaces in it, sixteen+"] {
            let refused = try AVCaptureTool.run(["preview", "--token", token])
            XCTAssertNotEqual(refused.status, 0, token)
            XCTAssertTrue(refused.standardError.contains("--token must be at least 16"), refused.output)
        }
    }

    func testListeningBeyondLoopbackPrintsTheGeneratedToken() throws {
        let result = try AVCaptureTool.run(["preview", "--listen", "0.0.0.0", "--port", "0", "--seconds", "1", "--no-audio"])
        XCTAssertEqual(result.status, 0, result.output)
        let token = try XCTUnwrap(result.standardOutput.components(separatedBy: "Access token: ").dropFirst().first?.prefix(32))
        XCTAssertEqual(token.count, 32)
        XCTAssertTrue(result.standardOutput.contains("?token=\(token)"), "the printed address carries it: \(result.standardOutput)")
    }
}
