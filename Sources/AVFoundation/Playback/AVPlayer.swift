import CoreMedia
import Foundation

/// An object that controls the playback of one item: its rate, its time and its sound.
///
/// Time runs on the host clock (the one `CACurrentMediaTime()` reads), or the `sourceClock`, at the player's rate:
/// 1.0 is normal speed, 0.5 half speed, 5.0 five times faster, negative rates play backwards.
/// Sound goes to the sound server (PulseAudio, or PipeWire through pipewire-pulse) through the
/// item's `audioTimePitchAlgorithm`; with no server, playback runs silently on the host clock.
/// Pictures go to the item's `AVPlayerItemVideoOutput`s.
///
/// Thread ownership: thread-safe. The player's own serial queue keeps time (ends of items, time
/// observers); observers' blocks run on the queues they were added with, seek completion handlers
/// on the player's queue, key-value changes on the thread that made them.
open class AVPlayer: NSObject, _KeyValueObservable, @unchecked Sendable {
    /// Whether a player can play.
    public enum Status: Int, Sendable {
        /// The player's state is not known yet.
        case unknown = 0
        /// The player can play items.
        case readyToPlay = 1
        /// The player cannot play any more; `error` says why.
        case failed = 2
    }

    /// Whether playback is under way, waiting, or paused.
    public enum TimeControlStatus: Int, Sendable {
        /// The player is paused.
        case paused = 0
        /// The player waits, at a rate other than zero, for something it needs; `reasonForWaitingToPlay` says what.
        case waitingToPlayAtSpecifiedRate = 1
        /// The player plays.
        case playing = 2
    }

    /// Why a player waits to play.
    public struct WaitingReason: RawRepresentable, Hashable, Sendable {
        /// The reason's name.
        public let rawValue: String
        /// Creates a reason from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The player waits so that playback does not stall.
        public static let toMinimizeStalls = WaitingReason(rawValue: "AVPlayerWaitingToMinimizeStallsReason")
        /// The player waits while it learns how fast its item's media arrive (here: while the item loads).
        public static let evaluatingBufferingRate = WaitingReason(rawValue: "AVPlayerWaitingWhileEvaluatingBufferingRateReason")
        /// The player has no item it can play.
        public static let noItemToPlay = WaitingReason(rawValue: "AVPlayerWaitingWithNoItemToPlayReason")
    }

    /// What a player does when its item reaches its end.
    public enum ActionAtItemEnd: Int, Sendable {
        /// Advance to the next item, if there is one (queue players only).
        case advance = 0
        /// Pause.
        case pause = 1
        /// Do nothing.
        case none = 2
    }

    /// Posted when the player's rate changes.
    public static let rateDidChangeNotification = NSNotification.Name("AVPlayerRateDidChangeNotification")

    /// The registry of the player's key-value observations.
    @_spi(Plumbing) public let _observations = KeyValueObservationRegistry()

    struct State {
        var allowsExternalPlayback = true
        var items: [AVPlayerItem] = []
        var rate: Float = 0
        var defaultRate: Float = 1
        var timeControlStatus = TimeControlStatus.paused
        var waitingReason: WaitingReason?
        var actionAtItemEnd: ActionAtItemEnd
        var volume: Float = 1
        var isMuted = false
        var automaticallyWaitsToMinimizeStalling = true
        var periodic: [PeriodicTimeObserver] = []
        var boundary: [BoundaryTimeObserver] = []
        /// The item time the last evaluation saw, for boundary crossings.
        var lastEvaluated = CMTime.invalid
        /// Whether the current item's end was reached and reported (until it moves away from it).
        var endReported = false
        var seekGeneration = 0
        /// Counts updates of the item's time and rate, which outputs follow in order.
        var moves = 0
        /// Prerolls waiting for their item, by number.
        var prerolls = 0
        var pendingPrerolls: [Int: @Sendable (Bool) -> Void] = [:]
        var pendingSeeks: [@Sendable (Bool) -> Void] = []
        var sound: PlayerSound?
        /// The outputs of the layers that show the player, which follow whatever item is current.
        var layerOutputs: [AVPlayerItemVideoOutput] = []
        /// The rate and time the sound was last started for.
        var soundKey: (rate: Double, item: ObjectIdentifier?)?
        /// The clock item time moves by, when it is not the host clock.
        var sourceClock: CMClock?
        /// The key of the engine's handler on a manual source clock.
        var advanceHandler: Int?
    }
    let state: LockedValue<State>
    /// Keeps time: ends of items and time observers.
    let engine = DispatchQueue(label: "AVPlayer")
    let timer: DispatchSourceTimer

