import CaptureDevices
import Foundation
import FrameProcessing
import Synchronization

/// A device that provides media for capture: a camera or a microphone.
///
/// There is one object per device for the life of the process. Its properties may be read
/// from any thread; its configurable properties may be set only while the device is locked
/// with `lockForConfiguration()`, as on Apple platforms.
open class AVCaptureDevice: NSObject, _KeyValueObservable, @unchecked Sendable {
    let core: DeviceCore

    init(core: DeviceCore) {
        self.core = core
        super.init()
    }

    /// The backend that drives the device, for the package's engines and tests.
    package var backend: CaptureDeviceBackend { core.backend }
    var configuration: LockedValue<DeviceCore.Configuration> { core.configuration }
    /// The device's formats, in the backend's order.
    public var formats: [Format] { core.formats }
    /// The registry of the device's key-value observations.
    @_spi(Plumbing) public var _observations: KeyValueObservationRegistry { core.observations }

    /// Whether two objects stand for the same device.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? AVCaptureDevice)?.core === core
    }

    /// A hash shared by every object that stands for this device.
    open override var hash: Int { ObjectIdentifier(core).hashValue }

    static func defaultFrameDuration(_ format: Format) -> CMTime {
        let rate = min(30, format.backing.maxFrameRate)
        return AVFrameRateRange.duration(forRate: rate)
    }

    // MARK: Identity

    /// An identifier that stays the same for this device across launches.
    public var uniqueID: String { backend.descriptor.uniqueID }
    /// The device's model identifier.
    public var modelID: String { backend.descriptor.modelID }
    /// A name to show the user.
    public var localizedName: String { backend.descriptor.localizedName }
    /// The device's manufacturer.
    public var manufacturer: String { backend.descriptor.manufacturer }
    /// The kind of device.
    public var deviceType: DeviceType { DeviceType(rawValue: backend.descriptor.kind.rawValue) }
    /// Where the device sits.
    public var position: Position { Position(rawValue: backend.descriptor.position.rawValue) ?? .unspecified }
    /// Whether the device is connected and can be used.
    public var isConnected: Bool { backend.isConnected }
    /// Whether the device is suspended, as a closed laptop lid suspends its camera.
    public var isSuspended: Bool { false }
    /// Whether the device is a virtual device made of several physical ones; always false here.
    public var isVirtualDevice: Bool { false }
    /// The physical devices a virtual device is made of.
    public var constituentDevices: [AVCaptureDevice] { [] }
    /// The kind of media the device captures.
    var mediaType: AVMediaType { backend.descriptor.mediaKind == .video ? .video : .audio }

    /// Whether the device provides media of a type.
    public func hasMediaType(_ mediaType: AVMediaType) -> Bool {
        mediaType == self.mediaType || (mediaType == .muxed && false)
    }

    /// Whether the device can be used with a session preset.
    public func supportsSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool {
        if mediaType == .audio { return true }
        return preset.format(for: self) != nil
    }

    /// The virtual scene the device sees, for a virtual device; `nil` for hardware.
    public var virtualScene: VirtualScene? { (backend as? VirtualDeviceBase)?.scene }

    /// A description such as `<AVCaptureDevice: Virtual Back Camera [virtual:camera:back]>`.
    open override var description: String { "<AVCaptureDevice: \(localizedName) [\(uniqueID)]>" }

    // MARK: Formats and frame rate

    /// The format the device captures in.
    public var activeFormat: Format {
        get { formats[configuration.withLock { $0.activeFormat }] }
        set {
            ProgrammingError.requireConfigurationLock(self, "ActiveFormat:")
            guard let index = formats.firstIndex(where: { $0 === newValue }) else {
                ProgrammingError.invalidArgument("-[AVCaptureDevice setActiveFormat:] format is not one of the device's formats")
            }
            setActiveFormat(index: index, byClient: true)
        }
    }

    /// The format of the depth maps the device delivers with photos, one of the active format's
    /// `supportedDepthDataFormats`; nil for a camera that measures no depth.
    public var activeDepthDataFormat: Format? {
        get {
            let type = configuration.withLock { $0.depthType }
            return activeFormat.supportedDepthDataFormats.first { $0.backing.pixelFormat == type }
        }
        set {
            ProgrammingError.requireConfigurationLock(self, "ActiveDepthDataFormat:")
            guard let newValue, activeFormat.supportedDepthDataFormats.contains(where: { $0 === newValue }) else {
                ProgrammingError.invalidArgument(
                    "-[AVCaptureDevice setActiveDepthDataFormat:] format is not one of the active format's supportedDepthDataFormats")
            }
            configuration.withLock { $0.depthType = newValue.backing.pixelFormat }
        }
    }

    /// Makes a format active, resetting the frame rate to the format's default.
    func setActiveFormat(index: Int, byClient: Bool) {
        // A microphone's one format is always active: nothing changes.
        guard formats[index].mediaType == .video else { return }
        let changed = configuration.withLock { config -> Bool in
            guard config.activeFormat != index else { return false }
            config.activeFormat = index
            let duration = Self.defaultFrameDuration(formats[index])
            config.minFrameDuration = duration
            config.maxFrameDuration = duration
            return true
        }
        if changed {
            _observations.didChange([\AVCaptureDevice.activeFormat, \AVCaptureDevice.activeVideoMinFrameDuration, \AVCaptureDevice.activeVideoMaxFrameDuration])
        }
        // Choosing a format by hand, even the active one, takes the device's sessions out of presets.
        guard changed || byClient else { return }
        for session in sessions { session.deviceConfigurationDidChange(self, formatChangedByClient: byClient) }
    }

    /// The shortest time between frames: one over the highest frame rate.
    public var activeVideoMinFrameDuration: CMTime {
        get { configuration.withLock { $0.minFrameDuration } }
        set { setFrameDuration(newValue, minimum: true) }
    }

    /// The longest time between frames: one over the lowest frame rate.
    public var activeVideoMaxFrameDuration: CMTime {
        get { configuration.withLock { $0.maxFrameDuration } }
        set { setFrameDuration(newValue, minimum: false) }
    }

    private func setFrameDuration(_ duration: CMTime, minimum: Bool) {
        ProgrammingError.requireConfigurationLock(self, minimum ? "ActiveVideoMinFrameDuration:" : "ActiveVideoMaxFrameDuration:")
        let format = activeFormat
        let value = duration.isValid ? duration : Self.defaultFrameDuration(format)
        if !format.videoSupportedFrameRateRanges.contains(where: { $0.contains(value) }) {
            ProgrammingError.invalidArgument("*** NSRangeException: frame duration \(value.seconds)s is not supported by \(format)")
        }
        configuration.withLock { config in
            if minimum {
                config.minFrameDuration = value
                if config.maxFrameDuration < value { config.maxFrameDuration = value }
            } else {
                config.maxFrameDuration = value
                if config.minFrameDuration > value { config.minFrameDuration = value }
            }
        }
        _observations.didChange([\AVCaptureDevice.activeVideoMinFrameDuration, \AVCaptureDevice.activeVideoMaxFrameDuration])
        for session in sessions { session.deviceConfigurationDidChange(self, formatChangedByClient: false) }
    }

    /// Returns the device to its initial format, frame rate and controls, releasing any configuration lock.
    package func resetToDefaults() {
        (backend as? VirtualDeviceBase)?.resetToDefaults()
        core.subjectAreaMonitoring.store(false, ordering: .relaxed)
        let initial = DeviceCore.initialFormatIndex(formats)
        configuration.withLock { config in
            config.activeFormat = initial
            if formats.first?.mediaType == .video {
                config.minFrameDuration = Self.defaultFrameDuration(formats[initial])
                config.maxFrameDuration = config.minFrameDuration
            }
            config.lockCount = min(config.lockCount, 1)
        }
        unlockForConfiguration()
    }

    // MARK: Configuration lock

    /// Locks the device so that its configurable properties can be set; exclusive across processes.
    public func lockForConfiguration() throws {
        try configuration.withLock { config in
            if config.lockCount == 0 {
                let fd = open(Self.lockFilePath(for: uniqueID), O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
                var status = stat()
                if fd >= 0, fstat(fd, &status) != 0 || status.st_mode & S_IFMT != S_IFREG || status.st_uid != getuid() {
                    // Not a file of this user's own: lock within the process only.
                    close(fd)
                } else if fd >= 0 {
                    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                        close(fd)
                        throw AVError(.deviceLockedForConfigurationByAnotherProcess, userInfo: [AVErrorDeviceKey: self])
                    }
                    config.lockFile = fd
                }
            }
            config.lockCount += 1
        }
    }

    /// Where the lock file that makes the configuration lock exclusive across this user's
    /// processes lives: the user's runtime folder where there is one, else the temporary folder
    /// under a name of this user's. It is never opened through a symbolic link.
    static func lockFilePath(for uniqueID: String) -> String {
        let folder = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        return folder + "/linuxavfoundation-\(getuid())-" + uniqueID.map { $0.isLetter || $0.isNumber ? $0 : "_" } + ".lock"
    }

    /// Releases the configuration lock.
    public func unlockForConfiguration() {
        configuration.withLock { config in
            guard config.lockCount > 0 else { return }
            config.lockCount -= 1
            if config.lockCount == 0, config.lockFile >= 0 {
                flock(config.lockFile, LOCK_UN)
                close(config.lockFile)
                config.lockFile = -1
            }
        }
    }

    /// Whether this client holds the configuration lock.
    var isLockedForConfigurationByClient: Bool { configuration.withLock { $0.lockCount > 0 } }

    // MARK: Sessions

    var sessions: [AVCaptureSession] { core.sessions }

    func attach(to session: AVCaptureSession) {
        configuration.withLock { config in
            config.sessions.removeAll { $0.session == nil || $0.session === session }
            config.sessions.append(DeviceCore.WeakSession(session: session))
        }
    }

    func detach(from session: AVCaptureSession) {
        configuration.withLock { $0.sessions.removeAll { $0.session == nil || $0.session === session } }
    }

    // MARK: Imaging changes

    func imagingDidChange(from old: ImagingState, to new: ImagingState) {
        guard !_observations.isEmpty else { return }
        var paths: [AnyKeyPath] = []
        if old.focusMode != new.focusMode { paths.append(\AVCaptureDevice.focusMode) }
        if old.isAdjustingFocus != new.isAdjustingFocus { paths.append(\AVCaptureDevice.isAdjustingFocus) }
        if old.lensPosition != new.lensPosition { paths.append(\AVCaptureDevice.lensPosition) }
        if old.focusPointOfInterest != new.focusPointOfInterest { paths.append(\AVCaptureDevice.focusPointOfInterest) }
        if old.exposureMode != new.exposureMode { paths.append(\AVCaptureDevice.exposureMode) }
        if old.isAdjustingExposure != new.isAdjustingExposure { paths.append(\AVCaptureDevice.isAdjustingExposure) }
        if old.exposureGain != new.exposureGain {
            paths.append(contentsOf: [\AVCaptureDevice.exposureDuration, \AVCaptureDevice.iso, \AVCaptureDevice.exposureTargetOffset])
        }
        if old.exposureTargetBias != new.exposureTargetBias { paths.append(\AVCaptureDevice.exposureTargetBias) }
        if old.exposurePointOfInterest != new.exposurePointOfInterest { paths.append(\AVCaptureDevice.exposurePointOfInterest) }
        if old.whiteBalanceMode != new.whiteBalanceMode { paths.append(\AVCaptureDevice.whiteBalanceMode) }
        if old.isAdjustingWhiteBalance != new.isAdjustingWhiteBalance { paths.append(\AVCaptureDevice.isAdjustingWhiteBalance) }
        if old.redGain != new.redGain || old.greenGain != new.greenGain || old.blueGain != new.blueGain {
            paths.append(\AVCaptureDevice.deviceWhiteBalanceGains)
        }
        if old.flashMode != new.flashMode { paths.append(\AVCaptureDevice.flashMode) }
        if old.torchMode != new.torchMode { paths.append(\AVCaptureDevice.torchMode) }
        if old.isTorchActive != new.isTorchActive { paths.append(\AVCaptureDevice.isTorchActive) }
        if old.torchLevel != new.torchLevel { paths.append(\AVCaptureDevice.torchLevel) }
        if old.videoZoomFactor != new.videoZoomFactor { paths.append(\AVCaptureDevice.videoZoomFactor) }
        if (old.zoomRampTarget != nil) != (new.zoomRampTarget != nil) { paths.append(\AVCaptureDevice.isRampingVideoZoom) }
        if old.autoFocusRangeRestriction != new.autoFocusRangeRestriction { paths.append(\AVCaptureDevice.autoFocusRangeRestriction) }
        if old.isSmoothAutoFocusEnabled != new.isSmoothAutoFocusEnabled { paths.append(\AVCaptureDevice.isSmoothAutoFocusEnabled) }
        _observations.didChange(paths)
    }

    // MARK: Events

    func handle(_ event: CaptureDeviceEvent) {
        switch event {
        case .disconnected:
            _observations.didChange([\AVCaptureDevice.isConnected])
            MainThreadPoster.post(.AVCaptureDeviceWasDisconnected, object: self)
            if mediaType == .video { AVCaptureDevice.camerasDidChange() }
        case .reconnected:
            _observations.didChange([\AVCaptureDevice.isConnected])
            MainThreadPoster.post(.AVCaptureDeviceWasConnected, object: self)
            if mediaType == .video { AVCaptureDevice.camerasDidChange() }
        default:
            break
        }
        if mediaType == .audio { AVAudioSession.audioDevice(core.backend, didReport: event) }
        for session in sessions { session.device(self, didReport: event) }
    }
}

