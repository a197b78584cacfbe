import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// Whether the device has a flash.
    public var hasFlash: Bool { backend.capabilities.hasFlash }
    /// Whether the flash can be used now.
    public var isFlashAvailable: Bool { hasFlash && isConnected }
    /// Whether the flash would fire for a still image taken now.
    public var isFlashActive: Bool {
        let state = backend.imaging.current
        return hasFlash && state.flashMode.isLit(sceneLuminance: state.sceneLuminance)
    }
    /// Whether the device supports a flash mode.
    public func isFlashModeSupported(_ flashMode: FlashMode) -> Bool { hasFlash || flashMode == .off }

    /// When the flash fires.
    public var flashMode: FlashMode {
        get { FlashMode(backend.imaging.current.flashMode) }
        set {
            ProgrammingError.requireConfigurationLock(self, "FlashMode:")
            ProgrammingError.requireSupported(isFlashModeSupported(newValue), "-[AVCaptureDevice setFlashMode:] Unsupported flash mode \(newValue)")
            backend.imaging.update { $0.flashMode = newValue.control }
        }
    }

    /// Whether the device has a torch.
    public var hasTorch: Bool { backend.capabilities.hasTorch }
    /// Whether the torch can be used now.
    public var isTorchAvailable: Bool { hasTorch && isConnected }
    /// Whether the torch is lit now: only while a running session uses the device.
    public var isTorchActive: Bool { backend.imaging.current.isTorchActive }
    /// The torch's brightness, from 0 to 1.
    public var torchLevel: Float { backend.imaging.current.torchMode == .off ? 0 : backend.imaging.current.torchLevel }
    /// Whether the device supports a torch mode.
    public func isTorchModeSupported(_ torchMode: TorchMode) -> Bool { hasTorch || torchMode == .off }

    /// When the torch is lit.
    public var torchMode: TorchMode {
        get { TorchMode(backend.imaging.current.torchMode) }
        set {
            ProgrammingError.requireConfigurationLock(self, "TorchMode:")
            ProgrammingError.requireSupported(isTorchModeSupported(newValue), "-[AVCaptureDevice setTorchMode:] Unsupported torch mode \(newValue)")
            backend.imaging.update { state in
                state.torchMode = newValue.control
                if newValue != .off, state.torchLevel == 0 { state.torchLevel = 1 }
            }
        }
    }

    /// Turns the torch on at a level from just above 0 to 1, or `maxAvailableTorchLevel`.
    public func setTorchModeOn(level torchLevel: Float) throws {
        ProgrammingError.requireConfigurationLock(self, "TorchModeOnWithLevel:")
        if torchLevel <= 0 || torchLevel > 1 {
            ProgrammingError.invalidArgument("-[AVCaptureDevice setTorchModeOnWithLevel:] level \(torchLevel) is outside (0, 1]")
        }
        guard isTorchAvailable else { throw AVError(.torchLevelUnavailable, userInfo: [AVErrorDeviceKey: self]) }
        backend.imaging.update { state in
            state.torchMode = .on
            state.torchLevel = torchLevel
        }
    }
}
