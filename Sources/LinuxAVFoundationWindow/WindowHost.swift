import CVideoWindow
import CoreGraphics
import CoreVideo
import Foundation

/// One window's side on the window thread: the SDL window, the mailbox pictures wait in (the newest
/// only: a picture not yet shown when another arrives is dropped, so a slow screen drops pictures
/// early and holds none), and what the window tells its owner.
///
/// Thread ownership: `window` and drawing belong to the window thread; the mailbox and the counts
/// are locked, for the layer's queue to fill.
final class WindowHost: @unchecked Sendable {
    let window: OpaquePointer
    let identifier: UInt32
    private struct Mailbox {
        var picture: CVPixelBuffer?
        var shown = 0
        var dropped = 0
    }
    private let mailbox = LockedValue(Mailbox())
    /// Called on the window thread with each event for the window.
    let onEvent: @Sendable (cvw_event) -> Void
    /// Draws over each picture, in the window's pixels with the origin at its top left.
    let overlay = LockedValue<(@Sendable (CGContext, CGSize) -> Void)?>(nil)

    init(window: OpaquePointer, onEvent: @escaping @Sendable (cvw_event) -> Void) {
        self.window = window
        identifier = cvw_window_id(window)
        self.onEvent = onEvent
    }

    /// Leaves a picture to be shown (from any thread); one still waiting is dropped.
    func offer(_ picture: CVPixelBuffer) {
        mailbox.withLock { mailbox in
            if mailbox.picture != nil { mailbox.dropped += 1 }
            mailbox.picture = picture
        }
        WindowThread.shared.pictureArrived()
    }

    /// Pictures shown and pictures dropped because a newer one came before they could be.
    var counts: (shown: Int, dropped: Int) { mailbox.withLock { ($0.shown, $0.dropped) } }

    /// Shows the picture waiting, if one is (on the window thread), under the overlay drawn afresh.
    func presentWaitingPicture() {
        guard
            let picture = mailbox.withLock({ mailbox -> CVPixelBuffer? in
                defer { mailbox.picture = nil }
                return mailbox.picture
            })
        else { return }
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        guard CVPixelBufferGetPixelFormatType(picture) == kCVPixelFormatType_32BGRA, let base = CVPixelBufferGetBaseAddress(picture) else { return }
        refreshOverlay()
        let presented = cvw_present_bgra(
            window, base.assumingMemoryBound(to: UInt8.self), Int32(CVPixelBufferGetBytesPerRow(picture)), Int32(CVPixelBufferGetWidth(picture)),
            Int32(CVPixelBufferGetHeight(picture)))
        if presented == 0 { mailbox.withLock { $0.shown += 1 } }
    }

    /// Draws the overlay afresh over the last picture and shows it (on the window thread).
    func redraw() {
        refreshOverlay()
        cvw_present_again(window)
    }

    /// The overlay's own bitmap, the window's size, and a context over it (the window thread's).
    private var overlayBitmap: (buffer: CVPixelBuffer, context: CGContext)?
    private var hasOverlay = false

    /// Draws the overlay into its bitmap (cleared to transparent) and hands it to the window; the
    /// layer's pictures are never written to.
    private func refreshOverlay() {
        guard let draw = overlay.withLock({ $0 }) else {
            if hasOverlay { cvw_set_overlay(window, nil, 0, 0, 0) }
            hasOverlay = false
            return
        }
        var (drawnWidth, drawnHeight): (Int32, Int32) = (0, 0)
        cvw_drawable_size(window, &drawnWidth, &drawnHeight)
        let (width, height) = (Int(drawnWidth), Int(drawnHeight))
        guard width > 0, height > 0 else { return }
        if overlayBitmap.map({ CVPixelBufferGetWidth($0.buffer) != width || CVPixelBufferGetHeight($0.buffer) != height }) ?? true {
            overlayBitmap = nil
            guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA) else { return }
            CVPixelBufferLockBaseAddress(buffer, [])
            defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
            guard
                let context = CGContext(
                    data: CVPixelBufferGetBaseAddress(buffer), width: width, height: height, bitsPerComponent: 8,
                    bytesPerRow: CVPixelBufferGetBytesPerRow(buffer), space: CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue)
            else { return }
            overlayBitmap = (buffer, context)
        }
        guard let (buffer, context) = overlayBitmap else { return }
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return }
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        memset(base, 0, stride * height)
        context.saveGState()
        // The layer's coordinates: the origin at the top left, y down.
        context.translateBy(x: 0, y: CGFloat(height))
        context.scaleBy(x: 1, y: -1)
        draw(context, CGSize(width: width, height: height))
        context.restoreGState()
        context.flush()
        hasOverlay = cvw_set_overlay(window, base.assumingMemoryBound(to: UInt8.self), Int32(stride), Int32(width), Int32(height)) == 0
    }

    /// Answers an event (on the window thread): an expose is drawn again; the rest go to the owner.
    func handle(_ event: cvw_event) {
        if event.kind == CVW_EVENT_EXPOSE {
            cvw_present_again(window)
            return
        }
        onEvent(event)
    }
}
