import CaptureDevices
import CoreGraphics
import CoreMedia
import Foundation

/// A capture input for recording from a screen.
///
/// Here the screen is the X11 display's that `$DISPLAY` names (the main display), read through
/// shared memory at up to the rate `minFrameDuration` allows; `cropRect` (from the screen's
/// bottom left, as on macOS), `scaleFactor`, `capturesCursor` and `capturesMouseClicks` apply from
/// the next frame. A Wayland desktop's screen is not captured (no portal is asked). Thread-safe.
open class AVCaptureScreenInput: AVCaptureInput, @unchecked Sendable {
    /// The screen's device; nil when the display could not be opened.
    private let screen: X11Screen?
    private let device: AVCaptureDevice?
    private let flags = LockedValue((removesDuplicates: false, unused: ()))

    /// Initializes a capture screen input that provides media data from the main screen.
    public override init() {
        screen = try? X11Screen(displayName: nil)
        device = screen.map { DeviceCore(backend: $0).device }
        super.init()
        ports = [Port(input: self, mediaType: .video)]
    }

    /// Initializes a capture screen input that provides media data from the specified display; nil when it cannot be used.
    public init?(displayID: CGDirectDisplayID) {
        guard displayID == CGMainDisplayID(), let screen = try? X11Screen(displayName: nil) else { return nil }
        self.screen = screen
        device = DeviceCore(backend: screen).device
        super.init()
        ports = [Port(input: self, mediaType: .video)]
    }

    override var capturedDevice: AVCaptureDevice? { device }

    override func formatDescription(for port: Port) -> CMFormatDescription? {
        guard let screen else { return nil }
        let size = outputSize(screen)
        return CMFormatDescription(video: kCVPixelFormatType_32BGRA, width: Int32(size.width), height: Int32(size.height))
    }

    /// The size frames are delivered at: the crop rectangle's, scaled, in even pixels.
    private func outputSize(_ screen: X11Screen) -> (width: Int, height: Int) {
        let options = screen.options.withLock { $0 }
        let region = (options.region ?? CGRect(x: 0, y: 0, width: screen.width, height: screen.height))
            .intersection(CGRect(x: 0, y: 0, width: screen.width, height: screen.height))
        guard !region.isNull else { return (2, 2) }
        return (max(2, Int((region.width * options.scaleFactor).rounded()) & ~1), max(2, Int((region.height * options.scaleFactor).rounded()) & ~1))
    }

    /// The screen input's minimum frame duration: one over the highest frame rate it delivers (1 to 60 frames a second).
    open var minFrameDuration: CMTime {
        get { device?.activeVideoMinFrameDuration ?? .invalid }
        set {
            guard let device, newValue.isNumeric, newValue > .zero else { return }
            let clamped = max(CMTime(value: 1, timescale: 60), min(CMTime(value: 1, timescale: 1), newValue))
            guard (try? device.lockForConfiguration()) != nil else { return }
            device.activeVideoMinFrameDuration = clamped
            device.unlockForConfiguration()
        }
    }

    /// The bounding rectangle of the screen area captured, in pixels, from the screen's bottom-left corner.
    open var cropRect: CGRect {
        get {
            guard let screen else { return .zero }
            guard let region = screen.options.withLock({ $0.region }) else { return CGRect(x: 0, y: 0, width: screen.width, height: screen.height) }
            return CGRect(x: region.minX, y: CGFloat(screen.height) - region.maxY, width: region.width, height: region.height)
        }
        set {
            guard let screen else { return }
            let rect = newValue.standardized
            let region =
                rect.isNull || rect.isEmpty || !rect.origin.x.isFinite || !rect.origin.y.isFinite || !rect.width.isFinite || !rect.height.isFinite
                ? nil : CGRect(x: rect.minX, y: CGFloat(screen.height) - rect.maxY, width: rect.width, height: rect.height)
            screen.options.withLock { $0.region = region }
        }
    }

    /// The factor by which captured frames are scaled (from 1/16 to 4; 1 by default).
    open var scaleFactor: CGFloat {
        get { CGFloat(screen?.options.withLock { $0.scaleFactor } ?? 1) }
        set {
            guard newValue.isFinite, newValue > 0 else { return }
            screen?.options.withLock { $0.scaleFactor = min(4, max(1.0 / 16, Double(newValue))) }
        }
    }

    /// Whether the cursor is drawn in the captured frames (true by default).
    open var capturesCursor: Bool {
        get { screen?.options.withLock { $0.capturesCursor } ?? false }
        set { screen?.options.withLock { $0.capturesCursor = newValue } }
    }

    /// Whether a ring is drawn around the pointer in frames captured while a mouse button is held.
    open var capturesMouseClicks: Bool {
        get { screen?.options.withLock { $0.capturesMouseClicks } ?? false }
        set { screen?.options.withLock { $0.capturesMouseClicks = newValue } }
    }

    /// Whether frames that repeat the one before are left out (every frame is delivered here).
    @available(*, deprecated, message: "Apple deprecates it; every frame is delivered")
    open var removesDuplicateFrames: Bool {
        get { flags.withLock { $0.removesDuplicates } }
        set { flags.withLock { $0.removesDuplicates = newValue } }
    }

    /// A description such as `<AVCaptureScreenInput: Screen :99>`.
    open override var description: String { "<AVCaptureScreenInput: \(device?.localizedName ?? "no screen")>" }
}