/// The state of one device, shared by every `AVCaptureDevice` object that stands for it.
final class DeviceCore: CaptureDeviceEventSink, @unchecked Sendable {
    struct Configuration {
        var activeFormat: Int
        /// The depth map type the device delivers, among the active format's depth formats.
        var depthType = AVCaptureDevice.Format.depthTypes[0]
        var minFrameDuration: CMTime
        var maxFrameDuration: CMTime
        var lockCount = 0
        var lockFile: Int32 = -1
        /// Whether the device picks video HDR for its active format by itself.
        var automaticallyAdjustsVideoHDREnabled = true
        var sessions: [WeakSession] = []
    }
    struct WeakSession { weak var session: AVCaptureSession? }

    let backend: CaptureDeviceBackend
    let formats: [AVCaptureDevice.Format]
    let configuration: LockedValue<Configuration>
    let observations = KeyValueObservationRegistry()
    /// Whether frames are watched for subject area changes, and the watcher (on a device thread).
    let subjectAreaMonitoring = Atomic<Bool>(false)
    let subjectArea = LockedValue(SubjectAreaMonitor())
    /// The object the directory hands out; notifications name it.
    private(set) var device: AVCaptureDevice! = nil

    init(backend: CaptureDeviceBackend) {
        self.backend = backend
        // Cameras that focus by themselves here (the virtual one, V4L2 FOCUS_AUTO) find focus by contrast.
        let focusSystem: AVCaptureDevice.Format.AutoFocusSystem =
            backend.capabilities.focusModes.contains(.continuous) ? .contrastDetection : .none
        // A microphone has one format, the sound it delivers, as Apple's do.
        let sound = backend.videoFormats.isEmpty ? backend.audioFormat.map { [AVCaptureDevice.Format(audio: $0)] } ?? [] : []
        // The virtual back camera's scene has a known geometry: it measures depth.
        let measuresDepth = backend is VirtualCamera && backend.descriptor.position == .back
        let formats = backend.videoFormats.map { AVCaptureDevice.Format($0, autoFocusSystem: focusSystem, measuresDepth: measuresDepth) } + sound
        self.formats = formats
        let initial = Self.initialFormatIndex(formats)
        let duration = formats.first?.mediaType != .video ? CMTime.invalid : AVCaptureDevice.defaultFrameDuration(formats[initial])
        configuration = LockedValue(Configuration(activeFormat: initial, minFrameDuration: duration, maxFrameDuration: duration))
        device = AVCaptureDevice(core: self)
        backend.imaging.setObserver { [weak self] old, new in self?.device.imagingDidChange(from: old, to: new) }
        backend.setEventSink(self)
    }

