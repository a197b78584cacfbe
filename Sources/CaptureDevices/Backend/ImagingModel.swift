import CoreVideo
import Foundation

/// Which imaging controls a device offers. Raw values are AVFoundation's enum raw values.
package struct ImagingCapabilities: Sendable {
    package var focusModes: Set<Int> = []
    package var hasFocusPointOfInterest = false
    package var hasSmoothAutoFocus = false
    package var hasRangeRestriction = false
    package var exposureModes: Set<Int> = []
    package var hasExposurePointOfInterest = false
    package var whiteBalanceModes: Set<Int> = []
    package var hasFlash = false
    package var hasTorch = false
    /// Whether the lens can be moved to a position the client chooses.
    package var hasCustomLensPosition = false

    /// A camera with every control, as a phone's back camera has.
    package static let fullCamera = ImagingCapabilities(
        focusModes: [0, 1, 2], hasFocusPointOfInterest: true, hasSmoothAutoFocus: true, hasRangeRestriction: true,
        exposureModes: [0, 1, 2, 3], hasExposurePointOfInterest: true, whiteBalanceModes: [0, 1, 2], hasFlash: true, hasTorch: true,
        hasCustomLensPosition: true)
    /// A fixed-focus camera with automatic exposure and white balance, as a phone's front camera has.
    package static let fixedFocusCamera = ImagingCapabilities(
        focusModes: [0], exposureModes: [0, 1, 2, 3], hasExposurePointOfInterest: true, whiteBalanceModes: [0, 1, 2])
    /// A device with no imaging controls, such as a microphone.
    package static let none = ImagingCapabilities()
}

/// The state of a camera's imaging controls and of the light it sees.
package struct ImagingState: Sendable, Equatable {
    // Focus (AVCaptureDevice.FocusMode raw values: 0 locked, 1 autoFocus, 2 continuous).
    package var focusMode = 2
    package var lensPosition: Float = 0.5
    package var isAdjustingFocus = false
    package var focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
    package var autoFocusRangeRestriction = 0
    package var isSmoothAutoFocusEnabled = false
    package var focusScanRemaining: Double = 0

    // Exposure (0 locked, 1 autoExpose, 2 continuous, 3 custom).
    package var exposureMode = 2
    package var exposureGain: Double = 1
    package var isAdjustingExposure = false
    package var exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
    package var exposureTargetBias: Float = 0
    package var customExposureDuration: Double = 1.0 / 60
    package var customISO: Float = 100

    // White balance (0 locked, 1 auto, 2 continuous); gains of at least 1.
    package var whiteBalanceMode = 2
    package var redGain: Float = 1
    package var greenGain: Float = 1
    package var blueGain: Float = 1
    package var isAdjustingWhiteBalance = false

    // Flash and torch (0 off, 1 on, 2 auto).
    package var flashMode = 0
    package var torchMode = 0
    package var torchLevel: Float = 0
    package var isTorchActive = false
    /// Whether the flash is lighting the scene for a photo now.
    package var isFlashFiring = false

    // Zoom.
    package var videoZoomFactor: Double = 1
    package var zoomRampTarget: Double?
    package var zoomRampRate: Float = 0

    // The light the camera sees.
    package var sceneLuminance: Double = 1
    package var illuminantKelvin: Double = 5500
    /// Whether a running session streams from the camera.
    package var isStreaming = false

    /// The state of a camera with default controls in a normally lit room.
    package init() {}

    /// Gain beyond which exposure cannot go.
    package static let maxExposureGain: Double = 16
    /// The largest white balance gain.
    package static let maxWhiteBalanceGain: Float = 4

    /// The lens position that brings the subject at the focus point into focus.
    package var focusTarget: Float {
        var depth = Float(0.3 + 0.45 * focusPointOfInterest.x)
        if autoFocusRangeRestriction == 1 { depth = min(depth, 0.45) }
        if autoFocusRangeRestriction == 2 { depth = max(depth, 0.55) }
        return depth
    }

    /// The exposure gain the auto-exposure loop aims for.
    package var exposureTargetGain: Double {
        let light = max(sceneLuminance + (isTorchActive ? 0.5 * Double(torchLevel) : 0), 1.0 / 64)
        return min(Self.maxExposureGain, max(1.0 / 16, pow(2, Double(exposureTargetBias)) / light))
    }

    /// The tint the illuminant casts on the scene, as red and blue multipliers.
    package var illuminantTint: (red: Float, blue: Float) {
        let ratio = Float(illuminantKelvin / 5500)
        return (red: pow(1 / ratio, 0.6), blue: pow(ratio, 0.8))
    }

    /// The white balance gains that neutralise the illuminant.
    package var whiteBalanceTarget: (red: Float, green: Float, blue: Float) {
        let tint = illuminantTint
        var red = 1 / tint.red, blue = 1 / tint.blue, green: Float = 1
        let smallest = min(red, green, blue)
        red /= smallest; green /= smallest; blue /= smallest
        return (min(red, Self.maxWhiteBalanceGain), min(green, Self.maxWhiteBalanceGain), min(blue, Self.maxWhiteBalanceGain))
    }

    /// The exposure duration, in seconds, that the current gain implies.
    package var exposureDuration: Double {
        exposureMode == 3 ? customExposureDuration : min(1.0 / 30, max(1.0 / 8000, exposureGain / 60))
    }

    /// The ISO that the current gain implies.
    package var iso: Float {
        exposureMode == 3 ? customISO : Float(max(34, min(3264, 100 * exposureGain / (exposureDuration * 60))))
    }

    /// How far the picture is out of focus, from 0 (sharp) to 1.
    package var defocus: Float { min(1, abs(lensPosition - focusTarget) * 4) }

    /// How bright the rendered picture is, relative to a correct exposure.
    package var renderedBrightness: Double {
        let light = sceneLuminance + (isTorchActive ? 0.5 * Double(torchLevel) : 0)
        // A firing flash is metered (as a pre-flash would): the subject comes out correctly exposed, never darker.
        return isFlashFiring ? max(1, light * exposureGain) : light * exposureGain
    }

    /// The colour multipliers the rendered picture gets: the illuminant's tint times the gains.
    package var renderedColourGains: (red: Float, green: Float, blue: Float) {
        let tint = illuminantTint
        let norm = greenGain
        return (tint.red * redGain / norm, 1, tint.blue * blueGain / norm)
    }
}

