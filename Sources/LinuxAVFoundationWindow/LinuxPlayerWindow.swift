import AVFoundation
import CoreGraphics
import Foundation

/// A window that plays a player's movie with the controls desktop players have: a bar along the
/// bottom (shown while paused, and for three seconds after a click or a key) with a play and pause
/// button, a seek track, a volume track and a full-screen button, the time in the title; and the
/// keys: space plays and pauses, the left and right arrows seek 5 seconds back and on, the up and
/// down arrows turn the volume up and down, f fills the screen and gives the window back, q and
/// escape close it.
///
/// Thread ownership: any thread; clicks and keys are answered on a queue of the window's own.
public final class LinuxPlayerWindow: @unchecked Sendable {
    /// The window the movie is shown in.
    public let window: LinuxVideoWindow
    /// The player whose movie is shown.
    public let player: AVPlayer
    /// The layer that shows the player's pictures in the window.
    public let playerLayer: AVPlayerLayer
    /// How far the arrows seek, in seconds.
    public static let seekInterval = 5.0
    /// How much the up and down arrows change the volume.
    public static let volumeStep: Float = 0.1
    /// How long the controls stay after a click or a key while the movie plays, in seconds.
    public static let controlsInterval = 3.0

    private let queue = DispatchQueue(label: "LinuxPlayerWindow")
    private let name: String
    private struct State {
        var closeHandler: (@Sendable () -> Void)?
        var controlsUntil = Date.distantPast
        var title = ""
        /// Whether the controls' overlay is set on the window (only while they are shown, so that a
        /// playing movie's pictures are drawn without one).
        var overlaySet = false
    }
    private let state = LockedValue(State())
    private let ticker: DispatchSourceTimer

    /// Opens a window of `width` x `height` pixels titled `title` at `x`, `y` on the screen (where the
    /// desktop chooses when nil) that shows `player`'s pictures, placed as `videoGravity` says.
    public init(
        player: AVPlayer, title: String, width: Int, height: Int, x: Int? = nil, y: Int? = nil, videoGravity: AVLayerVideoGravity = .resizeAspect
    ) throws {
        self.player = player
        name = title
        window = try LinuxVideoWindow(title: title, width: width, height: height, x: x, y: y)
        playerLayer = AVPlayerLayer(player: player)
        playerLayer.videoGravity = videoGravity
        ticker = DispatchSource.makeTimerSource(queue: queue)
        window.show(playerLayer)
        window.setEventHandler({ [weak self] event in self?.handle(event) }, queue: queue)
        // Four times a second: the time in the title, and the controls drawn again while the picture stands still.
        ticker.schedule(deadline: .now(), repeating: 0.25)
        ticker.setEventHandler { [weak self] in self?.tick() }
        ticker.resume()
        updateOverlay()
    }

    deinit {
        ticker.cancel()
        window.close()
    }

    /// Whether the controls are shown now: while the movie is paused, and for a while after a click or a key.
    public var controlsAreShown: Bool { player.rate == 0 || state.withLock { $0.controlsUntil } > Date() }

    /// Calls `handler` once the window is closed, by its close button or by q or escape.
    public func setCloseHandler(_ handler: (@Sendable () -> Void)?) { state.withLock { $0.closeHandler = handler } }

    /// Closes the window; the player goes on as it was.
    public func close() {
        ticker.cancel()
        guard window.isOpen else { return }
        window.close()
        state.withLock { $0.closeHandler }?()
    }

    /// Sets the controls' overlay on the window while they are shown, and takes it away when not.
    private func updateOverlay() {
        let shown = controlsAreShown
        let changed = state.withLock { state -> Bool in
            defer { state.overlaySet = shown }
            return state.overlaySet != shown
        }
        guard changed else { return }
        if shown {
            window.setOverlay { [weak self] context, size in self?.drawControls(in: context, size: size) }
        } else {
            window.setOverlay(nil)
        }
    }

    private func drawControls(in context: CGContext, size: CGSize) {
        let duration = player.currentItem?.duration.seconds ?? 0
        let played = duration > 0 && duration.isFinite ? player.currentTime().seconds / duration : 0
        PlayerControlsLayout(size: size).draw(in: context, playing: player.rate != 0, played: played, volume: Double(player.volume))
    }

    private func tick() {
        let title = "\(name) - \(Self.clock(player.currentTime().seconds)) / \(Self.clock(player.currentItem?.duration.seconds ?? .nan))"
        let changed = state.withLock { state -> Bool in
            defer { state.title = title }
            return state.title != title
        }
        if changed { window.title = title }
        updateOverlay()
        // While paused no new picture comes to draw the controls over.
        if player.rate == 0 { window.setNeedsDisplay() }
    }

    /// A time as minutes and seconds (hours too when there are any); "--:--" when unknown.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let whole = Int(seconds)
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    private func showControls() {
        state.withLock { $0.controlsUntil = Date().addingTimeInterval(Self.controlsInterval) }
        updateOverlay()
        window.setNeedsDisplay()
    }

    private func togglePlaying() {
        if player.rate == 0 { player.play() } else { player.pause() }
    }

    private func seek(to seconds: Double) {
        let duration = player.currentItem?.duration.seconds ?? .infinity
        let target = min(max(0, seconds), duration.isFinite ? duration : .infinity)
        player.seek(to: CMTime(seconds: target, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero) { [weak self] _ in
            self?.window.setNeedsDisplay()
        }
    }

    private func handle(_ event: LinuxVideoWindow.Event) {
        switch event {
        case .closed:
            ticker.cancel()
            state.withLock { $0.closeHandler }?()
            return
        case .click(let point):
            let shown = controlsAreShown
            showControls()
            guard shown else { return }
            switch PlayerControlsLayout(size: window.size).part(at: point) {
            case .play: togglePlaying()
            case .seek(let fraction):
                let duration = player.currentItem?.duration.seconds ?? 0
                if duration.isFinite, duration > 0 { seek(to: fraction * duration) }
            case .volume(let volume): player.volume = Float(volume)
            case .fullScreen: window.isFullScreen.toggle()
            case .bar, .picture: break
            }
        case .key(.character(" ")):
            togglePlaying()
        case .key(.left), .key(.right):
            seek(to: player.currentTime().seconds + (event == .key(.left) ? -Self.seekInterval : Self.seekInterval))
        case .key(.up), .key(.down):
            player.volume = min(1, max(0, player.volume + (event == .key(.up) ? Self.volumeStep : -Self.volumeStep)))
        case .key(.character("f")):
            window.isFullScreen.toggle()
        case .key(.character("q")), .key(.escape):
            close()
            return
        default:
            return
        }
        if case .key = event { showControls() }
        updateOverlay()
        window.setNeedsDisplay()
    }
}