    var sessions: [AVCaptureSession] { configuration.withLock { $0.sessions.compactMap(\.session) } }

    /// The format a device starts in: its largest real-time, unbinned format.
    static func initialFormatIndex(_ formats: [AVCaptureDevice.Format]) -> Int {
        formats.indices.last(where: { formats[$0].backing.maxFrameRate >= 30 && !formats[$0].backing.isBinned }) ?? formats.indices.last ?? 0
    }

    func device(_ uniqueID: String, didReport event: CaptureDeviceEvent) { device.handle(event) }

    /// Looks at a delivered frame when subject area monitoring is on, and posts
    /// `AVCaptureDeviceSubjectAreaDidChange` when the picture has changed substantially.
    func frameDelivered(_ frame: CVPixelBuffer) {
        guard subjectAreaMonitoring.load(ordering: .relaxed) else { return }
        if subjectArea.withLock({ $0.frameChangedSubstantially(frame) }) {
            MainThreadPoster.post(.AVCaptureDeviceSubjectAreaDidChange, object: device)
        }
    }
}

extension NSNotification.Name {
    /// Posted when a device becomes available; the object is the device.
    public static let AVCaptureDeviceWasConnected = NSNotification.Name("AVCaptureDeviceWasConnectedNotification")
    /// Posted when a device goes away; the object is the device.
    public static let AVCaptureDeviceWasDisconnected = NSNotification.Name("AVCaptureDeviceWasDisconnectedNotification")
    /// Posted when the subject area of a monitoring device changes substantially.
    public static let AVCaptureDeviceSubjectAreaDidChange = NSNotification.Name("AVCaptureDeviceSubjectAreaDidChangeNotification")
}

extension AVCaptureDevice {
    /// Posted when a device becomes available.
    public static let wasConnectedNotification = NSNotification.Name.AVCaptureDeviceWasConnected
    /// Posted when a device goes away.
    public static let wasDisconnectedNotification = NSNotification.Name.AVCaptureDeviceWasDisconnected
    /// Posted when the subject area of a monitoring device changes substantially.
    public static let subjectAreaDidChangeNotification = NSNotification.Name.AVCaptureDeviceSubjectAreaDidChange
}
