import AVFoundation
import CoreGraphics
import Foundation

/// A window that plays a player's movie with the keys players on the desktop answer: space plays
/// and pauses, the left and right arrows seek 5 seconds back and on, the up and down arrows turn
/// the volume up and down, f fills the screen and gives the window back, q and escape close it.
///
/// Thread ownership: any thread; keys are answered on a queue of the window's own.
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

    private let queue = DispatchQueue(label: "LinuxPlayerWindow")
    private let closeHandler = LockedValue<(@Sendable () -> Void)?>(nil)

    /// Opens a window of `width` x `height` pixels titled `title` that shows `player`'s pictures,
    /// placed as `videoGravity` says.
    public init(player: AVPlayer, title: String, width: Int, height: Int, videoGravity: AVLayerVideoGravity = .resizeAspect) throws {
        self.player = player
        window = try LinuxVideoWindow(title: title, width: width, height: height)
        playerLayer = AVPlayerLayer(player: player)
        playerLayer.videoGravity = videoGravity
        window.show(playerLayer)
        window.setEventHandler({ [weak self] event in self?.handle(event) }, queue: queue)
    }

    deinit { window.close() }

    /// Calls `handler` once the window is closed, by its close button or by q or escape.
    public func setCloseHandler(_ handler: (@Sendable () -> Void)?) { closeHandler.withLock { $0 = handler } }

    /// Closes the window; the player goes on as it was.
    public func close() {
        guard window.isOpen else { return }
        window.close()
        closeHandler.withLock { $0 }?()
    }

    private func handle(_ event: LinuxVideoWindow.Event) {
        switch event {
        case .closed:
            closeHandler.withLock { $0 }?()
        case .key(.character(" ")):
            if player.rate == 0 { player.play() } else { player.pause() }
        case .key(.left), .key(.right):
            let step = event == .key(.left) ? -Self.seekInterval : Self.seekInterval
            let duration = player.currentItem?.duration.seconds ?? .infinity
            let target = min(max(0, player.currentTime().seconds + step), duration.isFinite ? duration : .infinity)
            player.seek(to: CMTime(seconds: target, preferredTimescale: 600))
        case .key(.up), .key(.down):
            let step = event == .key(.up) ? Self.volumeStep : -Self.volumeStep
            player.volume = min(1, max(0, player.volume + step))
        case .key(.character("f")):
            window.isFullScreen.toggle()
        case .key(.character("q")), .key(.escape):
            close()
        default:
            break
        }
    }
}
