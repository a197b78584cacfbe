import CaptureDevices
import CoreVideo
import Foundation

/// The application's audio session: how it uses audio, and the input, sample rate, buffer
/// duration and input gain its capture prefers.
///
/// On Linux the preferences apply to the microphones capture sessions and engines use: the
/// preferred input becomes `AVCaptureDevice.default(for: .audio)` and the engine's input, sound servers resample to the preferred rate,
/// sound cards are asked for it, and the input gain is the sound server's source volume.
/// Preferences take effect when a capture session next starts its microphone. Thread-safe.
open class AVAudioSession: NSObject, @unchecked Sendable {
    struct State {
        var category = Category.soloAmbient
        var mode = Mode.default
        var options: CategoryOptions = []
        var isActive = false
        var portOverride = PortOverride.none
        var preferredInputOrientation = StereoOrientation.none
        var microphoneInjectionMode = MicrophoneInjectionMode.none
    }
    let state = LockedValue(State())
    private static let shared = AVAudioSession()

    private override init() {
        super.init()
        // Sinks that come and go, and a changed default, are route changes, as on Apple's session.
        DispatchQueue.global().async { PulseSinks.addListener { AVAudioSession.outputsChanged(from: $0, to: $1) } }
    }

    /// The application's audio session.
    open class func sharedInstance() -> AVAudioSession { shared }

    // MARK: Category and activation

    /// How the application uses audio.
    open var category: Category { state.withLock { $0.category } }
    /// The mode within the category.
    open var mode: Mode { state.withLock { $0.mode } }
    /// The category's options.
    open var categoryOptions: CategoryOptions { state.withLock { $0.options } }

    /// Sets how the application uses audio.
    open func setCategory(_ category: Category) throws { try setCategory(category, mode: mode, options: []) }

