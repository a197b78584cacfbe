import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// Whether the device supports a focus mode.
    public func isFocusModeSupported(_ focusMode: FocusMode) -> Bool { backend.capabilities.focusModes.contains(focusMode.control) }

    /// How the device focuses.
    public var focusMode: FocusMode {
        get { FocusMode(backend.imaging.current.focusMode) }
        set {
            ProgrammingError.requireConfigurationLock(self, "FocusMode:")
            ProgrammingError.requireSupported(isFocusModeSupported(newValue), "-[AVCaptureDevice setFocusMode:] Unsupported focus mode \(newValue)")
            backend.imaging.update { $0.focusMode = newValue.control }
        }
    }

    /// Whether the device is focusing now.
    public var isAdjustingFocus: Bool { backend.imaging.current.isAdjustingFocus }

    /// Whether the device can focus on a point of interest.
    public var isFocusPointOfInterestSupported: Bool { backend.capabilities.hasFocusPointOfInterest }

    /// The point to focus on, from (0, 0) at the top left to (1, 1) at the bottom right of the landscape picture.
    public var focusPointOfInterest: CGPoint {
        get { backend.imaging.current.focusPointOfInterest }
        set {
            ProgrammingError.requireConfigurationLock(self, "FocusPointOfInterest:")
            ProgrammingError.requireSupported(
                isFocusPointOfInterestSupported, "-[AVCaptureDevice setFocusPointOfInterest:] Focus point of interest is not supported by this device")
            let point = CGPoint(x: min(1, max(0, newValue.x)), y: min(1, max(0, newValue.y)))
            backend.imaging.update { $0.focusPointOfInterest = point }
        }
    }

    /// The lens position, from 0 (nearest) to 1 (farthest).
    public var lensPosition: Float { backend.imaging.current.lensPosition }

    /// Whether the client can lock focus at a lens position of its choosing.
    public var isLockingFocusWithCustomLensPositionSupported: Bool { backend.capabilities.hasCustomLensPosition }

    /// Locks focus at a lens position; the handler receives the time of the first frame at that position.
    public func setFocusModeLocked(lensPosition: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        ProgrammingError.requireConfigurationLock(self, "FocusModeLockedWithLensPosition:")
        ProgrammingError.requireSupported(
            isLockingFocusWithCustomLensPositionSupported, "-[AVCaptureDevice setFocusModeLockedWithLensPosition:] not supported by this device")
        backend.imaging.update { state in
            state.focusMode = .locked
            if lensPosition != AVCaptureDevice.currentLensPosition { state.lensPosition = min(1, max(0, lensPosition)) }
        }
        if let handler { DispatchQueue.global().async { handler(CMClockGetTime(CMClockGetHostTimeClock())) } }
    }

    /// Whether autofocus can be restricted to near or far subjects.
    public var isAutoFocusRangeRestrictionSupported: Bool { backend.capabilities.hasRangeRestriction }

    /// The range of distances autofocus searches.
    public var autoFocusRangeRestriction: AutoFocusRangeRestriction {
        get { AutoFocusRangeRestriction(backend.imaging.current.autoFocusRangeRestriction) }
        set {
            ProgrammingError.requireConfigurationLock(self, "AutoFocusRangeRestriction:")
            ProgrammingError.requireSupported(
                isAutoFocusRangeRestrictionSupported, "-[AVCaptureDevice setAutoFocusRangeRestriction:] not supported by this device")
            backend.imaging.update { $0.autoFocusRangeRestriction = newValue.range }
        }
    }

    /// Whether the device can focus smoothly, for movies.
    public var isSmoothAutoFocusSupported: Bool { backend.capabilities.hasSmoothAutoFocus }

    /// Whether autofocus moves the lens slowly and unobtrusively.
    public var isSmoothAutoFocusEnabled: Bool {
        get { backend.imaging.current.isSmoothAutoFocusEnabled }
        set {
            ProgrammingError.requireConfigurationLock(self, "SmoothAutoFocusEnabled:")
            ProgrammingError.requireSupported(isSmoothAutoFocusSupported, "-[AVCaptureDevice setSmoothAutoFocusEnabled:] not supported by this device")
            backend.imaging.update { $0.isSmoothAutoFocusEnabled = newValue }
        }
    }
}
