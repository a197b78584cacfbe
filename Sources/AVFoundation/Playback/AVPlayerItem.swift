import CoreGraphics
import CoreMedia
import Foundation

/// An object that models the timing and presentation state of an asset during playback.
///
/// An item loads its asset when a player takes it, and its timeline belongs to that player:
/// `currentTime()` moves while the player plays it. Thread-safe; key-value observable
/// (`status`, `duration`, `presentationSize`).
open class AVPlayerItem: NSObject, _KeyValueObservable, @unchecked Sendable {
    /// The states an item can be in.
    public enum Status: Int, Sendable {
        /// The item has not tried to load its media yet.
        case unknown = 0
        /// The item can be played.
        case readyToPlay = 1
        /// The item cannot be played; `error` says why.
        case failed = 2
    }

    /// Posted when the item has played to its end time.
    public static let didPlayToEndTimeNotification = NSNotification.Name("AVPlayerItemDidPlayToEndTimeNotification")
    /// Posted when the item failed to play to its end time; the error is under `AVPlayerItemFailedToPlayToEndTimeErrorKey`.
    public static let failedToPlayToEndTimeNotification = NSNotification.Name("AVPlayerItemFailedToPlayToEndTimeNotification")
    /// Posted when the item's current time changed discontinuously, as a seek makes it.
    public static let timeJumpedNotification = NSNotification.Name("AVPlayerItemTimeJumpedNotification")
    /// Posted when some media did not arrive in time to continue playback.
    public static let playbackStalledNotification = NSNotification.Name("AVPlayerItemPlaybackStalledNotification")
    /// Posted when a new entry is added to the item's access log.
    public static let newAccessLogEntryNotification = NSNotification.Name("AVPlayerItemNewAccessLogEntryNotification")
    /// Posted when a new entry is added to the item's error log.
    public static let newErrorLogEntryNotification = NSNotification.Name("AVPlayerItemNewErrorLogEntryNotification")

    /// The registry of the item's key-value observations.
    @_spi(Plumbing) public let _observations = KeyValueObservationRegistry()

    /// The asset the item presents.
    public let asset: AVAsset
    /// The asset keys the item loads before it is ready to play.
    public let automaticallyLoadedAssetKeys: [String]

    struct State {
        var status = Status.unknown
        var error: (any Error)?
        var duration = CMTime.indefinite
        var presentationSize = CGSize.zero
        var clock = PlaybackClock()
        weak var player: AVPlayer?
        var outputs: [AVPlayerItemOutput] = []
        var tracks: [AVPlayerItemTrack] = []
        var algorithm = AVAudioTimePitchAlgorithm.spectral
        var forwardEnd = CMTime.invalid
        var reverseEnd = CMTime.invalid
        var preferredForwardBufferDuration: TimeInterval = 0
        var videoComposition: AVVideoComposition?
        var audioMix: AVAudioMix?
        var loading = false
        /// Told the status once loading settles it, on the loading thread.
        var settledWaiters: [@Sendable (Status) -> Void] = []
    }
    let state = LockedValue(State())

