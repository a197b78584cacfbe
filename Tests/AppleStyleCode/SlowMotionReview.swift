import AVFoundation

/// A slow-motion clip's review screen, as iOS apps write it: a player layer sized to the view,
/// shown once the first picture is ready for display, the clip played at half speed with its
/// pitch kept, a periodic time observer driving the scrubber, and a snapshot of the picture shown.
public final class SlowMotionReview: NSObject, @unchecked Sendable {
    public let player = AVPlayer()
    public let playerLayer: AVPlayerLayer
    private let lock = NSLock()
    private var readyObservation: NSKeyValueObservation?
    private var timeObserver: Any?
    private var ready = false
    private var scrubberTime = CMTime.zero

    public override init() {
        playerLayer = AVPlayerLayer(player: player)
        playerLayer.videoGravity = .resizeAspect
        super.init()
    }

    /// Whether the view shows the layer yet (it stays hidden until the first picture is ready).
    public var isShowingVideo: Bool { lock.withLock { ready } }

    /// Where the scrubber is.
    public var scrubberPosition: CMTime { lock.withLock { scrubberTime } }

    public func show(_ url: URL, in bounds: CGRect) {
        let item = AVPlayerItem(asset: AVURLAsset(url: url))
        item.audioTimePitchAlgorithm = .timeDomain
        player.replaceCurrentItem(with: item)
        playerLayer.frame = bounds
        readyObservation = playerLayer.observe(\.isReadyForDisplay, options: [.new]) { [weak self] _, change in
            guard change.newValue == true else { return }
            DispatchQueue.main.async { self?.lock.withLock { self?.ready = true } }
        }
        timeObserver = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 10), queue: .main) { [weak self] time in
            self?.lock.withLock { self?.scrubberTime = time }
        }
    }

    public func playSlowly() {
        player.playImmediately(atRate: 0.5)
    }

    /// The rectangle the picture fills in the view, for drawing a frame around it.
    public var pictureRect: CGRect { playerLayer.videoRect }

    /// The picture on screen, for a share sheet's thumbnail.
    public func snapshot() -> CVPixelBuffer? { playerLayer.displayedPixelBuffer() }

    public func close() {
        if let timeObserver { player.removeTimeObserver(timeObserver) }
        readyObservation?.invalidate()
        player.pause()
        player.replaceCurrentItem(with: nil)
    }
}
