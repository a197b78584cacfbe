import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// Whether the device supports an exposure mode.
    public func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool { backend.capabilities.exposureModes.contains(exposureMode.control) }

    /// How the device sets its exposure.
    public var exposureMode: ExposureMode {
        get { ExposureMode(backend.imaging.current.exposureMode) }
        set {
            ProgrammingError.requireConfigurationLock(self, "ExposureMode:")
            ProgrammingError.requireSupported(isExposureModeSupported(newValue), "-[AVCaptureDevice setExposureMode:] Unsupported exposure mode \(newValue)")
            backend.imaging.update { $0.exposureMode = newValue.control }
        }
    }

    /// Whether the device is changing its exposure now.
    public var isAdjustingExposure: Bool { backend.imaging.current.isAdjustingExposure }

    /// Whether the device can expose for a point of interest.
    public var isExposurePointOfInterestSupported: Bool { backend.capabilities.hasExposurePointOfInterest }

    /// The point to expose for, from (0, 0) at the top left to (1, 1) at the bottom right.
    public var exposurePointOfInterest: CGPoint {
        get { backend.imaging.current.exposurePointOfInterest }
        set {
            ProgrammingError.requireConfigurationLock(self, "ExposurePointOfInterest:")
            ProgrammingError.requireSupported(isExposurePointOfInterestSupported, "-[AVCaptureDevice setExposurePointOfInterest:] not supported by this device")
            let point = CGPoint(x: min(1, max(0, newValue.x)), y: min(1, max(0, newValue.y)))
            backend.imaging.update { $0.exposurePointOfInterest = point }
        }
    }

    /// The length of each exposure.
    public var exposureDuration: CMTime { CMTime(seconds: backend.imaging.current.exposureDuration, preferredTimescale: 1_000_000) }
    /// The sensor's gain, as an ISO value.
    public var iso: Float { backend.imaging.current.iso }
    /// The lens's aperture, as an f-number.
    public var lensAperture: Float { 2.4 }

    /// The bias applied to the exposure target, in EV units.
    public var exposureTargetBias: Float { backend.imaging.current.exposureTargetBias }
    /// The lowest exposure target bias.
    public var minExposureTargetBias: Float { -8 }
    /// The highest exposure target bias.
    public var maxExposureTargetBias: Float { 8 }
    /// How far the current exposure is from the target, in EV units.
    public var exposureTargetOffset: Float {
        let state = backend.imaging.current
        return Float(log2(state.exposureGain / state.exposureTargetGain))
    }

    /// Biases the exposure target; the handler receives the time of the first frame with the bias.
    public func setExposureTargetBias(_ bias: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        ProgrammingError.requireConfigurationLock(self, "ExposureTargetBias:")
        if bias != AVCaptureDevice.currentExposureTargetBias {
            if bias < minExposureTargetBias || bias > maxExposureTargetBias {
                ProgrammingError.invalidArgument(
                    "*** NSRangeException: exposure target bias \(bias) is outside \(minExposureTargetBias)...\(maxExposureTargetBias)")
            }
            backend.imaging.update { $0.exposureTargetBias = bias }
        }
        if let handler { DispatchQueue.global().async { handler(CMClockGetTime(CMClockGetHostTimeClock())) } }
    }

    /// Sets a custom exposure duration and ISO; the handler receives the time of the first frame with them.
    public func setExposureModeCustom(duration: CMTime, iso: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        ProgrammingError.requireConfigurationLock(self, "ExposureModeCustomWithDuration:ISO:")
        ProgrammingError.requireSupported(
            isExposureModeSupported(.custom), "-[AVCaptureDevice setExposureModeCustomWithDuration:ISO:] not supported by this device")
        let format = activeFormat
        if duration != AVCaptureDevice.currentExposureDuration, duration < format.minExposureDuration || duration > format.maxExposureDuration {
            ProgrammingError.invalidArgument("*** NSRangeException: exposure duration \(duration.seconds)s is outside the active format's range")
        }
        if iso != AVCaptureDevice.currentISO, iso < format.minISO || iso > format.maxISO {
            ProgrammingError.invalidArgument("*** NSRangeException: ISO \(iso) is outside \(format.minISO)...\(format.maxISO)")
        }
        backend.imaging.update { state in
            let current = (state.exposureDuration, state.iso)
            state.exposureMode = .custom
            state.customExposureDuration = duration.isValid && duration != AVCaptureDevice.currentExposureDuration ? duration.seconds : current.0
            state.customISO = iso == AVCaptureDevice.currentISO ? current.1 : iso
        }
        if let handler { DispatchQueue.global().async { handler(CMClockGetTime(CMClockGetHostTimeClock())) } }
    }
}
