import AVFoundation
import CGtkTestHost
import Foundation
import LinuxAVFoundationWindow
import TestSupport
import XCTest

/// The GTK 4 paintable in a GTK app's own widget tree: a GtkPicture of it in a GTK window on the
/// test's Xvfb, GTK's main context run by the test as an app's main loop runs it, and the screen read
/// back with FFmpeg's x11grab. GTK starts once in a process, so one test takes the paintable through
/// its whole life.
final class LinuxVideoPaintableTests: WindowTestCase {
    private func near(_ seen: [Int], _ wanted: [Int], within: Int = 16) -> Bool { zip(seen, wanted).allSatisfy { abs($0 - $1) <= within } }

    /// Runs GTK's main context, as the app's main loop would, until `condition` holds or `timeout` passes.
    private func runGTK(until timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        waitUntil(timeout: timeout) {
            cgth_iterate()
            return condition()
        }
    }

    func testAGtkPictureShowsTheLayerAtTheWidgetsSizeWithItsGravity() throws {
        var problem = [CChar](repeating: 0, count: 256)
        guard cgth_start(&problem, problem.count) == 0 else {
            let reason = String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("GTK 4: \(reason)") }
            throw XCTSkip("GTK 4: \(reason)")
        }
        // A 2:1 movie of one colour in a 320x240 picture: fitted, with black bands above and below.
        let player = AVPlayer(url: try movie("0xC03020", width: 320, height: 160))
        let layer = AVPlayerLayer(player: player)
        layer.videoGravity = .resizeAspect
        var paintable: LinuxVideoPaintable? = try LinuxVideoPaintable()
        paintable?.show(layer)
        let object = UnsafeMutableRawPointer(try XCTUnwrap(paintable).paintable)
        let window = try XCTUnwrap(cgth_window(object, 320, 240))
        XCTAssertTrue(waitUntil(timeout: 10) { player.currentItem?.status == .readyToPlay })
        player.play()
        XCTAssertTrue(runGTK(until: 20) { (paintable?.statistics.shown ?? 0) > 5 }, "GTK draws the layer's pictures")
        // The layer's bounds follow the size GTK draws the paintable at.
        XCTAssertTrue(runGTK(until: 10) { layer.bounds.size == CGSize(width: 320, height: 240) }, "the layer follows the picture's size: \(layer.bounds)")
        XCTAssertTrue(runGTK(until: 10) { (try? self.near(self.pixel(160, 120), [0xC0, 0x30, 0x20])) == true }, "the movie's colour in the middle")
        // Pictures drawn at the new bounds follow: black bands above and below the 2:1 picture.
        let banded = runGTK(until: 10) { (try? [self.pixel(160, 12), self.pixel(160, 228)].allSatisfy { self.near($0, [0, 0, 0]) }) == true }
        let (above, below) = (try pixel(160, 12), try pixel(160, 228))
        XCTAssertTrue(banded, "black bands above and below: \(above) \(below)")
        // The layer draws a fitted picture at its own size (the letterbox is the drawer's).
        var (width, height): (Int32, Int32) = (0, 0)
        cgth_current_image_size(object, &width, &height)
        XCTAssertEqual([width, height], [320, 160], "the current image is the picture drawn")

        // Filling the picture instead: no bands.
        layer.videoGravity = .resizeAspectFill
        XCTAssertTrue(runGTK(until: 10) { (try? self.near(self.pixel(160, 12), [0xC0, 0x30, 0x20])) == true }, "filled to the top")

        // The window made wider: the layer takes the new size, and the picture fills it.
        cgth_resize(window, 480, 240)
        XCTAssertTrue(runGTK(until: 10) { layer.bounds.size == CGSize(width: 480, height: 240) }, "the layer follows the resize: \(layer.bounds)")
        XCTAssertTrue(runGTK(until: 10) { (try? self.near(self.pixel(460, 120), [0xC0, 0x30, 0x20])) == true }, "the picture spans the wider window")

        // The paintable let go while GTK still holds its GObject: the last picture stays, nothing crashes.
        let shown = try XCTUnwrap(paintable).statistics.shown
        XCTAssertGreaterThan(shown, 5)
        paintable = nil
        player.pause()
        _ = runGTK(until: 0.5) { false }
        let last = try pixel(240, 120)
        XCTAssertTrue(near(last, [0xC0, 0x30, 0x20]), "the last picture stays: \(last)")
        cgth_close(window)
        _ = runGTK(until: 0.5) { false }
    }

    func testPicturesGTKHasNotTakenAreDroppedForNewerOnes() throws {
        // A paintable no GTK main loop runs for: every picture but the newest is dropped, none held.
        let paintable: LinuxVideoPaintable
        do { paintable = try LinuxVideoPaintable() } catch {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw error }
            throw XCTSkip("\(error)")
        }
        let player = AVPlayer(url: try movie("0x2040C0", width: 160, height: 120))
        let layer = AVPlayerLayer(player: player)
        paintable.show(layer)
        XCTAssertTrue(waitUntil(timeout: 10) { player.currentItem?.status == .readyToPlay })
        player.play()
        XCTAssertTrue(waitUntil(timeout: 20) { paintable.statistics.dropped >= 10 }, "pictures dropped: \(paintable.statistics)")
        XCTAssertEqual(paintable.statistics.shown, 0, "GTK drew nothing: its main context was not run")
        player.pause()
    }
}
