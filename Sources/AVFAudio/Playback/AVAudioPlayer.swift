import CoreMedia
import CoreVideo
import Foundation

/// Plays sound from a file or from memory, with volume, pan, rate, loops and metering.
///
/// The sound goes to the sound server (PulseAudio, or PipeWire through pipewire-pulse), whose
/// clock paces it; where none runs, it plays silently on the host clock, so that time, loops and
/// the delegate behave the same. Thread-safe; the delegate hears on the main queue.
open class AVAudioPlayer: NSObject, @unchecked Sendable {
    /// The file played, for a player made from a URL.
    public let url: URL?
    /// The sound played, for a player made from data.
    public let data: Data?
    /// The object told when playing finishes or fails.
    open weak var delegate: (any AVAudioPlayerDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    private let file: AVAudioFile
    /// The sound's length in frames, worked out once (the playback thread reads the file meanwhile).
    private let length: Int64
    /// For a player made from data: the data written to a file FFmpeg reads, removed when the player goes.
    private let temporaryURL: URL?
    private let meter: AudioMeter
    private let controls = LockedValue(PlaybackThread.Controls())
    private let heard = LockedValue<Int64>(0)
    private let played = LockedValue<Int64>(0)

    private struct State {
        weak var delegate: (any AVAudioPlayerDelegate)?
        var thread: PlaybackThread?
        var metering = false
        var numberOfLoops = 0
        /// Bumped by each start, so that an end meant for an earlier playing is ignored.
        var playing = 0
    }
    private let state = LockedValue(State())

    /// Creates a player for a sound file (any type FFmpeg reads); throws when it cannot be read.
    public convenience init(contentsOf url: URL) throws { try self.init(contentsOf: url, fileTypeHint: nil) }

    /// Creates a player for a sound file; the type hint is not needed here (the contents say the type).
    public init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
        file = try AVAudioFile(forReading: url)
        length = file.length
        self.url = url
        data = nil
        temporaryURL = nil
        meter = AudioMeter(channels: Int(file.processingFormat.channelCount))
        super.init()
    }

    /// Creates a player for sound held in memory (the bytes of a sound file); throws when it cannot be read.
    public convenience init(data: Data) throws { try self.init(data: data, fileTypeHint: nil) }

    /// Creates a player for sound held in memory; the type hint is not needed here (the contents say the type).
    public init(data: Data, fileTypeHint utiString: String?) throws {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avaudioplayer-\(getpid())-\(UUID().uuidString)")
        try data.write(to: temporary, options: .withoutOverwriting)
        do { file = try AVAudioFile(forReading: temporary) } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        length = file.length
        url = nil
        self.data = data
        temporaryURL = temporary
        meter = AudioMeter(channels: Int(file.processingFormat.channelCount))
        super.init()
    }

    deinit {
        state.withLock { $0.thread }?.stop()
        if let temporaryURL { try? FileManager.default.removeItem(at: temporaryURL) }
    }

    // MARK: The sound

    /// The format of the sound in the file.
    open var format: AVAudioFormat { file.fileFormat }
    /// The file's format as a settings dictionary.
    open var settings: [String: Any] { file.fileFormat.settings }
    /// The number of channels of the sound.
    open var numberOfChannels: Int { Int(file.fileFormat.channelCount) }
    /// The length of the sound, in seconds.
    open var duration: TimeInterval { Double(length) / file.processingFormat.sampleRate }
    /// The output device's unique ID; nil for the sound server's default.
    open var currentDevice: String?

    // MARK: Playing

    /// Opens the sound output ready to play; true when the sound can be played.
    @discardableResult
    open func prepareToPlay() -> Bool { file.isOpen }

    /// Plays from the current time; false when the sound cannot be played.
    @discardableResult
    open func play() -> Bool { start(at: nil) }

    /// Plays from the current time at a time on the device's clock (`deviceCurrentTime` plus a delay).
    @discardableResult
    open func play(atTime time: TimeInterval) -> Bool {
        guard time.isFinite else { return false }
        return start(at: time)
    }

    /// Pauses, keeping the current time; `play()` resumes.
    open func pause() { halt() }

    /// Stops playing, keeping the current time.
    open func stop() { halt() }

    /// Whether the player is playing.
    open var isPlaying: Bool { state.withLock { $0.thread != nil } }

    /// The time in the sound, in seconds, of what is heard now; setting it moves playing there.
    open var currentTime: TimeInterval {
        get { Double(heard.withLock { $0 }) / file.processingFormat.sampleRate }
        set {
            guard newValue.isFinite else { return }
            let frame = Int64((max(0, min(duration, newValue)) * file.processingFormat.sampleRate).rounded())
            let wasPlaying = isPlaying
            halt()
            file.framePosition = frame
            heard.withLock { $0 = frame }
            if wasPlaying { _ = start(at: nil) }
        }
    }

