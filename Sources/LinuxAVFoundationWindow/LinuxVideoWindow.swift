import AVFoundation
import CVideoWindow
import CoreGraphics
import CoreVideo
import Foundation

/// A window on the Linux desktop that shows what a player layer or a capture preview layer shows:
/// the layer's pictures, sized to the window (the layer's bounds follow the window's size, so its
/// video gravity, and a preview layer's rotation and mirroring, apply as on Apple's platforms).
///
/// Drawn through SDL 2 on X11 (or Wayland, where only `WAYLAND_DISPLAY` is set or with
/// `SDL_VIDEODRIVER=wayland`; a compositor without a seat, where SDL 2 would crash, is refused with
/// the reason), synchronised with the display where there is a GPU. A picture that arrives before the last was drawn replaces it, so
/// a screen slower than the layer drops pictures early and holds none.
///
/// Thread ownership: any thread; the window is drawn and its events read on a thread of its own,
/// and events are delivered on the queue given to `setEventHandler(_:queue:)`.
public final class LinuxVideoWindow: @unchecked Sendable {
    /// Why a window cannot be opened.
    public enum Failure: Error, CustomStringConvertible {
        /// There is no display to open a window on (neither `DISPLAY` nor `WAYLAND_DISPLAY` is set).
        case noDisplay
        /// The display or SDL refused, for the reason given.
        case unavailable(String)

        /// A sentence that says what went wrong.
        public var description: String {
            switch self {
            case .noDisplay: "There is no display: neither DISPLAY nor WAYLAND_DISPLAY is set."
            case .unavailable(let reason): "No window can be opened: \(reason)."
            }
        }
    }

    /// Something that happened to the window.
    public enum Event: Sendable, Equatable {
        /// The window was closed by its close button or the desktop; the window is closed.
        case closed
        /// A key went down.
        case key(Key)
        /// The mouse was pressed at a point in the window, in pixels from the top left.
        case click(CGPoint)
        /// The window's size changed to a size in pixels.
        case resized(CGSize)
    }

    /// A key a window reports.
    public enum Key: Sendable, Equatable {
        /// A key that types a character, such as a space or `q`.
        case character(Character)
        /// The left arrow.
        case left
        /// The right arrow.
        case right
        /// The up arrow.
        case up
        /// The down arrow.
        case down
        /// The escape key.
        case escape
    }

