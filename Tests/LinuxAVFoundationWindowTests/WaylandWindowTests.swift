import AVFoundation
import Foundation
import LinuxAVFoundationWindow
import TestSupport
import XCTest

/// Windows on Wayland: a weston of the test's own, nested in the test's X server with the kiosk
/// shell, and the process told only of it (`WAYLAND_DISPLAY`, no `DISPLAY`), so that SDL opens its
/// windows on Wayland. What a window shows is read back with weston's screenshooter, as the
/// compositor composes it.
final class WaylandWindowTests: WindowTestCase {
    private var compositor: WaylandCompositor!
    private var saved: [String: String?] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(isInstalled("/usr/bin/weston") || ProcessInfo.processInfo.environment["CI"] != nil, "weston is needed")
        compositor = try WaylandCompositor(.nested(in: display))
        use(compositor)
    }

    override func tearDown() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        compositor?.stop()
        super.tearDown()
    }

    /// Points this process at `compositor` alone.
    private func use(_ compositor: WaylandCompositor) {
        for (name, value) in compositor.environment {
            if saved[name] == nil { saved[name] = .some(ProcessInfo.processInfo.environment[name]) }
            if value.isEmpty { unsetenv(name) } else { setenv(name, value, 1) }
        }
    }

    private func pixel(_ pixels: [UInt8], _ x: Int, _ y: Int) -> [Int] {
        let at = (y * compositor.width + x) * 4
        return [Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2])]
    }

    func testAPlayerLayersPicturesAreShownOnTheCompositor() throws {
        let (window, layer, player) = try playInWindow(
            try movie("0x2060C0", width: 320, height: 240), width: 320, height: 240, gravity: .resizeAspect, title: "wayland-test")
        defer {
            player.pause()
            window.close()
        }
        XCTAssertTrue(waitUntil(timeout: 20) { window.statistics.shown > 3 }, "pictures are drawn")
        // The kiosk shell gives the window the whole output; its picture is there, as the layer's
        // gravity places a movie of the output's own shape: everywhere (away from the pointer, which
        // the compositor draws in the middle).
        var seen: [[Int]] = []
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                guard let pixels = self.compositor.screenshot() else { return false }
                seen = [(160, 120), (40, 40), (600, 440)].map { self.pixel(pixels, $0.0, $0.1) }
                return seen.allSatisfy { zip($0, [0x20, 0x60, 0xC0]).allSatisfy { abs($0 - $1) <= 12 } }
            }, "the movie's colour on the compositor's output: \(seen)")
        XCTAssertEqual(layer.bounds.size, CGSize(width: compositor.width, height: compositor.height), "the layer follows the size the compositor gave")
    }

    func testTheLayersGravityLeavesBlackBandsOnTheCompositor() throws {
        // A movie twice as wide as high in the output's four thirds: bands above and below.
        let (window, _, player) = try playInWindow(
            try movie("0xC03020", width: 320, height: 160), width: 320, height: 240, gravity: .resizeAspect, title: "wayland-gravity")
        defer {
            player.pause()
            window.close()
        }
        var seen: [[UInt8]] = []
        let rgba = { (pixels: [UInt8], x: Int, y: Int) -> [UInt8] in
            Array(pixels[(y * self.compositor.width + x) * 4..<(y * self.compositor.width + x) * 4 + 4])
        }
        XCTAssertTrue(
            waitUntil(timeout: 20) {
                guard let pixels = self.compositor.screenshot() else { return false }
                // The picture 640 x 320 from y = 80, once the window has the output's size.
                seen = [(160, 90), (480, 390), (160, 40), (160, 440)].map { rgba(pixels, $0.0, $0.1) }
                return seen[0...1].allSatisfy { zip($0.prefix(3), [0xC0, 0x30, 0x20]).allSatisfy { abs(Int($0) - $1) <= 12 } }
            }, "the picture fills the middle band, edge to edge: \(seen)")
        XCTAssertEqual(seen[2].prefix(3), [0, 0, 0], "a black band above")
        XCTAssertEqual(seen[3].prefix(3), [0, 0, 0], "a black band below")
    }

    func testACompositorWithoutASeatIsRefusedWithAReasonAndTheProcessGoesOn() throws {
        let seatless = try WaylandCompositor(.headless)
        defer { seatless.stop() }
        use(seatless)
        XCTAssertThrowsError(try LinuxVideoWindow(title: "no-seat", width: 320, height: 240)) { error in
            XCTAssertTrue("\(error)".contains("seat"), "\(error)")
        }
        // The process is still here, and a compositor with a seat still gets a window.
        use(compositor)
        let window = try LinuxVideoWindow(title: "seat", width: 320, height: 240)
        window.close()
    }
}