    /// The frames the player has given its output since it was made: the sound's frames at its rate.
    var outputFramesPlayed: Int64 { played.withLock { $0 } }

    /// The time on the output device's clock, in seconds.
    open var deviceCurrentTime: TimeInterval { CMClockGetTime(CMClockGetHostTimeClock()).seconds }

    /// How many times the sound plays again after the first: 0 once, -1 until stopped.
    open var numberOfLoops: Int {
        get { state.withLock { $0.numberOfLoops } }
        set {
            state.withLock { $0.numberOfLoops = newValue }
            controls.withLock { $0.loopsLeft = newValue }
        }
    }

    // MARK: Volume, pan and rate

    /// The volume, from 0 (silent) to 1.
    open var volume: Float {
        get { controls.withLock { $0.volume } }
        set {
            guard newValue.isFinite else { return }
            controls.withLock {
                $0.volume = max(0, min(1, newValue))
                $0.fade = nil
            }
        }
    }

    /// Fades the volume to a value over a number of seconds.
    open func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) {
        guard volume.isFinite, duration.isFinite else { return }
        let now = deviceCurrentTime
        controls.withLock { $0.fade = (max(0, min(1, volume)), $0.volume, now, now + max(0, duration)) }
    }

    /// The stereo position: -1 full left, 0 centre, 1 full right.
    open var pan: Float {
        get { controls.withLock { $0.pan } }
        set {
            guard newValue.isFinite else { return }
            controls.withLock { $0.pan = max(-1, min(1, newValue)) }
        }
    }

    /// Whether `rate` changes the speed; set it before `prepareToPlay()` or `play()`.
    open var enableRate: Bool {
        get { controls.withLock { $0.enableRate } }
        set { controls.withLock { $0.enableRate = newValue } }
    }

    /// The speed, from 0.5 (half) to 2 (double), with the pitch kept; used when `enableRate` is set.
    open var rate: Float {
        get { controls.withLock { $0.rate } }
        set {
            guard newValue.isFinite else { return }
            controls.withLock { $0.rate = max(0.5, min(2, newValue)) }
        }
    }

    // MARK: Metering

    /// Whether `updateMeters()` measures the sound played.
    open var isMeteringEnabled: Bool {
        get { state.withLock { $0.metering } }
        set { state.withLock { $0.metering = newValue } }
    }

    /// Takes the levels of the sound played since the last call as the ones the power methods report.
    open func updateMeters() {
        guard isMeteringEnabled else { return }
        meter.update()
    }

    /// The peak power of a channel at the last `updateMeters()`, in decibels of full scale (-160 for silence).
    open func peakPower(forChannel channelNumber: Int) -> Float { isMeteringEnabled ? meter.peakPower(channelNumber) : AudioMeter.silence }

    /// The average power of a channel at the last `updateMeters()`, in decibels of full scale (-160 for silence).
    open func averagePower(forChannel channelNumber: Int) -> Float { isMeteringEnabled ? meter.averagePower(channelNumber) : AudioMeter.silence }

    // MARK: Helpers

    private func start(at hostSeconds: TimeInterval?) -> Bool {
        guard file.isOpen else { return false }
        if isPlaying { return true }
        let playing = state.withLock { state -> Int in
            state.playing += 1
            return state.playing
        }
        if file.framePosition >= length { file.framePosition = 0 }
        let thread = PlaybackThread(file: file, meter: meter, controls: controls, heard: heard, played: played, startAt: hostSeconds) { [weak self] event in
            guard let self else { return }
            DispatchQueue.global().async { self.ended(event, playing: playing) }
        }
        state.withLock { $0.thread = thread }
        thread.start()
        return true
    }

    /// Stops the playback thread, if one runs.
    private func halt() {
        let thread = state.withLock { state -> PlaybackThread? in
            defer { state.thread = nil }
            return state.thread
        }
        thread?.stop()
    }

    /// The playback thread finished: the sound ended (time goes back to the start) or decoding failed.
    private func ended(_ event: PlaybackThread.Event, playing: Int) {
        guard case .finished(let error) = event else { return }
        let thread = state.withLock { state -> PlaybackThread? in
            guard state.playing == playing, let thread = state.thread else { return nil }
            state.thread = nil
            return thread
        }
        guard let thread else { return }
        thread.stop()
        file.framePosition = 0
        heard.withLock { $0 = 0 }
        controls.withLock { $0.loopsLeft = numberOfLoops }
        let delegate = self.delegate
        DispatchQueue.main.async { [self] in
            if let error { delegate?.audioPlayerDecodeErrorDidOccur(self, error: error) }
            delegate?.audioPlayerDidFinishPlaying(self, successfully: error == nil)
        }
    }
}
