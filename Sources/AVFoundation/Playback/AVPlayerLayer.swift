import CaptureDevices
import CoreMedia
import CoreVideo
import Foundation
import QuartzCore

/// An object that presents the visual contents of a player object.
///
/// Linux has no compositor to draw into, so the layer is what Apple's is to an app's code (its
/// player, gravity, video rect, readiness and displayed picture) plus the companion the capture
/// preview layer has: the picture the layer shows, turned by the track's preferred transform and
/// scaled for the layer's bounds and gravity, handed to whoever draws it (`linuxPreviewFrames`,
/// `setLinuxPreviewFrameHandler(_:queue:)`). The layer takes the current item's pictures as a 60 Hz
/// display would, through a video output of its own that follows the player from item to item;
/// a slow drawer misses pictures and never slows the player.
///
/// Thread ownership: any thread sets the properties; pictures are taken and drawn on the layer's
/// own queue, and handed to the drawer's.
open class AVPlayerLayer: CALayer, _KeyValueObservable, @unchecked Sendable {
    /// The registry of the layer's key-value observations.
    @_spi(Plumbing) public let _observations = KeyValueObservationRegistry()

    /// How often the layer looks for a new picture: a 60 Hz display's refresh.
    static let refreshInterval = 1.0 / 60

    private struct State {
        var player: AVPlayer?
        var output: AVPlayerItemVideoOutput?
        var gravity: AVLayerVideoGravity = .resizeAspect
        var attributes: [String: Any]?
        /// The picture shown now, as the player's output made it.
        var displayed: CVPixelBuffer?
        /// The geometry of the last picture handed to the drawers.
        var drawnGeometry: PreviewGeometry?
        var currentItemObservation: NSKeyValueObservation?
    }
    private let state = LockedValue(State())
    private let drawers = LayerFrameDrawers()
    /// Where pictures are taken and drawn, one at a time.
    private let rendering = DispatchQueue(label: "AVPlayerLayer")
    private let refresh: DispatchSourceTimer
    private let renderer = PreviewFrameRenderer()

    /// Creates a layer with no player.
    public override init() {
        refresh = DispatchSource.makeTimerSource(queue: rendering)
        super.init()
        startRefreshing()
    }

    /// Creates a layer that shows a player's pictures.
    public convenience init(player: AVPlayer?) {
        self.init()
        self.player = player
    }

    /// Creates a copy of a layer's geometry and gravity, showing the same player.
    public override init(layer: Any) {
        refresh = DispatchSource.makeTimerSource(queue: rendering)
        super.init(layer: layer)
        startRefreshing()
        if let other = layer as? AVPlayerLayer {
            videoGravity = other.videoGravity
            pixelBufferAttributes = other.pixelBufferAttributes
            player = other.player
        }
    }

    deinit {
        refresh.cancel()
        let (player, output) = state.withLock { ($0.player, $0.output) }
        if let player, let output { player.removeLayerOutput(output) }
    }

    private func startRefreshing() {
        refresh.setEventHandler { [weak self] in self?.takePicture() }
        refresh.schedule(deadline: .distantFuture)
        refresh.activate()
    }

    /// The player whose pictures the layer shows, held strongly.
    open var player: AVPlayer? {
        get { state.withLock { $0.player } }
        set {
            let (old, oldOutput, oldObservation) = state.withLock { state in
                defer {
                    state.player = newValue
                    state.output = nil
                    state.displayed = nil
                    state.currentItemObservation = nil
                }
                return (state.player, state.output, state.currentItemObservation)
            }
            // Ended outside the lock: ending it takes the old player's observation lock.
            oldObservation?.invalidate()
            if let old, let oldOutput { old.removeLayerOutput(oldOutput) }
            if let newValue { follow(newValue) }
            // Refreshes only while there is a player to show.
            if newValue != nil {
                refresh.schedule(deadline: .now(), repeating: Self.refreshInterval, leeway: .milliseconds(2))
            } else {
                refresh.schedule(deadline: .distantFuture)
            }
            _observations.didChange([\AVPlayerLayer.player, \AVPlayerLayer.isReadyForDisplay, \AVPlayerLayer.videoRect])
        }
    }