    /// Creates a player with no item.
    public override init() {
        state = LockedValue(State(actionAtItemEnd: .pause))
        timer = DispatchSource.makeTimerSource(queue: engine)
        super.init()
        startTimer()
    }

    /// Creates a player for one item.
    public convenience init(playerItem item: AVPlayerItem?) {
        self.init()
        if let item { replaceCurrentItem(with: item) }
    }

    /// Creates a player for the media at a URL.
    public convenience init(url URL: URL) {
        self.init(playerItem: AVPlayerItem(url: URL))
    }

    init(items: [AVPlayerItem], actionAtItemEnd: ActionAtItemEnd) {
        state = LockedValue(State(actionAtItemEnd: actionAtItemEnd))
        timer = DispatchSource.makeTimerSource(queue: engine)
        super.init()
        startTimer()
        for item in items { item.attach(to: self) }
        state.withLock { $0.items = items }
        for item in items { prepare(item) }
    }

    private func startTimer() {
        timer.setEventHandler { [weak self] in self?.evaluate() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    deinit {
        timer.cancel()
        let (items, sound, clock, handler) = state.withLock { ($0.items, $0.sound, $0.sourceClock, $0.advanceHandler) }
        if let clock, let handler { clock.removeAdvanceHandler(handler) }
        sound?.stop()
        for item in items { item.detach(from: self) }
    }

    // MARK: Status

    /// Whether the player can play: ready from its creation.
    open var status: Status { .readyToPlay }
    /// Why the player failed; nil while it has not.
    open var error: (any Error)? { nil }
    /// Whether playback is under way, waiting, or paused.
    open var timeControlStatus: TimeControlStatus { state.withLock { $0.timeControlStatus } }
    /// Why the player waits, while `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`.
    open var reasonForWaitingToPlay: WaitingReason? { state.withLock { $0.waitingReason } }
    /// Whether the player waits for enough media before it plays: a local file needs no wait.
    open var automaticallyWaitsToMinimizeStalling: Bool {
        get { state.withLock { $0.automaticallyWaitsToMinimizeStalling } }
        set { state.withLock { $0.automaticallyWaitsToMinimizeStalling = newValue } }
    }

    /// Whether the player may switch to external playback: there is no AirPlay on Linux, so
    /// playback is never external, whatever this allows.
    open var allowsExternalPlayback: Bool {
        get { state.withLock { $0.allowsExternalPlayback } }
        set { state.withLock { $0.allowsExternalPlayback = newValue } }
    }
    /// Whether the player is playing to an external device: never, on Linux.
    open var isExternalPlaybackActive: Bool { false }

    // MARK: The clock

    /// A clock the player uses for item time bases; nil for the host clock.
    ///
    /// Item time moves by this clock from the moment it is set, keeping the time it has reached.
    /// The sound still plays at the sound server's pace, so a clock that is not the host clock's
    /// pace lets it drift, as Apple warns for a clock of another device.
    open var sourceClock: CMClock? {
        get { state.withLock { $0.sourceClock } }
        set { follow(newValue) }
    }

    /// The host clock for item time bases; the older name of `sourceClock`.
    @available(*, deprecated, renamed: "sourceClock")
    open var masterClock: CMClock? {
        get { sourceClock }
        set { sourceClock = newValue }
    }

    /// The clock item time moves by now.
    var clock: CMClock { state.withLock { $0.sourceClock } ?? .hostTimeClock }

    /// Moves the player's items to a clock; a manual clock wakes the engine each time it moves,
    /// where the host clock has the engine's timer.
    private func follow(_ newClock: CMClock?) {
        let handler = newClock?.whenAdvanced { [weak self] in
            guard let self else { return }
            self.engine.async { [weak self] in self?.evaluate() }
        }
        let (old, oldHandler, items) = state.withLock { state in
            defer { state.sourceClock = newClock; state.advanceHandler = handler }
            return (state.sourceClock, state.advanceHandler, state.items)
        }
        if let old, let oldHandler { old.removeAdvanceHandler(oldHandler) }
        for item in items { item.state.withLock { $0.clock.follow(newClock ?? .hostTimeClock) } }
        engine.async { [weak self] in self?.evaluate() }
    }

    // MARK: The current item

    /// The item the player plays.
    open var currentItem: AVPlayerItem? { state.withLock { $0.items.first } }

    /// Replaces the item the player plays; the new item starts where its time is, at the player's rate.
    open func replaceCurrentItem(with item: AVPlayerItem?) {
        let old = state.withLock { state -> [AVPlayerItem] in
            let old = state.items
            state.items = item.map { [$0] } ?? []
            return old
        }
        if let item, !old.contains(where: { $0 === item }) { item.attach(to: self) }
        for gone in old where gone !== item { gone.detach(from: self) }
        currentItemChanged()
    }

    /// Starts the current item: its loading, then its time and media.
    func currentItemChanged() {
        state.withLock { state in
            state.endReported = false
            state.lastEvaluated = .invalid
            state.soundKey = nil
        }
        notify([\AVPlayer.currentItem])
        let item = currentItem
        for output in state.withLock({ $0.layerOutputs }) {
            output.detach()
            if let item { output.attach(to: item) }
        }
        if let item {
            for output in item.outputs { output.attach(to: item) }
            prepare(item)
        }
        update(jumped: true)
    }

    /// Loads an item off the caller's thread; when it is the current one, it starts playing.
    func prepare(_ item: AVPlayerItem) {
        guard item.status == .unknown else { return }
        DispatchQueue.global().async { [weak self] in
            item.load()
            guard let self else { return }
            self.engine.async {
                guard self.currentItem === item else { return }
                self.state.withLock { $0.soundKey = nil }
                // The media start from the item's time, which did not move: observers heard it when added.
                self.update(jumped: true, timeJumped: false)
            }
        }
    }

    // MARK: Rate

    /// The playback rate: 0 paused, 1 normal speed, 0.5 half speed, 5.0 five times faster,
    /// negative backwards. Setting it plays or pauses.
    open var rate: Float {
        get { state.withLock { $0.rate } }
        set { setRate(newValue) }
    }

    /// The rate `play()` plays at.
    open var defaultRate: Float {
        get { state.withLock { $0.defaultRate } }
        set { state.withLock { $0.defaultRate = newValue } }
    }

    /// Plays at the default rate.
    open func play() { setRate(defaultRate) }

    /// Pauses; the same as setting the rate to 0.
    open func pause() { setRate(0) }

    /// Plays at a rate at once, without waiting to minimize stalls.
    open func playImmediately(atRate rate: Float) { setRate(rate) }

    /// Sets the rate, and the item time the rate starts from at a host time (on the player's `sourceClock`).
    open func setRate(_ rate: Float, time itemTime: CMTime, atHostTime hostClockTime: CMTime) {
        if let item = currentItem, itemTime.isNumeric {
            item.state.withLock { $0.clock.jump(to: itemTime, host: hostClockTime.isNumeric ? hostClockTime.seconds : nil) }
            state.withLock {
                $0.lastEvaluated = .invalid; $0.endReported = false; $0.soundKey = nil
            }
        }
        setRate(rate)
    }

    func setRate(_ newRate: Float) {
        guard newRate.isFinite else { ProgrammingError.invalidArgument("-[AVPlayer setRate:] the rate must be a finite number") }
        let changed = state.withLock { state -> Bool in
            guard state.rate != newRate else { return false }
            state.rate = newRate
            return true
        }
        guard changed else { return }
        update(jumped: false)
        notify([\AVPlayer.rate])
        NotificationCenter.default.post(name: Self.rateDidChangeNotification, object: self)
    }

    /// Gets ready to play at a rate: the handler is told true once the current item can play,
    /// false when there is none, it failed, or `cancelPendingPrerolls()` came first.
    open func preroll(atRate rate: Float, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        let handler = completionHandler ?? { _ in }
        guard let item = currentItem else {
            engine.async { handler(false) }
            return
        }
        let id = state.withLock { state -> Int in
            state.prerolls += 1
            state.pendingPrerolls[state.prerolls] = handler
            return state.prerolls
        }
        item.whenSettled { [weak self] status in
            guard let self, let pending = self.state.withLock({ $0.pendingPrerolls.removeValue(forKey: id) }) else { return }
            self.engine.async { pending(status == .readyToPlay) }
        }
    }

    /// Tells the handlers of prerolls in progress, at once, that they did not finish.
    open func cancelPendingPrerolls() {
        let pending = state.withLock { state -> [@Sendable (Bool) -> Void] in
            defer { state.pendingPrerolls = [:] }
            return state.pendingPrerolls.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in pending { engine.async { handler(false) } }
    }

    // MARK: Sound

    /// The sound's volume, from 0 (silent) to 1 (the media's own level).
    open var volume: Float {
        get { state.withLock { $0.volume } }
        set {
            state.withLock { $0.volume = max(0, min(1, newValue)) }
            notify([\AVPlayer.volume])
        }
    }

    /// Whether the sound is muted.
    open var isMuted: Bool {
        get { state.withLock { $0.isMuted } }
        set {
            state.withLock { $0.isMuted = newValue }
            notify([\AVPlayer.isMuted])
        }
    }

    /// The gain the sound is played with now.
    var gain: Float { state.withLock { $0.isMuted ? 0 : $0.volume } }

    // MARK: Items' ends

    /// What the player does when its item reaches its end: pause, by default.
    open var actionAtItemEnd: ActionAtItemEnd {
        get { state.withLock { $0.actionAtItemEnd } }
        set {
            if newValue == .advance, !(self is AVQueuePlayer) {
                ProgrammingError.invalidArgument("-[AVPlayer setActionAtItemEnd:] AVPlayerActionAtItemEndAdvance is supported only by AVQueuePlayer")
            }
            state.withLock { $0.actionAtItemEnd = newValue }
            engine.async { [weak self] in self?.evaluate() }
        }
    }

    // MARK: Time

    /// The current item's current time; zero without an item.
    open func currentTime() -> CMTime { currentItem?.currentTime() ?? .zero }

    /// Moves the current time, within any tolerance.
    open func seek(to time: CMTime) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity, completionHandler: { _ in })
    }

    /// Moves the current time; `completionHandler` says whether the seek finished or was interrupted.
    open func seek(to time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity, completionHandler: completionHandler)
    }

