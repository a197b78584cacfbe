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
    /// Draws over each picture before it is shown, in the picture's pixels with the origin at its top left.
    let overlay = LockedValue<(@Sendable (CGContext, CGSize) -> Void)?>(nil)
    /// Bitmap contexts over the pictures' memory, made once per buffer of the layer's pool (the window thread's).
    private var contexts: [UnsafeMutableRawPointer: CGContext] = [:]

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

    /// Shows the picture waiting, if one is (on the window thread).
    func presentWaitingPicture() {
        guard
            let picture = mailbox.withLock({ mailbox -> CVPixelBuffer? in
                defer { mailbox.picture = nil }
                return mailbox.picture
            })
        else { return }
        let draw = overlay.withLock { $0 }
        let access: CVPixelBufferLockFlags = draw == nil ? .readOnly : []
        CVPixelBufferLockBaseAddress(picture, access)
        defer { CVPixelBufferUnlockBaseAddress(picture, access) }
        guard CVPixelBufferGetPixelFormatType(picture) == kCVPixelFormatType_32BGRA, let base = CVPixelBufferGetBaseAddress(picture) else { return }
        if let draw, let context = context(base, CVPixelBufferGetWidth(picture), CVPixelBufferGetHeight(picture), CVPixelBufferGetBytesPerRow(picture)) {
            let height = CGFloat(CVPixelBufferGetHeight(picture))
            context.saveGState()
            // The layer's coordinates: the origin at the top left, y down.
            context.translateBy(x: 0, y: height)
            context.scaleBy(x: 1, y: -1)
            draw(context, CGSize(width: CGFloat(CVPixelBufferGetWidth(picture)), height: height))
            context.restoreGState()
            context.flush()
        }
        let presented = cvw_present_bgra(
            window, base.assumingMemoryBound(to: UInt8.self), Int32(CVPixelBufferGetBytesPerRow(picture)), Int32(CVPixelBufferGetWidth(picture)),
            Int32(CVPixelBufferGetHeight(picture)))
        if presented == 0 { mailbox.withLock { $0.shown += 1 } }
    }

    /// A bitmap context over a picture's memory: the one made for that memory before when its
    /// size is the same, so that drawing over the layer's pooled pictures makes no context a picture.
    private func context(_ base: UnsafeMutableRawPointer, _ width: Int, _ height: Int, _ bytesPerRow: Int) -> CGContext? {
        if let made = contexts[base], made.width == width, made.height == height, made.bytesPerRow == bytesPerRow { return made }
        if contexts.count >= 8 { contexts.removeAll() }
        let made = CGContext(
            data: base, width: width, height: height, bitsPerComponent: 8, bytesPerRow: bytesPerRow, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue)
        contexts[base] = made
        return made
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