    /// Gives the player a video output for this layer, in the format the attributes ask for.
    private func follow(_ player: AVPlayer) {
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: pixelBufferAttributes)
        // A new item shows nothing until its first picture.
        let observation = player.observe(\.currentItem) { [weak self] _, _ in self?.forgetPicture() }
        let current = state.withLock { state -> Bool in
            guard state.player === player else { return false }
            state.output = output
            state.currentItemObservation = observation
            return true
        }
        if current { player.addLayerOutput(output) }
    }

    private func forgetPicture() {
        let had = state.withLock { state -> Bool in
            defer { state.displayed = nil }
            return state.displayed != nil
        }
        if had { _observations.didChange([\AVPlayerLayer.isReadyForDisplay, \AVPlayerLayer.videoRect]) }
    }

    /// How the video is displayed within the layer's bounds.
    open var videoGravity: AVLayerVideoGravity {
        get { state.withLock { $0.gravity } }
        set {
            state.withLock { $0.gravity = newValue }
            _observations.didChange([\AVPlayerLayer.videoGravity, \AVPlayerLayer.videoRect])
        }
    }

    /// The attributes of the pixel buffers the layer displays ('420v' unless they say '420f' or BGRA).
    open var pixelBufferAttributes: [String: Any]? {
        get { state.withLock { $0.attributes } }
        set {
            let player = state.withLock { state -> AVPlayer? in
                state.attributes = newValue
                return state.player
            }
            // The output is remade in the new format.
            if let player, self.player === player { self.player = player }
        }
    }

    /// Whether the first picture of the current item is ready for display.
    open var isReadyForDisplay: Bool { state.withLock { $0.displayed != nil } }

    /// Where the picture is in the layer's bounds, as the gravity places it; zero while no picture is shown.
    open var videoRect: CGRect {
        guard let geometry = displayGeometry() else { return .zero }
        return geometry.videoRect
    }

    /// The picture the layer displays now, in the format of `pixelBufferAttributes`; nil before the first.
    open func displayedPixelBuffer() -> CVPixelBuffer? {
        // As of the last refresh: safe to ask from an observer of `isReadyForDisplay`, which runs on the layer's queue.
        state.withLock { $0.displayed }
    }

    // MARK: Frames for drawing (Linux)

    /// Calls `handler` on `queue` with each new picture as the layer shows it (BGRA, turned by the
    /// track's preferred transform, scaled for the bounds and gravity, the host time it was due
    /// attached under `kCVBufferTimeValueKey` and `kCVBufferTimeScaleKey`); a picture arriving while
    /// the last is still being handled is skipped. Pass nil to stop.
    public func setLinuxPreviewFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue = .main) {
        drawers.setHandler(handler, queue: queue)
    }

    /// Calls `handler` as `setLinuxPreviewFrameHandler(_:queue:)` does; a frame the layer shows upright
    /// at its own size that is BT.601 Y'CbCr comes as JPEG's own samples, full-range planar 4:2:0
    /// ('f420'), for an encoder to take with no trip through R'G'B'.
    package func setLinuxPreviewFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue, allowingJPEGSamples: Bool) {
        drawers.setHandler(handler, queue: queue, allowingJPEGSamples: allowingJPEGSamples)
    }

    /// The pictures as the layer shows them, newest first served: a slow reader sees the newest, never a backlog.
    public var linuxPreviewFrames: AsyncStream<CVPixelBuffer> { drawers.frames }

    // MARK: Taking and drawing pictures

    /// The geometry of the shown picture in the layer now, or nil while none is shown.
    private func displayGeometry() -> PreviewGeometry? {
        let (player, picture, gravity) = state.withLock { ($0.player, $0.displayed, $0.gravity) }
        guard let picture, let item = player?.currentItem, let track = item.assetTracks(.video).first else { return nil }
        let turn = track.preferredTransform.quarterTurn
        return PreviewGeometry(
            sensorSize: CGSize(width: CVPixelBufferGetWidth(picture), height: CVPixelBufferGetHeight(picture)),
            rotationDegrees: turn.degrees, mirrored: turn.mirrored, gravity: gravity, bounds: bounds)
    }

    /// On the layer's queue, at each refresh: takes the picture due now, if a new one is, and
    /// draws it for the drawers unless they are still busy with the last; with nothing new due,
    /// draws the shown picture again for a new viewer or a changed gravity or size.
    private func takePicture() {
        guard let (player, output) = state.withLock({ state in state.player.flatMap { player in state.output.map { (player, $0) } } }),
            let item = player.currentItem
        else { return }
        let host = CACurrentMediaTime()
        let itemTime = output.itemTime(forHostTime: host)
        var shownTime = CMTime.invalid
        if itemTime.isValid, output.hasNewPixelBuffer(forItemTime: itemTime),
            let picture = output.copyPixelBuffer(forItemTime: itemTime, itemTimeForDisplay: &shownTime)
        {
            let first = state.withLock { state -> Bool in
                defer { state.displayed = picture }
                return state.displayed == nil
            }
            if first { _observations.didChange([\AVPlayerLayer.isReadyForDisplay, \AVPlayerLayer.videoRect]) }
            guard let drawing = drawers.beginDrawing() else { return }
            // The host time the picture became due: its item time on the item's clock, never later than now.
            let due =
                item.state.withLock { clock in clock.clock.host(reaching: shownTime).map { clock.clock.hostTime(atSourceTime: $0) } }
                .map { min($0, host) } ?? host
            draw(picture, due: due, drawing: drawing)
        } else {
            guard let (picture, drawn, gravity) = state.withLock({ state in state.displayed.map { ($0, state.drawnGeometry, state.gravity) } }),
                let drawing = drawers.beginDrawing()
            else { return }
            // Only the gravity and bounds change between pictures: compared without working out the whole geometry.
            guard drawing.isForNewViewer || drawn?.gravity != gravity || drawn?.bounds != bounds else {
                drawers.deliver(nil)
                return
            }
            draw(picture, due: host, drawing: drawing)
        }
    }

    /// Draws a picture for the drawers at the layer's geometry now and hands it over, unless the
    /// gravity or bounds change while it is drawn; the next refresh then draws it again.
    private func draw(_ picture: CVPixelBuffer, due: Double, drawing: LayerFrameDrawers.Drawing) {
        guard let geometry = displayGeometry(), let drawn = renderer.render(picture, geometry: geometry, allowingJPEGSamples: drawing.allowsJPEGSamples)
        else {
            drawers.deliver(nil)
            return
        }
        let dueTime = CMTime(seconds: due, preferredTimescale: 1_000_000_000)
        drawn.attachTime(value: dueTime.value, timescale: dueTime.timescale)
        let handed = drawers.deliver(drawn) { state.withLock { $0.gravity } == geometry.gravity && bounds == geometry.bounds }
        state.withLock { $0.drawnGeometry = handed ? geometry : nil }
    }
}