    /// Moves the current time within tolerances (zero tolerances: exactly).
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) {
        seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter, completionHandler: { _ in })
    }

    /// Moves the current time to the moment of a date, for items whose media carry dates; files have none.
    open func seek(to date: Date) {}

    /// Moves the current time, returning whether the seek finished.
    open func seek(to time: CMTime) async -> Bool {
        await withCheckedContinuation { continuation in seek(to: time) { continuation.resume(returning: $0) } }
    }

    /// Moves the current time within tolerances, returning whether the seek finished.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) async -> Bool {
        await withCheckedContinuation { continuation in
            seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) { continuation.resume(returning: $0) }
        }
    }

    /// Moves the current time within tolerances; `completionHandler` says whether the seek finished.
    ///
    /// Seeks land exactly on the time asked for, which every tolerance allows: the file is local,
    /// and a picture output decodes from the keyframe before it.
    open func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        guard time.isNumeric else { ProgrammingError.invalidArgument("-[AVPlayer seekToTime:] the time must be numeric") }
        if toleranceBefore < .zero || toleranceAfter < .zero || !toleranceBefore.isValid || !toleranceAfter.isValid {
            ProgrammingError.invalidArgument("-[AVPlayer seekToTime:toleranceBefore:toleranceAfter:] tolerances must be valid and not negative")
        }
        guard let item = currentItem, item.status != .failed else {
            completionHandler(false)
            return
        }
        let target = item.state.withLock { itemState -> CMTime in
            var target = time < .zero ? .zero : time
            if itemState.duration.isNumeric, target > itemState.duration { target = itemState.duration }
            itemState.clock.jump(to: target)
            return target
        }
        let (interrupted, generation) = state.withLock { state -> ([@Sendable (Bool) -> Void], Int) in
            let interrupted = state.pendingSeeks
            state.pendingSeeks = [completionHandler]
            state.seekGeneration += 1
            state.endReported = false
            state.lastEvaluated = target
            state.soundKey = nil
            return (interrupted, state.seekGeneration)
        }
        for handler in interrupted { engine.async { handler(false) } }
        update(jumped: true)
        NotificationCenter.default.post(name: AVPlayerItem.timeJumpedNotification, object: item)
        // Finished once every picture output has the picture at the new time.
        let outputs = renderingOutputs(of: item)
        DispatchQueue.global().async { [weak self] in
            for output in outputs { output.waitForMedia(timeout: 2) }
            guard let self else { return }
            self.engine.async {
                let finished = self.state.withLock { state -> [@Sendable (Bool) -> Void] in
                    guard state.seekGeneration == generation else { return [] }
                    defer { state.pendingSeeks = [] }
                    return state.pendingSeeks
                }
                for handler in finished { handler(true) }
            }
        }
    }

    /// Tells the completion handlers of seeks in progress that they did not finish.
    func cancelPendingSeeks() {
        let interrupted = state.withLock { state -> [@Sendable (Bool) -> Void] in
            state.seekGeneration += 1
            defer { state.pendingSeeks = [] }
            return state.pendingSeeks
        }
        for handler in interrupted { engine.async { handler(false) } }
    }

    // MARK: Key-value observing

    /// Tells observers of these properties (and of the same properties of a subclass) that they changed.
    func notify(_ keyPaths: [PartialKeyPath<AVPlayer>]) {
        guard !keyPaths.isEmpty else { return }
        _observations.didChange(keyPaths + keyPaths.flatMap(subclassKeyPaths))
    }

    /// A subclass's spelling of a property's key path, which observers of the subclass use.
    func subclassKeyPaths(_ keyPath: PartialKeyPath<AVPlayer>) -> [AnyKeyPath] { [] }
}
