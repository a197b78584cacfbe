import CoreMedia
import CoreVideo
import Foundation

/// An output that gives an item's pictures as pixel buffers, for the moment they should be shown.
///
/// A client asks, typically once per display refresh, for the item time of the next refresh
/// (`itemTime(forHostTime:)`), then whether a new picture is due by then
/// (`hasNewPixelBuffer(forItemTime:)`) and for the picture (`copyPixelBuffer(forItemTime:itemTimeForDisplay:)`).
/// Pictures are decoded on a thread of the output's own, a few ahead of the item's time, in the
/// pixel format the attributes ask for ('420v' unless they say otherwise; '420f' and BGRA too),
/// at the size they ask for. Pictures nobody asks for in time are dropped, never queued without
/// bound; a client that stops asking holds a few pictures and no more.
open class AVPlayerItemVideoOutput: AVPlayerItemOutput, @unchecked Sendable {
    private let settings: [String: Any]
    private struct Delegation: @unchecked Sendable {
        weak var delegate: (any AVPlayerItemOutputPullDelegate)?
        var queue: DispatchQueue?
        var notifyOnNextPicture = false
    }
    private let delegation = LockedValue(Delegation())
    /// The feed following the player, the direction it reads in and the player's last move it followed.
    private struct Following {
        var feed: PictureFeed?
        var forward = true
        var move = 0
    }
    private let following = LockedValue(Following())

    /// Creates an output with pixel buffer attributes (pixel format, width, height); nil takes the decoder's size in '420v'.
    public init(pixelBufferAttributes: [String: Any]?) {
        settings = Self.readerSettings(pixelBufferAttributes ?? [:])
        super.init()
    }

    /// Creates an output with output settings: pixel buffer attributes, and video settings such as colour properties.
    public init(outputSettings: [String: Any]?) {
        settings = Self.readerSettings(outputSettings ?? [:])
        super.init()
    }

    private static func readerSettings(_ attributes: [String: Any]) -> [String: Any] {
        let formatKey = kCVPixelBufferPixelFormatTypeKey as String
        var format = (attributes[formatKey] as? NSNumber)?.uint32Value ?? (attributes[formatKey] as? OSType)
        if format == nil, let formats = attributes[formatKey] as? [Any] {
            format = formats.lazy.compactMap { ($0 as? NSNumber)?.uint32Value ?? ($0 as? OSType) }
                .first {
                    [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA].contains($0)
                }
        }
        let chosen = format ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        guard [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA].contains(chosen)
        else {
            ProgrammingError.invalidArgument(
                "-[AVPlayerItemVideoOutput initWithPixelBufferAttributes:] pixel format \(chosen) is not supported: use '420v', '420f' or 'BGRA'")
        }
        var settings: [String: Any] = [formatKey: NSNumber(value: chosen)]
        for key in [kCVPixelBufferWidthKey as String, kCVPixelBufferHeightKey as String] where attributes[key] != nil {
            settings[key] = attributes[key]
        }
        return settings
    }

    /// Sets the delegate told when pictures are coming or were flushed, and the queue it is told on.
    open func setDelegate(_ delegate: (any AVPlayerItemOutputPullDelegate)?, queue delegateQueue: DispatchQueue?) {
        nonisolated(unsafe) let delegate = delegate
        delegation.withLock {
            $0.delegate = delegate; $0.queue = delegateQueue
        }
    }

    /// The delegate.
    open var delegate: (any AVPlayerItemOutputPullDelegate)? { delegation.withLock { $0.delegate } }
    /// The queue the delegate is told on.
    open var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// Asks that the delegate be told once when the next picture is available.
    open func requestNotificationOfMediaDataChange(withAdvanceInterval interval: TimeInterval) {
        let ready = following.withLock { $0.feed?.hasPictures ?? false }
        if ready { tellDelegate { $0.outputMediaDataWillChange(self) } } else { delegation.withLock { $0.notifyOnNextPicture = true } }
    }

    /// Whether a picture not yet copied is due at an item time.
    open func hasNewPixelBuffer(forItemTime itemTime: CMTime) -> Bool {
        guard let feed = following.withLock({ $0.feed }) else { return false }
        return feed.hasDue(at: itemTime)
    }

    /// The picture to show at an item time, if one not yet copied is due; its own time goes to
    /// `outItemTimeForDisplay`. Pictures due earlier are passed over.
    open func copyPixelBuffer(forItemTime itemTime: CMTime, itemTimeForDisplay outItemTimeForDisplay: UnsafeMutablePointer<CMTime>?) -> CVPixelBuffer? {
        guard let feed = following.withLock({ $0.feed }), let sample = feed.take(dueAt: itemTime) else { return nil }
        outItemTimeForDisplay?.pointee = sample.presentationTimeStamp
        return sample.imageBuffer
    }

    // MARK: Following the player

    override func detach() {
        super.detach()
        following.withLock { following in
            following.feed?.stop()
            following = Following()
        }
    }

    override func playerMoved(time: CMTime, rate: Double, jumped: Bool, timeJumped: Bool, move: Int) {
        guard let item, let track = item.assetTracks(.video).first else { return }
        // Under the lock from the decision to the swap, so feeds are made in the order of the moves.
        let (feed, old) = following.withLock { following -> (PictureFeed?, PictureFeed?) in
            guard move > following.move else { return (nil, nil) }
            // Paused, the pictures keep the direction they were read in: a pause after backwards
            // play does not start reading forwards again (nor give the picture shown again).
            let forward = rate == 0 ? following.feed == nil || following.forward : rate > 0
            following.move = move
            let restart = jumped || following.forward != forward || following.feed == nil
            following.forward = forward
            guard restart else {
                following.feed?.wake()
                return (nil, nil)
            }
            let feed = PictureFeed(
                asset: item.asset, track: track, settings: settings, from: time,
                end: forward ? item.forwardEnd : item.reverseEnd, forward: forward, composition: item.videoComposition,
                clock: { [weak item] in item?.state.withLock { (AVPlayerItem.clamped($0.clock.now, $0), $0.clock.rate) } ?? (.zero, 0) },
                arrived: { [weak self] in self?.pictureArrived() })
            let old = following.feed
            following.feed = feed
            return (feed, old)
        }
        old?.stop()
        feed?.start()
        if old != nil { tellDelegate { $0.outputSequenceWasFlushed(self) } }
    }

    /// Whether every picture due at an item time has been decoded (or there are no more to come).
    func hasDecodedEverythingDue(atItemTime time: CMTime) -> Bool {
        following.withLock { $0.feed }?.isCaughtUp(at: time) ?? true
    }

    override func waitForMedia(timeout: Double) {
        following.withLock { $0.feed }?.waitForFirst(timeout: timeout)
    }

    private func pictureArrived() {
        let notify = delegation.withLock { state -> Bool in
            defer { state.notifyOnNextPicture = false }
            return state.notifyOnNextPicture
        }
        if notify { tellDelegate { $0.outputMediaDataWillChange(self) } }
    }

    private func tellDelegate(_ call: @escaping @Sendable (any AVPlayerItemOutputPullDelegate) -> Void) {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return }
        nonisolated(unsafe) let target = delegate
        (queue ?? .main).async { call(target) }
    }
}
