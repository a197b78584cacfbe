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
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        guard CVPixelBufferGetPixelFormatType(picture) == kCVPixelFormatType_32BGRA, let base = CVPixelBufferGetBaseAddress(picture) else { return }
        let presented = cvw_present_bgra(
            window, base.assumingMemoryBound(to: UInt8.self), Int32(CVPixelBufferGetBytesPerRow(picture)), Int32(CVPixelBufferGetWidth(picture)),
            Int32(CVPixelBufferGetHeight(picture)))
        if presented == 0 { mailbox.withLock { $0.shown += 1 } }
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