    /// Sets how the application uses audio, with a mode and options.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        // The route before, asked of the sound server only when there will be a change to tell.
        let previous = state.withLock { $0.category } != category ? currentRoute : nil
        let changed = state.withLock { state -> Bool in
            defer {
                (state.category, state.mode, state.options) = (category, mode, options)
                Self.routeToSpeaker(state)
            }
            // The speaker override holds only within play-and-record, as Apple's does.
            if category != .playAndRecord { state.portOverride = .none }
            return state.category != category
        }
        // A new category is a new route, as Apple's session tells it.
        if changed { Self.postRouteChange(.categoryChange, previous: previous) }
    }

    /// Sets how the application uses audio, with options.
    open func setCategory(_ category: Category, options: CategoryOptions = []) throws { try setCategory(category, mode: mode, options: options) }

    /// Sets the mode within the category.
    open func setMode(_ mode: Mode) throws { state.withLock { $0.mode = mode } }

    /// Activates or deactivates the session.
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws { state.withLock { $0.isActive = active } }

    // MARK: Record permission

    /// Whether the application may record.
    open var recordPermission: RecordPermission {
        Self.microphones.contains { !$0.isAuthorized } ? .denied : .granted
    }

    /// Asks for permission to record; calls `response` with the answer.
    open func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        let granted = recordPermission == .granted
        DispatchQueue.global().async { response(granted) }
    }

    // MARK: Inputs

    /// The microphones the application can record from.
    open var availableInputs: [AVAudioSessionPortDescription]? {
        Self.microphones.filter(\.isConnected).map(AVAudioSessionPortDescription.init)
    }

    /// The input the application prefers, or nil for the system's choice.
    open var preferredInput: AVAudioSessionPortDescription? {
        guard let uid = AudioPreferences.preferredInputUID else { return nil }
        return availableInputs?.first { $0.uid == uid }
    }

    /// Chooses the input to record from; nil returns the choice to the system.
    open func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        if let inPort, !(availableInputs ?? []).contains(inPort) { throw Self.error(.badParam) }
        AudioPreferences.preferredInputUID = inPort?.uid
    }

    /// The uid of the preferred input, while it is connected.
    package var preferredInputUID: String? { AudioPreferences.preferredInputUID }

    /// Every microphone the process knows, connected or not, in the order capture devices are offered.
    private static var microphones: [CaptureDeviceBackend] { DeviceRegistry.backends(of: .audio) }

    /// The ports audio flows through now: the input capture uses, and the sound server's sink the
    /// application plays to (none where no sound server runs).
    open var currentRoute: AVAudioSessionRouteDescription { route(outputs: PulseSinks.current()) }

    /// The route through the current input and the sink, among `sinks`, that sound plays to.
    func route(outputs sinks: [SoundOutputPort]) -> AVAudioSessionRouteDescription {
        AVAudioSessionRouteDescription(
            inputs: currentInput.map { [AVAudioSessionPortDescription(backend: $0)] } ?? [],
            outputs: PulseSinks.routeSink(in: sinks).map { [AVAudioSessionPortDescription(output: $0)] } ?? [])
    }

    /// Whether any input is available.
    open var isInputAvailable: Bool { !(availableInputs ?? []).isEmpty }

    /// The number of channels of the current input: the preferred number, where it has that many.
    open var inputNumberOfChannels: Int {
        let maximum = maximumInputNumberOfChannels
        return AudioPreferences.preferredInputChannels.map { min($0, maximum) } ?? maximum
    }

    /// The most channels the current input has.
    open var maximumInputNumberOfChannels: Int { Int(currentInput?.audioFormat?.mChannelsPerFrame ?? 0) }

    /// The number of input channels the application prefers; 0 when it prefers none.
    open var preferredInputNumberOfChannels: Int { AudioPreferences.preferredInputChannels ?? 0 }

    /// Sets the number of input channels the application prefers: from 1 to the current input's
    /// maximum. Recording through AVFAudio (the engine's input node) then takes that many.
    open func setPreferredInputNumberOfChannels(_ count: Int) throws {
        guard count >= 1, count <= maximumInputNumberOfChannels else { throw Self.error(.badParam) }
        AudioPreferences.preferredInputChannels = count
    }

    // MARK: Data sources

    /// The current input's data sources, such as a phone's several microphones; nil, as Linux's
    /// microphones describe none.
    open var inputDataSources: [AVAudioSessionDataSourceDescription]? { currentRoute.inputs.first?.dataSources }

    /// The data source the current input records from; nil where it has none.
    open var inputDataSource: AVAudioSessionDataSourceDescription? { currentRoute.inputs.first?.selectedDataSource }

    /// Chooses the current input's data source: nil (none) is always taken; any other is refused,
    /// since no input here has data sources.
    open func setInputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard dataSource == nil else { throw Self.error(.badParam) }
    }

    /// The output's data sources; nil, as sound servers' sinks describe none.
    open var outputDataSources: [AVAudioSessionDataSourceDescription]? { nil }

    /// The output's data source; nil.
    open var outputDataSource: AVAudioSessionDataSourceDescription? { nil }

    /// Chooses the output's data source: nil is taken; any other is refused.
    open func setOutputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard dataSource == nil else { throw Self.error(.badParam) }
    }

    /// Overrides the output route: `.speaker` plays through the speaker (the sound server's sink
    /// whose port is a speaker, where there is one) rather than the default output, in the
    /// play-and-record category only; `.none` returns to the default. Playback that starts after
    /// the override takes the new route; a route change with the reason `.override` is posted.
    open func overrideOutputAudioPort(_ portOverride: AVAudioSession.PortOverride) throws {
        let previous = state.withLock { $0.portOverride } != portOverride ? currentRoute : nil
        let changed = try state.withLock { state -> Bool in
            if portOverride == .speaker, state.category != .playAndRecord { throw Self.error(.incompatibleCategory) }
            defer {
                state.portOverride = portOverride
                Self.routeToSpeaker(state)
            }
            return state.portOverride != portOverride
        }
        if changed { Self.postRouteChange(.override, previous: previous) }
    }

    /// Sends playback that starts from now on to the speaker while the route is overridden to one
    /// (or the category asks for it by default), otherwise to the server's default; under the lock.
    private static func routeToSpeaker(_ state: State) {
        AudioPreferences.routesToSpeaker =
            state.portOverride == .speaker || (state.category == .playAndRecord && state.options.contains(.defaultToSpeaker))
    }

    /// The microphone recording uses now: the preferred input while it is connected, otherwise the first.
    private var currentInput: CaptureDeviceBackend? { Microphones.current() }

    // MARK: Sample rate and buffer duration

    /// The sample rate the application prefers, in hertz; 0 when it prefers none.
    open var preferredSampleRate: Double { AudioPreferences.preferredSampleRate ?? 0 }

    /// Sets the preferred sample rate, in hertz: 8 kHz to 192 kHz, or 0 for each input's own.
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        guard sampleRate == 0 || (8_000...192_000).contains(sampleRate) else { throw Self.error(.badParam) }
        AudioPreferences.preferredSampleRate = sampleRate == 0 ? nil : sampleRate
    }

    /// The sample rate the current input records at, in hertz.
    open var sampleRate: Double { currentInput?.audioFormat?.mSampleRate ?? AudioPreferences.sampleRate(native: 44_100) }

    /// The I/O buffer duration the application prefers, in seconds; 0 when it prefers none.
    open var preferredIOBufferDuration: TimeInterval { AudioPreferences.preferredIOBufferDuration ?? 0 }

    /// Sets the preferred time each buffer of samples covers, in seconds (about 1.5 ms to 0.37 s), or 0 for the default.
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        guard duration >= 0, duration <= 1 else { throw Self.error(.badParam) }
        AudioPreferences.preferredIOBufferDuration = duration == 0 ? nil : duration
    }

    /// The time each buffer of samples from the current input covers, in seconds.
    open var ioBufferDuration: TimeInterval {
        let rate = sampleRate
        return Double(AudioPreferences.framesPerBuffer(rate: rate, standard: 1024)) / rate
    }

    // MARK: Input gain

    /// The gain of the current input, from 0 to 1.
    open var inputGain: Float { (currentInput as? AudioInputGainControl)?.inputGain ?? 1 }

    /// Whether the current input's gain can be set.
    open var isInputGainSettable: Bool { (currentInput as? AudioInputGainControl)?.isInputGainSettable ?? false }

    /// Sets the gain of the current input, from 0 to 1.
    open func setInputGain(_ gain: Float) throws {
        guard (0...1).contains(gain) else { throw Self.error(.badParam) }
        guard let control = currentInput as? AudioInputGainControl, control.isInputGainSettable else { throw Self.error(.unspecified) }
        do { try control.setInputGain(gain) } catch { throw Self.error(error == .serverUnavailable ? .mediaServicesFailed : .unspecified) }
    }

    static func error(_ code: ErrorCode) -> NSError { NSError(domain: NSOSStatusErrorDomain, code: code.rawValue) }
}

