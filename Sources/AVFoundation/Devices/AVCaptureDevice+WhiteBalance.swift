import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// Whether the device supports a white balance mode.
    public func isWhiteBalanceModeSupported(_ whiteBalanceMode: WhiteBalanceMode) -> Bool {
        backend.capabilities.whiteBalanceModes.contains(whiteBalanceMode.control)
    }

    /// How the device balances white.
    public var whiteBalanceMode: WhiteBalanceMode {
        get { WhiteBalanceMode(backend.imaging.current.whiteBalanceMode) }
        set {
            ProgrammingError.requireConfigurationLock(self, "WhiteBalanceMode:")
            ProgrammingError.requireSupported(
                isWhiteBalanceModeSupported(newValue), "-[AVCaptureDevice setWhiteBalanceMode:] Unsupported white balance mode \(newValue)")
            backend.imaging.update { $0.whiteBalanceMode = newValue.control }
        }
    }

    /// Whether the device is changing its white balance now.
    public var isAdjustingWhiteBalance: Bool { backend.imaging.current.isAdjustingWhiteBalance }

    /// The gains the device applies now.
    public var deviceWhiteBalanceGains: WhiteBalanceGains {
        let state = backend.imaging.current
        return WhiteBalanceGains(redGain: state.redGain, greenGain: state.greenGain, blueGain: state.blueGain)
    }

    /// The gains that would make the scene's light neutral grey.
    public var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains {
        let target = backend.imaging.current.whiteBalanceTarget
        return WhiteBalanceGains(redGain: target.red, greenGain: target.green, blueGain: target.blue)
    }

    /// The largest gain any channel may have.
    public var maxWhiteBalanceGain: Float { ImagingState.maxWhiteBalanceGain }

    /// Whether the client can lock white balance at gains of its choosing.
    public var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool {
        isWhiteBalanceModeSupported(.locked) && isWhiteBalanceModeSupported(.autoWhiteBalance)
    }

    /// The device's gains for a colour temperature and tint, each from 1 to `maxWhiteBalanceGain`.
    public func deviceWhiteBalanceGains(for temperatureAndTintValues: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        let gains = WhiteBalanceModel.gains(
            kelvin: Double(temperatureAndTintValues.temperature), tint: Double(temperatureAndTintValues.tint),
            maxGain: maxWhiteBalanceGain)
        return WhiteBalanceGains(redGain: gains.red, greenGain: gains.green, blueGain: gains.blue)
    }

    /// The colour temperature and tint that the device's gains correct for.
    public func temperatureAndTintValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        let values = WhiteBalanceModel.temperature(red: whiteBalanceGains.redGain, green: whiteBalanceGains.greenGain, blue: whiteBalanceGains.blueGain)
        return WhiteBalanceTemperatureAndTintValues(temperature: Float(values.kelvin), tint: Float(values.tint))
    }

    /// Locks white balance at the given gains, each from 1 to `maxWhiteBalanceGain`.
    public func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        ProgrammingError.requireConfigurationLock(self, "WhiteBalanceModeLockedWithDeviceWhiteBalanceGains:")
        let keep = whiteBalanceGains == AVCaptureDevice.currentWhiteBalanceGains
        if !keep {
            for gain in [whiteBalanceGains.redGain, whiteBalanceGains.greenGain, whiteBalanceGains.blueGain] where gain < 1 || gain > maxWhiteBalanceGain {
                ProgrammingError.invalidArgument("*** NSInvalidArgumentException: white balance gain \(gain) is outside 1...\(maxWhiteBalanceGain)")
            }
        }
        backend.imaging.update { state in
            state.whiteBalanceMode = .locked
            if !keep { (state.redGain, state.greenGain, state.blueGain) = (whiteBalanceGains.redGain, whiteBalanceGains.greenGain, whiteBalanceGains.blueGain) }
        }
        if let handler { DispatchQueue.global().async { handler(CMClockGetTime(CMClockGetHostTimeClock())) } }
    }
}
