import CaptureDevices
import Foundation

/// A source of media for a capture session, with one port per stream of media it provides.
open class AVCaptureInput: NSObject, @unchecked Sendable {
    /// One stream of media an input provides.
    public final class Port: NSObject, @unchecked Sendable {
        /// The input the port belongs to.
        ///
        /// Connections keep their ports' inputs alive, so the input of a connection's port can be
        /// read on any thread for as long as the connection lives.
        public var input: AVCaptureInput {
            guard let input = owner else {
                ProgrammingError.invalidArgument("-[AVCaptureInputPort input] The port's input was released; keep the AVCaptureInput while you use its ports")
            }
            return input
        }
        /// The input, held weakly: an input holds its ports.
        private weak let owner: AVCaptureInput?
        /// The kind of media the port provides.
        public let mediaType: AVMediaType
        private let enabled = LockedValue(true)

        init(input: AVCaptureInput, mediaType: AVMediaType) {
            owner = input
            self.mediaType = mediaType
        }

        /// The format of the port's media.
        public var formatDescription: CMFormatDescription? { input.formatDescription(for: self) }
        /// Whether the port provides media.
        public var isEnabled: Bool {
            get { enabled.withLock { $0 } }
            set {
                let changed = enabled.withLock { enabled -> Bool in
                    defer { enabled = newValue }
                    return enabled != newValue
                }
                if changed { owner?.session?.connectionEnablingDidChange() }
            }
        }
        /// The clock the port's timestamps are on: the host clock.
        public var clock: CMClock? { CMClockGetHostTimeClock() }
    }

    /// The input's ports.
    public internal(set) var ports: [Port] = []
    /// The session the input belongs to.
    weak var session: AVCaptureSession?

    override init() { super.init() }

    func formatDescription(for port: Port) -> CMFormatDescription? { nil }

    /// The device whose media the input provides: a device input's device, or the device a screen input reads.
    var capturedDevice: AVCaptureDevice? { nil }
}

/// An input that provides the media of a capture device.
open class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    /// The device the input provides media from.
    public let device: AVCaptureDevice

    /// Creates an input for a device; fails if the device is gone or the user has not allowed access.
    public required init(device: AVCaptureDevice) throws {
        guard device.backend.isAuthorized else {
            throw AVError(.applicationIsNotAuthorizedToUseDevice, userInfo: [AVErrorDeviceKey: device])
        }
        guard device.isConnected else {
            throw AVError(.deviceNotConnected, userInfo: [AVErrorDeviceKey: device])
        }
        self.device = device
        super.init()
        ports = [Port(input: self, mediaType: device.mediaType)]
        // A camera's frames also feed metadata outputs, through a port of its own, as on Apple's platforms.
        if device.mediaType == .video { ports.append(Port(input: self, mediaType: .metadataObject)) }
    }

    /// A time value that overrides the device's active minimum frame duration for this input: a
    /// lower frame rate lowers a multi-camera session's `hardwareCost`. Invalid (the default) uses the device's own.
    public var videoMinFrameDurationOverride: CMTime {
        get { frameDurationOverride.withLock { $0 } }
        set {
            frameDurationOverride.withLock { $0 = newValue }
            session?.outputConfigurationDidChange()
        }
    }
    private let frameDurationOverride = LockedValue(CMTime.invalid)

    /// The input's ports for a media type (nil for any) from a source device of a type (nil for
    /// any) and at a position (`.unspecified` for any): the camera's own, as it is no composite of others.
    public func ports(
        for mediaType: AVMediaType?, sourceDeviceType: AVCaptureDevice.DeviceType?, sourceDevicePosition: AVCaptureDevice.Position
    ) -> [AVCaptureInput.Port] {
        guard sourceDeviceType == nil || sourceDeviceType == device.deviceType,
            sourceDevicePosition == .unspecified || sourceDevicePosition == device.position
        else { return [] }
        return ports.filter { mediaType == nil || $0.mediaType == mediaType }
    }

    /// Creates an input for a device, or returns `nil` and an error, as Objective-C code does.
    public class func deviceInput(with device: AVCaptureDevice) throws -> AVCaptureDeviceInput {
        try AVCaptureDeviceInput(device: device)
    }

    override var capturedDevice: AVCaptureDevice? { device }

    override func formatDescription(for port: Port) -> CMFormatDescription? {
        if port.mediaType == .metadataObject { return nil }
        if port.mediaType == .audio {
            return CMFormatDescription(audio: device.backend.audioFormat ?? VirtualMicrophone.streamDescription(rate: Double(VirtualMicrophone.sampleRate)))
        }
        return device.activeFormat.formatDescription
    }

    /// A description such as `<AVCaptureDeviceInput: Virtual Back Camera>`.
    open override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }
}
