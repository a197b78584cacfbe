import CaptureDevices

// Apple's imaging modes and the device layer's controls, translated in one place.

extension AVCaptureDevice.FocusMode {
    init(_ control: FocusControl) {
        switch control {
        case .locked: self = .locked
        case .once: self = .autoFocus
        case .continuous: self = .continuousAutoFocus
        }
    }

    var control: FocusControl {
        switch self {
        case .locked: return .locked
        case .autoFocus: return .once
        case .continuousAutoFocus: return .continuous
        }
    }
}

extension AVCaptureDevice.ExposureMode {
    init(_ control: ExposureControl) {
        switch control {
        case .locked: self = .locked
        case .once: self = .autoExpose
        case .continuous: self = .continuousAutoExposure
        case .custom: self = .custom
        }
    }

    var control: ExposureControl {
        switch self {
        case .locked: return .locked
        case .autoExpose: return .once
        case .continuousAutoExposure: return .continuous
        case .custom: return .custom
        }
    }
}

extension AVCaptureDevice.WhiteBalanceMode {
    init(_ control: WhiteBalanceControl) {
        switch control {
        case .locked: self = .locked
        case .once: self = .autoWhiteBalance
        case .continuous: self = .continuousAutoWhiteBalance
        }
    }

    var control: WhiteBalanceControl {
        switch self {
        case .locked: return .locked
        case .autoWhiteBalance: return .once
        case .continuousAutoWhiteBalance: return .continuous
        }
    }
}

extension AVCaptureDevice.FlashMode {
    // A flash and a torch share their modes: Apple gives both enums the same cases and raw values.
    init(_ control: LightControl) { self.init(rawValue: AVCaptureDevice.TorchMode(control).rawValue)! }

    var control: LightControl { AVCaptureDevice.TorchMode(rawValue: rawValue)!.control }
}

extension AVCaptureDevice.TorchMode {
    init(_ control: LightControl) {
        switch control {
        case .off: self = .off
        case .on: self = .on
        case .auto: self = .auto
        }
    }

    var control: LightControl {
        switch self {
        case .off: return .off
        case .on: return .on
        case .auto: return .auto
        }
    }
}

extension AVCaptureDevice.AutoFocusRangeRestriction {
    init(_ range: FocusRange) {
        switch range {
        case .unrestricted: self = .none
        case .near: self = .near
        case .far: self = .far
        }
    }

    var range: FocusRange {
        switch self {
        case .none: return .unrestricted
        case .near: return .near
        case .far: return .far
        }
    }
}