    /// Whether the environment names a display to open windows on.
    public static var hasDisplay: Bool {
        let environment = ProcessInfo.processInfo.environment
        return !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The size of the screen's area windows may take (without the desktop's panels), in pixels.
    public static func usableScreenSize() throws -> CGSize {
        guard hasDisplay else { throw Failure.noDisplay }
        let measured = WindowThread.shared.performAndWait { () -> Result<CGSize, Failure> in
            var problem = [CChar](repeating: 0, count: 512)
            var (width, height): (Int32, Int32) = (0, 0)
            guard cvw_usable_screen_size(&width, &height, &problem, 512) == 0 else {
                return .failure(.unavailable(String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            }
            return .success(CGSize(width: Int(width), height: Int(height)))
        }
        return try measured.get()
    }

    private struct State {
        var host: WindowHost?
        /// The window's pictures once it is closed: its counts stay readable.
        var closedHost: WindowHost?
        var size: CGSize
        var title: String
        var fullScreen = false
        var layer: CALayer?
        var detach: (() -> Void)?
        var handler: (@Sendable (Event) -> Void)?
        var handlerQueue: DispatchQueue = .main
    }
    private let state: LockedValue<State>
    /// The queue the layer hands pictures to the window on.
    private let intake = DispatchQueue(label: "LinuxVideoWindow.intake", qos: .userInteractive)

    /// Opens a window of `width` x `height` pixels titled `title`, at `x`, `y` on the screen (where
    /// the desktop chooses when nil), black until a layer is shown in it.
    public init(title: String, width: Int, height: Int, x: Int? = nil, y: Int? = nil) throws {
        guard Self.hasDisplay else { throw Failure.noDisplay }
        state = LockedValue(State(size: CGSize(width: width, height: height), title: title))
        let events: @Sendable (cvw_event) -> Void = { [weak self] event in self?.received(event) }
        let opened = WindowThread.shared.performAndWait { () -> Result<WindowHost, Failure> in
            var problem = [CChar](repeating: 0, count: 512)
            guard
                let window = cvw_open(title, Int32(clamping: width), Int32(clamping: height), Int32(clamping: x ?? -1), Int32(clamping: y ?? -1), &problem, 512)
            else { return .failure(.unavailable(String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))) }
            let host = WindowHost(window: window, onEvent: events)
            WindowThread.shared.add(host)
            return .success(host)
        }
        let host = try opened.get()
        let drawable = WindowThread.shared.performAndWait { () -> CGSize in
            var (drawnWidth, drawnHeight): (Int32, Int32) = (0, 0)
            cvw_drawable_size(host.window, &drawnWidth, &drawnHeight)
            return CGSize(width: Int(drawnWidth), height: Int(drawnHeight))
        }
        state.withLock {
            $0.host = host
            if drawable.width > 0 { $0.size = drawable }
        }
    }

    deinit { close() }

    /// The window's size in pixels, as it is drawn.
    public var size: CGSize { state.withLock { $0.size } }

    /// Whether the window is open.
    public var isOpen: Bool { state.withLock { $0.host != nil } }

    /// Whether the window fills the screen.
    public var isFullScreen: Bool {
        get { state.withLock { $0.fullScreen } }
        set {
            guard let host = state.withLock({ $0.host }) else { return }
            state.withLock { $0.fullScreen = newValue }
            WindowThread.shared.perform { cvw_set_fullscreen(host.window, newValue ? 1 : 0) }
        }
    }

    /// The name of the renderer that draws the window: SDL's "opengl" or "opengles2" where a GPU
    /// draws it, "software" where the CPU does (also where OpenGL itself would be rasterised by the
    /// CPU, as on Xvfb, where SDL's own software renderer is cheaper); empty once closed.
    public var rendererName: String {
        guard let host = state.withLock({ $0.host }) else { return "" }
        return WindowThread.shared.performAndWait { String(cString: cvw_renderer_name(host.window)) }
    }

    /// The window's title, as the desktop shows it.
    public var title: String {
        get { state.withLock { $0.title } }
        set {
            guard
                let host = state.withLock({ state -> WindowHost? in
                    state.title = newValue
                    return state.host
                })
            else { return }
            WindowThread.shared.perform { cvw_set_title(host.window, newValue) }
        }
    }

    /// Pictures drawn in the window, and pictures dropped because a newer one arrived before they could be drawn.
    public var statistics: (shown: Int, dropped: Int) { state.withLock { $0.host ?? $0.closedHost }?.counts ?? (0, 0) }

    /// Shows a player layer's pictures in the window, replacing any layer shown before.
    public func show(_ layer: AVPlayerLayer) {
        attach(layer) { [intake] handler in layer.setLinuxPreviewFrameHandler(handler, queue: intake) }
    }

    /// Shows a capture preview layer's pictures in the window, replacing any layer shown before.
    public func show(_ layer: AVCaptureVideoPreviewLayer) {
        attach(layer) { [intake] handler in layer.setLinuxPreviewFrameHandler(handler, queue: intake) }
    }

    private func attach(_ layer: CALayer, _ setHandler: @escaping (((@Sendable (CVPixelBuffer) -> Void)?) -> Void)) {
        let (previous, size) = state.withLock { state -> ((() -> Void)?, CGSize) in
            defer {
                state.layer = layer
                state.detach = { setHandler(nil) }
            }
            return (state.detach, state.size)
        }
        previous?()
        layer.bounds = CGRect(origin: .zero, size: size)
        setHandler { [weak self] picture in self?.state.withLock { $0.host }?.offer(picture) }
    }

    /// Draws over the pictures: `draw` gets a transparent context of the window's size whose origin
    /// is its top left (the layer's coordinates, in pixels), on the window's own thread, before each
    /// picture is shown and when `setNeedsDisplay()` asks; what it draws is blended over the picture,
    /// which is never written to. Nil stops.
    public func setOverlay(_ draw: (@Sendable (CGContext, CGSize) -> Void)?) {
        state.withLock { $0.host }?.overlay.withLock { $0 = draw }
        setNeedsDisplay()
    }

    /// Draws the window again soon: the overlay afresh over the picture shown last (a paused player's).
    public func setNeedsDisplay() {
        guard let host = state.withLock({ $0.host }) else { return }
        WindowThread.shared.perform { host.redraw() }
    }

    /// Calls `handler` on `queue` with each event of the window; nil stops.
    public func setEventHandler(_ handler: (@Sendable (Event) -> Void)?, queue: DispatchQueue = .main) {
        state.withLock {
            $0.handler = handler
            $0.handlerQueue = queue
        }
    }

    /// Closes the window; the layer shown in it no longer hands it pictures.
    public func close() {
        guard let host = takeHost() else { return }
        WindowThread.shared.performAndWait {
            WindowThread.shared.remove(host)
            cvw_close(host.window)
        }
    }

    /// An event from the window thread: the layer follows a new size; the owner hears of it.
    private func received(_ event: cvw_event) {
        let told: Event?
        switch event.kind {
        case CVW_EVENT_RESIZE:
            let size = CGSize(width: Int(event.width), height: Int(event.height))
            let layer = state.withLock { state -> CALayer? in
                state.size = size
                return state.layer
            }
            layer?.bounds = CGRect(origin: .zero, size: size)
            told = .resized(size)
        case CVW_EVENT_KEY:
            told = Self.key(event.key).map { .key($0) }
        case CVW_EVENT_CLICK:
            told = .click(CGPoint(x: Int(event.x), y: Int(event.y)))
        case CVW_EVENT_CLOSE:
            told = .closed
        default:
            told = nil
        }
        guard let told else { return }
        let (handler, queue) = state.withLock { ($0.handler, $0.handlerQueue) }
        if told == .closed {
            // Closed on the window thread itself, after this event: the owner is told once it is.
            WindowThread.shared.perform { [weak self] in self?.closeFromWindowThread() }
        }
        if let handler { queue.async { handler(told) } }
    }

    /// Takes the window's host out of the state, its counts kept, and stops the layer handing it pictures; nil when already closed.
    private func takeHost() -> WindowHost? {
        let (host, detach) = state.withLock { state -> (WindowHost?, (() -> Void)?) in
            defer {
                state.closedHost = state.host ?? state.closedHost
                state.host = nil
                state.detach = nil
                state.layer = nil
            }
            return (state.host, state.detach)
        }
        detach?()
        return host
    }

    /// Closes the window from its own thread (the desktop closed it).
    private func closeFromWindowThread() {
        guard let host = takeHost() else { return }
        WindowThread.shared.remove(host)
        cvw_close(host.window)
    }

    /// The key an SDL key code stands for, when the window reports it.
    static func key(_ code: Int32) -> Key? {
        switch code {
        case Int32(CVW_KEY_LEFT): .left
        case Int32(CVW_KEY_RIGHT): .right
        case Int32(CVW_KEY_UP): .up
        case Int32(CVW_KEY_DOWN): .down
        case Int32(CVW_KEY_ESCAPE): .escape
        case 32...126: Unicode.Scalar(UInt32(code)).map { .character(Character($0)) }
        default: nil
        }
    }
}