    /// Creates an item for an asset.
    public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: nil)
    }

    /// Creates an item for an asset, naming the keys to load before it is ready to play.
    public init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]?) {
        self.asset = asset
        self.automaticallyLoadedAssetKeys = automaticallyLoadedAssetKeys ?? ["duration", "tracks", "playable"]
        super.init()
    }

    /// Creates an item for an asset, naming the properties to load before it is ready to play.
    public convenience init(asset: AVAsset, automaticallyLoadedAssetKeys: [AVPartialAsyncProperty<AVAsset>]) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys.map(\.key))
    }

    /// Creates an item for the media at a URL.
    public convenience init(url URL: URL) {
        self.init(asset: AVURLAsset(url: URL))
    }

    // MARK: State

    /// Whether the item can be played.
    open var status: Status { state.withLock { $0.status } }
    /// Why the item failed, when its status is `.failed`.
    open var error: (any Error)? { state.withLock { $0.error } }
    /// The item's duration; indefinite until it is ready to play.
    open var duration: CMTime { state.withLock { $0.duration } }
    /// The size at which the item's pictures are shown; zero until known or without video.
    open var presentationSize: CGSize { state.withLock { $0.presentationSize } }
    /// The item's tracks, with whether each plays.
    open var tracks: [AVPlayerItemTrack] { state.withLock { $0.tracks } }
    /// The time ranges of the item's media that are loaded: all of a local file's.
    open var loadedTimeRanges: [NSValue] { readyRange.map { [NSValue(timeRange: $0)] } ?? [] }
    /// The time ranges the item can seek to: all of a local file's.
    open var seekableTimeRanges: [NSValue] { readyRange.map { [NSValue(timeRange: $0)] } ?? [] }
    private var readyRange: CMTimeRange? {
        state.withLock { $0.status == .readyToPlay && $0.duration.isNumeric ? CMTimeRange(start: .zero, duration: $0.duration) : nil }
    }
    /// Whether playback will likely keep up: a local file's always does once ready.
    open var isPlaybackLikelyToKeepUp: Bool { status == .readyToPlay }
    /// Whether the playback buffer is empty.
    open var isPlaybackBufferEmpty: Bool { status != .readyToPlay }
    /// Whether the playback buffer is full.
    open var isPlaybackBufferFull: Bool { status == .readyToPlay }
    /// How far ahead the player should buffer; 0 lets it choose.
    open var preferredForwardBufferDuration: TimeInterval {
        get { state.withLock { $0.preferredForwardBufferDuration } }
        set { state.withLock { $0.preferredForwardBufferDuration = newValue } }
    }

    /// The item's current time.
    open func currentTime() -> CMTime {
        state.withLock { state in Self.clamped(state.clock.now, state) }
    }

    /// The date of the current time, for items whose media carry dates; nil for files.
    open func currentDate() -> Date? { nil }

    /// A time kept within the item's playable range.
    static func clamped(_ time: CMTime, _ state: State) -> CMTime {
        guard state.status == .readyToPlay, state.duration.isNumeric else { return time }
        if time < .zero { return .zero }
        if time > state.duration { return state.duration }
        return time
    }

    // MARK: Playback settings

    /// How sound is played at rates other than 1: see the AV Foundation Programming Guide's table of algorithms.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { state.withLock { $0.algorithm } }
        set {
            state.withLock { $0.algorithm = newValue }
            player?.itemSettingsChanged(self)
        }
    }

    /// The time at which forward playback ends; invalid means the item's duration.
    open var forwardPlaybackEndTime: CMTime {
        get { state.withLock { $0.forwardEnd } }
        set {
            state.withLock { $0.forwardEnd = newValue }
            player?.itemSettingsChanged(self)
        }
    }

    /// The time at which reverse playback ends; invalid means zero.
    open var reversePlaybackEndTime: CMTime {
        get { state.withLock { $0.reverseEnd } }
        set {
            state.withLock { $0.reverseEnd = newValue }
            player?.itemSettingsChanged(self)
        }
    }

    /// The video composition the item's pictures are made with: its instructions compose the
    /// pictures video outputs and player layers show (from the next move of the player on).
    open var videoComposition: AVVideoComposition? {
        get { state.withLock { $0.videoComposition } }
        set { state.withLock { $0.videoComposition = newValue?.copy() as? AVVideoComposition } }
    }

    /// The tracks' volumes over time while the item plays.
    open var audioMix: AVAudioMix? {
        get { state.withLock { $0.audioMix } }
        set {
            state.withLock { $0.audioMix = newValue?.copy() as? AVAudioMix }
            player?.itemSettingsChanged(self)
        }
    }

    /// The end of forward playback, once the item is ready.
    var forwardEnd: CMTime {
        state.withLock { state in
            state.forwardEnd.isNumeric && state.forwardEnd < state.duration ? state.forwardEnd : state.duration
        }
    }

    /// The end of reverse playback.
    var reverseEnd: CMTime {
        state.withLock { state in state.reverseEnd.isNumeric && state.reverseEnd > .zero ? state.reverseEnd : .zero }
    }

    // MARK: Capabilities

    /// Whether the item plays faster than 1 forwards: every local file does.
    open var canPlayFastForward: Bool { status == .readyToPlay }
    /// Whether the item plays between 0 and 1 forwards.
    open var canPlaySlowForward: Bool { status == .readyToPlay }
    /// Whether the item plays at -1.
    open var canPlayReverse: Bool { status == .readyToPlay }
    /// Whether the item plays between -1 and 0.
    open var canPlaySlowReverse: Bool { status == .readyToPlay }
    /// Whether the item plays faster than -1 backwards.
    open var canPlayFastReverse: Bool { status == .readyToPlay }
    /// Whether the item steps forwards a frame at a time.
    open var canStepForward: Bool { status == .readyToPlay }
    /// Whether the item steps backwards a frame at a time.
    open var canStepBackward: Bool { status == .readyToPlay }

    /// Moves the current time by a number of video frames (negative: backwards), while paused.
    open func step(byCount stepCount: Int) {
        guard let player, status == .readyToPlay else { return }
        let frame = asset.videoFrameDuration
        player.seek(to: currentTime() + CMTimeMultiply(frame, multiplier: Int32(clamping: stepCount)), toleranceBefore: .zero, toleranceAfter: .zero)
    }

    // MARK: Seeking

    /// Moves the item's current time, once it plays in a player; `completionHandler` says whether the seek finished.
    open func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity, completionHandler: completionHandler)
    }

    /// Moves the item's current time within tolerances; `completionHandler` says whether the seek finished.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        guard let player, player.currentItem === self else {
            completionHandler?(false)
            return
        }
        player.seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter, completionHandler: completionHandler ?? { _ in })
    }

    /// Moves the item's current time, returning whether the seek finished.
    open func seek(to time: CMTime) async -> Bool {
        await withCheckedContinuation { continuation in seek(to: time) { continuation.resume(returning: $0) } }
    }

    /// Moves the item's current time within tolerances, returning whether the seek finished.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) async -> Bool {
        await withCheckedContinuation { continuation in
            seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) { continuation.resume(returning: $0) }
        }
    }

    /// Stops any seek in progress, whose completion handlers are told it did not finish.
    open func cancelPendingSeeks() { player?.cancelPendingSeeks() }

    // MARK: Outputs

    /// The outputs that take the item's media.
    open var outputs: [AVPlayerItemOutput] { state.withLock { $0.outputs } }

    /// Adds an output that takes the item's media.
    open func add(_ output: AVPlayerItemOutput) {
        let added = state.withLock { state -> Bool in
            guard !state.outputs.contains(where: { $0 === output }) else { return false }
            state.outputs.append(output)
            return true
        }
        if added { player?.outputAdded(output, to: self) }
    }

    /// Removes an output.
    open func remove(_ output: AVPlayerItemOutput) {
        state.withLock { $0.outputs.removeAll { $0 === output } }
        output.detach()
    }

    // MARK: Loading, for the player

    /// The player that plays the item.
    var player: AVPlayer? { state.withLock { $0.player } }

    /// Takes the item into a player; an item plays in one player at a time.
    func attach(to player: AVPlayer) {
        let clock = player.clock
        let other = state.withLock { state -> AVPlayer? in
            if let current = state.player, current !== player { return current }
            state.player = player
            state.clock.follow(clock)
            return nil
        }
        if other != nil {
            ProgrammingError.invalidArgument("An AVPlayerItem cannot be associated with more than one instance of AVPlayer")
        }
    }

    /// Leaves the player.
    func detach(from player: AVPlayer) {
        state.withLock { state in
            if state.player === player {
                state.player = nil
                state.clock.set(rate: 0)
            }
        }
        for output in outputs { output.detach() }
    }

    /// Loads the asset (once), then tells `done` on the calling thread; status changes are observable.
    func load() {
        let start = state.withLock { state -> Bool in
            guard state.status == .unknown, !state.loading else { return false }
            state.loading = true
            return true
        }
        guard start else { return }
        let outcome: Result<AssetContents, Error> = Result { try asset.loadedContents() }
        var changed: [AnyKeyPath] = [\AVPlayerItem.status]
        let waiters = state.withLock { state -> [@Sendable (Status) -> Void] in
            defer { state.settledWaiters = [] }
            state.loading = false
            switch outcome {
            case .success(let contents) where contents.isPlayable:
                state.duration = contents.duration
                state.tracks = contents.tracks.map { AVPlayerItemTrack(assetTrack: $0) }
                if let video = contents.tracks.first(where: { $0.mediaType == .video }) {
                    let size = video.naturalSize.applying(video.preferredTransform)
                    state.presentationSize = CGSize(width: abs(size.width), height: abs(size.height))
                }
                state.status = .readyToPlay
            case .success:
                state.error = AVError(.failedToLoadMediaData, userInfo: [NSLocalizedDescriptionKey: "No track of \(asset.describedName) can be played here."])
                state.status = .failed
            case .failure(let error):
                state.error = error
                state.status = .failed
            }
            return state.settledWaiters
        }
        let settled = status
        if settled == .readyToPlay { changed += [\AVPlayerItem.duration, \AVPlayerItem.presentationSize] }
        _observations.didChange(changed)
        for waiter in waiters { waiter(settled) }
    }

    /// Tells `waiter` the status once loading has settled it: at once when it has, else on the loading thread.
    func whenSettled(_ waiter: @escaping @Sendable (Status) -> Void) {
        let settled = state.withLock { state -> Status? in
            if state.status == .unknown {
                state.settledWaiters.append(waiter)
                return nil
            }
            return state.status
        }
        if let settled { waiter(settled) }
    }

    /// The item's tracks of one type, once ready.
    func assetTracks(_ type: AVMediaType) -> [AVAssetTrack] {
        tracks.map(\.assetTrack).compactMap { $0 }.filter { $0.mediaType == type }
    }
}

