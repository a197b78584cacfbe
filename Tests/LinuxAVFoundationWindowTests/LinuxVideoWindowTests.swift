import AVFoundation
import Foundation
import LinuxAVFoundationWindow
import TestSupport
import XCTest

/// Windows on an X server of their own (Xvfb): what a window shows is read back from the screen
/// with FFmpeg's X11 grabber and compared with the pictures that should be there (a movie of one
/// colour, placed as the layer's gravity says); sizes, keys and clicks come from xdotool as a user's would.
final class LinuxVideoWindowTests: WindowTestCase {
    /// The screen's pixels in a rectangle, R, G, B, row after row, as the X server holds them.
    private func screen(x: Int = 0, y: Int = 0, width: Int, height: Int) throws -> [UInt8] {
        let grabbed = try XCTUnwrap(
            runTool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "x11grab", "-video_size", "\(width)x\(height)", "-i", "\(display.name)+\(x),\(y)", "-frames:v", "1", "-f", "rawvideo",
                    "-pix_fmt", "rgb24", "-",
                ]))
        XCTAssertEqual(grabbed.count, width * height * 3)
        return [UInt8](grabbed)
    }

    private func pixel(_ pixels: [UInt8], width: Int, _ x: Int, _ y: Int) -> [Int] {
        let at = (y * width + x) * 3
        return [Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2])]
    }

    private func assertColour(_ seen: [Int], _ wanted: [Int], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        // Through H.264's 4:2:0 Y'CbCr and back: within a few steps.
        for (value, want) in zip(seen, wanted) { XCTAssertEqual(value, want, accuracy: 12, "\(message): \(seen)", file: file, line: line) }
    }

    /// Waits until the window has drawn `count` more pictures than now.
    private func waitForPictures(_ window: LinuxVideoWindow, _ count: Int = 3) -> Bool {
        let now = window.statistics.shown
        return waitUntil(timeout: 20) { window.statistics.shown >= now + count }
    }

    func testAPlayerLayersPicturesFillTheWindowAsItsGravitySays() throws {
        // A movie twice as wide as high in a window four thirds as wide: bands above and below with .resizeAspect.
        let (window, layer, player) = try playInWindow(try movie("0xC03020", width: 320, height: 160), width: 320, height: 240, gravity: .resizeAspect)
        defer {
            player.pause()
            window.close()
        }
        XCTAssertTrue(waitForPictures(window))
        var pixels = try screen(width: 320, height: 240)
        assertColour(pixel(pixels, width: 320, 160, 120), [0xC0, 0x30, 0x20], "the picture in the middle")
        assertColour(pixel(pixels, width: 320, 160, 60), [0xC0, 0x30, 0x20], "the picture's top edge")
        assertColour(pixel(pixels, width: 320, 160, 15), [0, 0, 0], "a black band above")
        assertColour(pixel(pixels, width: 320, 160, 225), [0, 0, 0], "a black band below")
        XCTAssertEqual(layer.bounds.size, CGSize(width: 320, height: 240), "the layer has the window's size")

        layer.videoGravity = .resizeAspectFill
        XCTAssertTrue(waitForPictures(window))
        pixels = try screen(width: 320, height: 240)
        assertColour(pixel(pixels, width: 320, 160, 15), [0xC0, 0x30, 0x20], "filled: no band above")
        assertColour(pixel(pixels, width: 320, 160, 225), [0xC0, 0x30, 0x20], "filled: no band below")
    }

    func testAnOverlayIsDrawnOverEachPictureInTheLayersCoordinates() throws {
        let (window, _, player) = try playInWindow(try movie("0xC03020", width: 320, height: 240), width: 320, height: 240, gravity: .resizeAspect)
        defer {
            player.pause()
            window.close()
        }
        window.setOverlay { context, size in
            XCTAssertEqual(size, CGSize(width: 320, height: 240))
            context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
            context.fill(CGRect(x: 10, y: 20, width: 40, height: 30))  // from the top left, as a layer's coordinates
        }
        XCTAssertTrue(waitForPictures(window))
        let pixels = try screen(width: 320, height: 240)
        assertColour(pixel(pixels, width: 320, 30, 35), [0, 255, 0], "inside the overlay's rectangle")
        assertColour(pixel(pixels, width: 320, 30, 205), [0xC0, 0x30, 0x20], "the picture where the rectangle would be if y went up")
        assertColour(pixel(pixels, width: 320, 160, 120), [0xC0, 0x30, 0x20], "the picture elsewhere")
        window.setOverlay(nil)
        XCTAssertTrue(waitForPictures(window))
        assertColour(pixel(try screen(width: 320, height: 240), width: 320, 30, 35), [0xC0, 0x30, 0x20], "no overlay once it is taken away")
    }

    func testTheLayerFollowsTheWindowsSizeAndEventsAreReported() throws {
        let (window, layer, player) = try playInWindow(try movie("0x2060C0", width: 320, height: 160), width: 320, height: 240, gravity: .resizeAspect)
        defer {
            player.pause()
            window.close()
        }
        let events = EventLog()
        window.setEventHandler({ events.append($0) }, queue: DispatchQueue(label: "events"))
        let identifier = try XCTUnwrap(
            runTool("/usr/bin/xdotool", ["search", "--name", "^window-test$"]).map {
                String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init)
            }
                ?? nil)
        XCTAssertTrue(display.pointer(["windowsize", identifier, "400", "300"]))
        XCTAssertTrue(waitUntil(timeout: 10) { events.all.contains(.resized(CGSize(width: 400, height: 300))) }, "\(events.all)")
        XCTAssertTrue(waitUntil(timeout: 10) { layer.bounds.size == CGSize(width: 400, height: 300) })
        XCTAssertEqual(window.size, CGSize(width: 400, height: 300))
        XCTAssertTrue(waitForPictures(window))
        let pixels = try screen(width: 400, height: 300)
        // 2:1 in 400 x 300: the picture is 400 x 200, bands of 50 rows above and below.
        assertColour(pixel(pixels, width: 400, 200, 150), [0x20, 0x60, 0xC0], "the picture in the middle")
        assertColour(pixel(pixels, width: 400, 200, 60), [0x20, 0x60, 0xC0], "the picture below the band")
        assertColour(pixel(pixels, width: 400, 200, 40), [0, 0, 0], "the band above")

        XCTAssertTrue(display.pointer(["windowfocus", "--sync", identifier]))
        XCTAssertTrue(display.pointer(["key", "--window", identifier, "space", "q", "Right"]))
        XCTAssertTrue(waitUntil(timeout: 10) { events.all.contains(.key(.right)) }, "\(events.all)")
        let keys = events.all.compactMap { event -> LinuxVideoWindow.Key? in
            guard case .key(let key) = event else { return nil }
            return key
        }
        XCTAssertEqual(keys, [.character(" "), .character("q"), .right])
        XCTAssertTrue(display.pointer(["mousemove", "--window", identifier, "30", "40", "click", "1"]))
        XCTAssertTrue(waitUntil(timeout: 10) { events.all.contains(.click(CGPoint(x: 30, y: 40))) }, "\(events.all)")
    }

    func testAPreviewLayerShowsTheCamerasMovingPictures() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        let camera = try XCTUnwrap(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.videoGravity = .resizeAspectFill
        let window = try LinuxVideoWindow(title: "preview-test", width: 320, height: 240, x: 0, y: 0)
        defer {
            window.close()
            session.stopRunning()
        }
        window.show(layer)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { window.statistics.shown > 0 }, "a picture is drawn")
        let first = try screen(width: 320, height: 240)
        XCTAssertTrue(waitForPictures(window, 10))
        let later = try screen(width: 320, height: 240)
        // The virtual camera's scene is neither black nor still.
        XCTAssertGreaterThan(first.reduce(0) { $0 + Int($1) } / first.count, 20, "not black")
        XCTAssertGreaterThan(zip(first, later).filter { abs(Int($0) - Int($1)) > 16 }.count, 1000, "the picture moves")
    }

    func testWithoutADisplayTheWindowSaysSo() throws {
        unsetenv("DISPLAY")
        let wayland = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"]
        unsetenv("WAYLAND_DISPLAY")
        defer { if let wayland { setenv("WAYLAND_DISPLAY", wayland, 1) } }
        XCTAssertFalse(LinuxVideoWindow.hasDisplay)
        XCTAssertThrowsError(try LinuxVideoWindow(title: "none", width: 100, height: 100)) { error in
            guard case LinuxVideoWindow.Failure.noDisplay = error else { return XCTFail("\(error)") }
            XCTAssertEqual("\(error)", "There is no display: neither DISPLAY nor WAYLAND_DISPLAY is set.")
        }
    }

    func testAClosedWindowStopsTakingPicturesAndAnotherCanOpen() throws {
        let (window, _, player) = try playInWindow(try movie("0x30A040", width: 160, height: 120), width: 160, height: 120, gravity: .resize)
        defer { player.pause() }
        window.close()
        XCTAssertFalse(window.isOpen)
        let shown = window.statistics.shown
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(window.statistics.shown, shown, "a closed window draws nothing")
        let again = try LinuxVideoWindow(title: "again", width: 160, height: 120, x: 0, y: 0)
        XCTAssertTrue(again.isOpen)
        again.close()
    }
}

/// Events a window reported, from its handler's queue.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [LinuxVideoWindow.Event] = []
    func append(_ event: LinuxVideoWindow.Event) { lock.withLock { events.append(event) } }
    var all: [LinuxVideoWindow.Event] { lock.withLock { events } }
}
