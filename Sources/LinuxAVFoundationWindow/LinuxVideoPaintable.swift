import AVFoundation
import CVideoPaintable
import CoreGraphics
import CoreVideo
import Foundation

/// A GTK 4 paintable (`GdkPaintable`) that shows what a player layer or a capture preview layer
/// shows, for a GTK app to put in its own widget tree: give `paintable` to a `GtkPicture`
/// (`gtk_picture_new_for_paintable`), as Adwaita for Swift and SwiftCrossUI apps hold GTK's objects.
///
/// The layer's bounds follow the size GTK draws the paintable at, so its video gravity, and a
/// preview layer's rotation and mirroring, apply as on Apple's platforms. A picture that arrives
/// before GTK took the last replaces it, so a slow screen drops pictures early and holds none; each
/// picture GTK takes becomes a `GdkMemoryTexture` over the picture's own memory (GTK 4.8 has no
/// texture to update in place, nor one of YUV pixels).
///
/// Thread ownership: the paintable is drawn on GTK's main context, which the app's GTK main loop
/// runs; this object may be used and released on any thread. GTK 4 (Debian's `libgtk-4-1`) is the
/// app's own: it is found by its soname when the first paintable is made.
public final class LinuxVideoPaintable: @unchecked Sendable {
    /// Why a paintable cannot be made.
    public enum Failure: Error, CustomStringConvertible {
        /// GTK 4 cannot be loaded, for the reason given.
        case unavailable(String)

        /// A sentence that says what went wrong.
        public var description: String {
            switch self {
            case .unavailable(let reason): "No GTK paintable can be made: \(reason)."
            }
        }
    }

    /// The layer shown and how to stop taking its pictures, guarded by its lock.
    private struct Attachment {
        var layer: CALayer?
        var detach: (() -> Void)?
    }

    /// What GTK's resize callback reaches: the paintable, weakly, as GTK may outlive it.
    private final class Context: @unchecked Sendable {
        weak var owner: LinuxVideoPaintable?
    }

    private let state: OpaquePointer
    private let attachment = LockedValue(Attachment())
    private let intake = DispatchQueue(label: "LinuxVideoPaintable.intake", qos: .userInteractive)

    /// The `GdkPaintable *` to hand to GTK, valid while this object lives (take a reference with
    /// `g_object_ref` to keep it longer: it then shows its last picture).
    public var paintable: OpaquePointer { OpaquePointer(cvp_gobject(state)) }

    /// Makes a paintable that shows nothing until a layer is given; throws when GTK 4 cannot be loaded.
    public init() throws {
        let context = Context()
        var message = [CChar](repeating: 0, count: 512)
        guard
            let state = cvp_create(
                { context, width, height in
                    guard let context else { return }
                    Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().owner?.resized(width: Int(width), height: Int(height))
                }, Unmanaged.passRetained(context).toOpaque(), { context in if let context { Unmanaged<Context>.fromOpaque(context).release() } },
                &message, message.count)
        else {
            throw Failure.unavailable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.state = state
        context.owner = self
    }

    deinit {
        attachment.withLock { $0.detach }?()
        cvp_release(state)
    }

    /// Pictures GTK drew, and pictures dropped because a newer one arrived before GTK took them.
    public var statistics: (shown: Int, dropped: Int) {
        var shown: UInt64 = 0, dropped: UInt64 = 0
        cvp_counts(state, &shown, &dropped)
        return (Int(shown), Int(dropped))
    }

    /// Shows a player layer's pictures, replacing any layer shown before.
    public func show(_ layer: AVPlayerLayer) {
        attach(layer) { [intake] handler in layer.setLinuxPreviewFrameHandler(handler, queue: intake) }
    }

    /// Shows a capture preview layer's pictures, replacing any layer shown before.
    public func show(_ layer: AVCaptureVideoPreviewLayer) {
        attach(layer) { [intake] handler in layer.setLinuxPreviewFrameHandler(handler, queue: intake) }
    }

    private func attach(_ layer: CALayer, _ setHandler: @escaping (((@Sendable (CVPixelBuffer) -> Void)?) -> Void)) {
        let previous = attachment.withLock { attachment -> (() -> Void)? in
            defer { attachment = Attachment(layer: layer, detach: { setHandler(nil) }) }
            return attachment.detach
        }
        previous?()
        // Until GTK draws the paintable, the layer draws at its own size, or VGA's.
        if layer.bounds.isEmpty { layer.bounds = CGRect(x: 0, y: 0, width: 640, height: 480) }
        setHandler { [weak self] picture in
            guard let self, CVPixelBufferGetPixelFormatType(picture) == kCVPixelFormatType_32BGRA else { return }
            CVPixelBufferLockBaseAddress(picture, .readOnly)
            guard let base = CVPixelBufferGetBaseAddress(picture) else {
                CVPixelBufferUnlockBaseAddress(picture, .readOnly)
                return
            }
            // GTK reads the picture's own memory until it drops the texture; then the picture goes.
            cvp_offer(
                self.state, base.assumingMemoryBound(to: UInt8.self), Int32(CVPixelBufferGetWidth(picture)), Int32(CVPixelBufferGetHeight(picture)),
                CVPixelBufferGetBytesPerRow(picture), Unmanaged.passRetained(picture).toOpaque()
            ) { owner in
                guard let owner else { return }
                let picture = Unmanaged<CVPixelBuffer>.fromOpaque(owner).takeRetainedValue()
                CVPixelBufferUnlockBaseAddress(picture, .readOnly)
            }
        }
    }

    /// GTK draws the paintable at a new size (on GTK's main context): the layer follows it.
    private func resized(width: Int, height: Int) {
        guard let layer = attachment.withLock({ $0.layer }) else { return }
        layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    }
}