extension AVAudioSession {
    /// How an application uses audio.
    public struct Category: RawRepresentable, Hashable, Sendable {
        /// The value's raw representation.
        public let rawValue: String
        /// Creates a value from its raw representation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Sound that mixes with other audio and is silenced by the ring/silent switch.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// The default: sound that silences other audio.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Playback central to the application.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// Recording and playback, as capture applications use.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Several routes at once.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
    }

    /// A specialization of a category.
    public struct Mode: RawRepresentable, Hashable, Sendable {
        /// The value's raw representation.
        public let rawValue: String
        /// Creates a value from its raw representation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The default mode.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// Recording video.
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        /// Measurement, with the least processing.
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        /// Two-way voice communication.
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        /// Video chat.
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
    }

    /// Options of a category.
    public struct CategoryOptions: OptionSet, Sendable {
        /// The value's raw representation.
        public let rawValue: UInt
        /// Creates a value from its raw representation.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Mix with other applications' audio.
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// Lower other applications' audio.
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Allow Bluetooth hands-free devices as inputs.
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Route output to the speaker by default.
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    }

    /// Options for activating and deactivating.
    public struct SetActiveOptions: OptionSet, Sendable {
        /// The value's raw representation.
        public let rawValue: UInt
        /// Creates a value from its raw representation.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Let other applications resume their audio on deactivation.
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// Whether the application may record.
    public enum RecordPermission: UInt, Sendable {
        /// Not asked yet.
        case undetermined = 1970168948
        /// Refused.
        case denied = 1684369017
        /// Allowed.
        case granted = 1735552628
    }

    /// The audio session's error codes (OSStatus values in NSOSStatusErrorDomain).
    public enum ErrorCode: Int, Sendable {
        /// No error.
        case none = 0
        /// A parameter was invalid.
        case badParam = -50
        /// The operation is not possible in the session's category: '!cat'.
        case incompatibleCategory = 560161140
        /// The audio services failed: the sound server went away.
        case mediaServicesFailed = 1836282486
        /// Recording could not start.
        case cannotStartRecording = 561145187
        /// An unspecified error.
        case unspecified = 2003329396
    }
}