/// An object that represents a track of an item in playback, and whether it plays.
open class AVPlayerItemTrack: NSObject, @unchecked Sendable {
    /// The asset track it presents.
    open private(set) var assetTrack: AVAssetTrack?
    private let enabled = LockedValue(true)

    init(assetTrack: AVAssetTrack) {
        self.assetTrack = assetTrack
        super.init()
    }

    /// Whether the track plays.
    open var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }

    /// The frame rate the track is presented at: its nominal rate.
    open var currentVideoFrameRate: Float { assetTrack?.nominalFrameRate ?? 0 }
}

/// The key of the error in a failed-to-play-to-end notification's user info.
public let AVPlayerItemFailedToPlayToEndTimeErrorKey = "AVPlayerItemFailedToPlayToEndTimeErrorKey"

extension NSNotification.Name {
    /// Posted when an item has played to its end time.
    public static let AVPlayerItemDidPlayToEndTime = AVPlayerItem.didPlayToEndTimeNotification
    /// Posted when an item failed to play to its end time.
    public static let AVPlayerItemFailedToPlayToEndTime = AVPlayerItem.failedToPlayToEndTimeNotification
    /// Posted when an item's current time changed discontinuously.
    public static let AVPlayerItemTimeJumped = AVPlayerItem.timeJumpedNotification
    /// Posted when some media did not arrive in time to continue playback.
    public static let AVPlayerItemPlaybackStalled = AVPlayerItem.playbackStalledNotification
}

extension AVAsset {
    /// The duration of one of the asset's video frames (a 30th of a second without video).
    var videoFrameDuration: CMTime {
        guard let track = (try? loadedContents())?.tracks.first(where: { $0.mediaType == .video }) else { return CMTime(value: 1, timescale: 30) }
        let duration = track.minFrameDuration
        return duration.isNumeric && duration > .zero ? duration : CMTime(value: 1, timescale: 30)
    }

    /// How the asset is named in messages: its file's name.
    var describedName: String { sourceURL?.lastPathComponent ?? "the asset" }
}
