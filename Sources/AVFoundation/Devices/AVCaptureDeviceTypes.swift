import Foundation

extension AVCaptureDevice {
    /// A kind of capture device.
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        /// The device type's identifier.
        public let rawValue: String
        /// Creates a device type from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A built-in wide-angle camera.
        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        /// A built-in camera with a shorter focal length than a wide-angle camera.
        public static let builtInUltraWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInUltraWideCamera")
        /// A built-in camera with a longer focal length than a wide-angle camera.
        public static let builtInTelephotoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTelephotoCamera")
        /// A built-in wide-angle and telephoto camera pair that switches between them.
        public static let builtInDualCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualCamera")
        /// A built-in ultra-wide and wide-angle camera pair that switches between them.
        public static let builtInDualWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualWideCamera")
        /// A built-in ultra-wide, wide-angle and telephoto camera that switches between them.
        public static let builtInTripleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTripleCamera")
        /// A built-in camera and infrared depth sensor that capture depth.
        public static let builtInTrueDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTrueDepthCamera")
        /// A built-in camera with a LiDAR scanner that captures depth.
        public static let builtInLiDARDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInLiDARDepthCamera")
        /// A phone's camera used by another computer.
        public static let continuityCamera = DeviceType(rawValue: "AVCaptureDeviceTypeContinuityCamera")
        /// A camera that shows the desk in front of the user.
        public static let deskViewCamera = DeviceType(rawValue: "AVCaptureDeviceTypeDeskViewCamera")
        /// A built-in microphone.
        public static let builtInMicrophone = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")
        /// A microphone.
        public static let microphone = DeviceType(rawValue: "AVCaptureDeviceTypeMicrophone")
        /// An external device, such as a USB camera.
        public static let external = DeviceType(rawValue: "AVCaptureDeviceTypeExternal")
        /// An external device of unknown kind.
        public static let externalUnknown = DeviceType(rawValue: "AVCaptureDeviceTypeExternalUnknown")
    }

    /// Where a device sits on the machine.
    public enum Position: Int, Sendable {
        /// The position is not known or does not apply.
        case unspecified = 0
        /// The device faces away from the user.
        case back = 1
        /// The device faces the user.
        case front = 2
    }

    /// How the camera focuses.
    public enum FocusMode: Int, Sendable {
        /// The lens stays where it is.
        case locked = 0
        /// The camera focuses once, then locks.
        case autoFocus = 1
        /// The camera refocuses whenever the scene needs it.
        case continuousAutoFocus = 2
    }

    /// How the camera sets its exposure.
    public enum ExposureMode: Int, Sendable {
        /// The exposure stays as it is.
        case locked = 0
        /// The camera exposes once, then locks.
        case autoExpose = 1
        /// The camera adjusts exposure whenever the scene needs it.
        case continuousAutoExposure = 2
        /// Exposure follows a client's duration and ISO.
        case custom = 3
    }

    /// How the camera balances white.
    public enum WhiteBalanceMode: Int, Sendable {
        /// The gains stay as they are.
        case locked = 0
        /// The camera balances once, then locks.
        case autoWhiteBalance = 1
        /// The camera balances whenever the light changes.
        case continuousAutoWhiteBalance = 2
    }

    /// When the flash fires.
    public enum FlashMode: Int, Sendable {
        /// Never.
        case off = 0
        /// Always.
        case on = 1
        /// When the light is low.
        case auto = 2
    }

    /// When the torch is lit.
    public enum TorchMode: Int, Sendable {
        /// Never.
        case off = 0
        /// Always, while a running session uses the device.
        case on = 1
        /// When the light is low, while a running session uses the device.
        case auto = 2
    }

    /// The range of distances autofocus searches.
    public enum AutoFocusRangeRestriction: Int, Sendable {
        /// Any distance.
        case none = 0
        /// Near subjects, such as codes held up to the camera.
        case near = 1
        /// Far subjects.
        case far = 2
    }

    /// A colour temperature and tint, the terms white balance is set in by people.
    public struct WhiteBalanceTemperatureAndTintValues: Sendable, Hashable {
        /// The colour temperature, in kelvin.
        public var temperature: Float
        /// The tint: negative towards magenta, positive towards green.
        public var tint: Float
        /// Creates a temperature and tint.
        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }
    }

    /// The gains applied to each colour channel for white balance.
    public struct WhiteBalanceGains: Sendable, Hashable {
        /// The red gain.
        public var redGain: Float
        /// The green gain.
        public var greenGain: Float
        /// The blue gain.
        public var blueGain: Float
        /// Creates gains.
        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            self.redGain = redGain
            self.greenGain = greenGain
            self.blueGain = blueGain
        }
        /// Creates unit gains.
        public init() { self.init(redGain: 1, greenGain: 1, blueGain: 1) }
    }

    /// The largest torch level a device offers.
    public static let maxAvailableTorchLevel: Float = 1.0
    /// The lens position that keeps the current one.
    public static let currentLensPosition: Float = -1
    /// The exposure duration that keeps the current one.
    public static let currentExposureDuration = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// The ISO that keeps the current one.
    public static let currentISO: Float = 0
    /// The exposure target bias that keeps the current one.
    public static let currentExposureTargetBias: Float = .greatestFiniteMagnitude
    /// The white balance gains that keep the current ones.
    public static let currentWhiteBalanceGains = WhiteBalanceGains(redGain: 0, greenGain: 0, blueGain: 0)
}

/// Whether the user allows this application to capture a kind of media.
public enum AVAuthorizationStatus: Int, Sendable {
    /// The user has not been asked.
    case notDetermined = 0
    /// Policy forbids capture.
    case restricted = 1
    /// The user denied access.
    case denied = 2
    /// The user allowed access.
    case authorized = 3
}

/// The largest torch level a device offers, as Objective-C code spells it.
public let AVCaptureMaxAvailableTorchLevel: Float = AVCaptureDevice.maxAvailableTorchLevel

/// How a connection stabilises video.
public enum AVCaptureVideoStabilizationMode: Int, Sendable {
    /// No stabilisation.
    case off = 0
    /// Standard stabilisation.
    case standard = 1
    /// Cinematic stabilisation.
    case cinematic = 2
    /// Extended cinematic stabilisation.
    case cinematicExtended = 3
    /// The best stabilisation the format offers.
    case auto = -1
}