/// A camera's imaging controls as a model that changes over time like a real camera's:
/// focus scans, exposure and white balance converge, zoom ramps.
///
/// Thread-safe. `tick` runs on the streaming thread once a frame; changes are reported to
/// `onChange` after the lock is released.
package final class ImagingModel: @unchecked Sendable {
    private let state: LockedValue<ImagingState>
    /// A receiver of changes, held in a structure so that reading it from the lock is a copy,
    /// not a re-abstraction of the closure (which allocates a thunk each time).
    private struct Receiver: Sendable {
        let call: @Sendable (ImagingState, ImagingState) -> Void
    }
    private let observer = LockedValue<Receiver?>(nil)
    private let controlHandler = LockedValue<Receiver?>(nil)

    /// Sets the receiver of every change, before observers hear of it: a hardware backend that applies controls.
    package func setControlHandler(_ handler: (@Sendable (ImagingState, ImagingState) -> Void)?) {
        controlHandler.withLock { $0 = handler.map(Receiver.init) }
    }

    package init(_ initial: ImagingState = ImagingState()) {
        var initial = initial
        let wb = initial.whiteBalanceTarget
        (initial.redGain, initial.greenGain, initial.blueGain) = wb
        initial.exposureGain = initial.exposureTargetGain
        state = LockedValue(initial)
    }

    /// The current state.
    package var current: ImagingState { state.withLock { $0 } }

    /// Sets the receiver of changes: old state, new state.
    package func setObserver(_ handler: (@Sendable (ImagingState, ImagingState) -> Void)?) {
        observer.withLock { $0 = handler.map(Receiver.init) }
    }

    /// Changes the state, then reports the change.
    @discardableResult
    package func update(_ body: (inout ImagingState) -> Void) -> ImagingState {
        let (old, new) = state.withLock { state -> (ImagingState, ImagingState) in
            let old = state
            body(&state)
            Self.settle(&state, old: old)
            return (old, state)
        }
        if old != new {
            controlHandler.withLock { $0 }?.call(old, new)
            observer.withLock { $0 }?.call(old, new)
        }
        return new
    }

    /// Advances the model by `seconds`; returns the state after it.
    @discardableResult
    package func tick(seconds: Double) -> ImagingState {
        update { Self.advance(&$0, by: seconds) }
    }

    /// Starts the adjustments that a mode change or a new point of interest calls for.
    private static func settle(_ s: inout ImagingState, old: ImagingState) {
        if s.focusMode != old.focusMode || s.focusPointOfInterest != old.focusPointOfInterest
            || s.autoFocusRangeRestriction != old.autoFocusRangeRestriction || (s.isStreaming && !old.isStreaming) {
            if s.focusMode == 1 || s.focusMode == 2 { startFocusScan(&s) }
            if s.focusMode == 0 { s.isAdjustingFocus = false; s.focusScanRemaining = 0 }
        }
        s.isTorchActive = s.isStreaming && (s.torchMode == 1 || (s.torchMode == 2 && s.sceneLuminance < 0.3)) && s.torchLevel > 0
        if s.exposureMode == 3 {
            s.exposureGain = min(ImagingState.maxExposureGain, (s.customExposureDuration * 60) * Double(s.customISO / 100))
            s.isAdjustingExposure = false
        }
        if s.exposureMode == 0 { s.isAdjustingExposure = false }
        if s.exposureMode == 1 || s.exposureMode == 2 {
            s.isAdjustingExposure = abs(log2(s.exposureGain / s.exposureTargetGain)) > 0.02
        }
        if s.whiteBalanceMode == 0 { s.isAdjustingWhiteBalance = false }
        if s.whiteBalanceMode == 1 || s.whiteBalanceMode == 2 {
            let target = s.whiteBalanceTarget
            s.isAdjustingWhiteBalance = abs(s.redGain - target.red) > 0.01 || abs(s.blueGain - target.blue) > 0.01
        }
    }

    private static func startFocusScan(_ s: inout ImagingState) {
        s.isAdjustingFocus = true
        s.focusScanRemaining = s.isSmoothAutoFocusEnabled ? 0.6 : 0.2
        // A contrast-detect scan first hunts away from focus, then converges.
        let target = s.focusTarget
        s.lensPosition = target > 0.5 ? max(0, target - 0.25) : min(1, target + 0.25)
    }

    private static func advance(_ s: inout ImagingState, by dt: Double) {
        guard s.isStreaming, dt > 0 else { return }
        if s.isAdjustingFocus {
            let speed: Float = s.isSmoothAutoFocusEnabled ? 0.5 : 1.5
            let target = s.focusTarget
            let step = speed * Float(dt)
            s.lensPosition = abs(target - s.lensPosition) <= step ? target : s.lensPosition + (target > s.lensPosition ? step : -step)
            s.focusScanRemaining -= dt
            if s.lensPosition == target, s.focusScanRemaining <= 0 {
                s.isAdjustingFocus = false
                s.focusScanRemaining = 0
                if s.focusMode == 1 { s.focusMode = 0 }
            }
        }
        if s.exposureMode == 1 || s.exposureMode == 2 {
            let target = s.exposureTargetGain
            let error = log2(target / s.exposureGain)
            let step = 4 * dt  // EV per second
            if abs(error) <= max(step, 0.02) {
                s.exposureGain = target
                s.isAdjustingExposure = false
                if s.exposureMode == 1 { s.exposureMode = 0 }
            } else {
                s.exposureGain *= pow(2, error > 0 ? step : -step)
                s.isAdjustingExposure = true
            }
        }
        if s.whiteBalanceMode == 1 || s.whiteBalanceMode == 2 {
            let target = s.whiteBalanceTarget
            let rate = Float(3 * dt)
            func approach(_ value: Float, _ goal: Float) -> Float {
                abs(goal - value) <= rate ? goal : value + (goal > value ? rate : -rate)
            }
            s.redGain = approach(s.redGain, target.red)
            s.greenGain = approach(s.greenGain, target.green)
            s.blueGain = approach(s.blueGain, target.blue)
            let done = s.redGain == target.red && s.greenGain == target.green && s.blueGain == target.blue
            s.isAdjustingWhiteBalance = !done
            if done, s.whiteBalanceMode == 1 { s.whiteBalanceMode = 0 }
        }
        if let target = s.zoomRampTarget {
            let factor = pow(2, Double(s.zoomRampRate) * dt)
            if target > s.videoZoomFactor {
                s.videoZoomFactor = min(target, s.videoZoomFactor * factor)
            } else {
                s.videoZoomFactor = max(target, s.videoZoomFactor / factor)
            }
            // A step that lands within rounding of the target reaches it, so that the change that
            // ends the ramp is the one that reads exactly the target.
            if abs(s.videoZoomFactor - target) <= target * 1e-6 {
                s.videoZoomFactor = target
                s.zoomRampTarget = nil
            }
        }
    }
}
