import CoreVideo
import Foundation

/// Which imaging controls a device offers.
package struct ImagingCapabilities: Sendable {
    package var focusModes: Set<FocusControl> = []
    package var hasFocusPointOfInterest = false
    package var hasSmoothAutoFocus = false
    package var hasRangeRestriction = false
    package var exposureModes: Set<ExposureControl> = []
    package var hasExposurePointOfInterest = false
    package var whiteBalanceModes: Set<WhiteBalanceControl> = []
    package var hasFlash = false
    package var hasTorch = false
    /// Whether the lens can be moved to a position the client chooses.
    package var hasCustomLensPosition = false

    /// A camera with every control, as a phone's back camera has.
    package static let fullCamera = ImagingCapabilities(
        focusModes: [.locked, .once, .continuous], hasFocusPointOfInterest: true, hasSmoothAutoFocus: true, hasRangeRestriction: true,
        exposureModes: [.locked, .once, .continuous, .custom], hasExposurePointOfInterest: true, whiteBalanceModes: [.locked, .once, .continuous],
        hasFlash: true, hasTorch: true,
        hasCustomLensPosition: true)
    /// A fixed-focus camera with automatic exposure and white balance, as a phone's front camera has.
    package static let fixedFocusCamera = ImagingCapabilities(
        focusModes: [.locked], exposureModes: [.locked, .once, .continuous, .custom], hasExposurePointOfInterest: true,
        whiteBalanceModes: [.locked, .once, .continuous])
    /// A device with no imaging controls, such as a microphone.
    package static let none = ImagingCapabilities()
}

/// The state of a camera's imaging controls and of the light it sees.
package struct ImagingState: Sendable, Equatable {
    // Focus.
    package var focusMode = FocusControl.continuous
    package var lensPosition: Float = 0.5
    package var isAdjustingFocus = false
    package var focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
    package var autoFocusRangeRestriction = FocusRange.unrestricted
    package var isSmoothAutoFocusEnabled = false
    package var focusScanRemaining: Double = 0

    // Exposure.
    package var exposureMode = ExposureControl.continuous
    package var exposureGain: Double = 1
    package var isAdjustingExposure = false
    package var exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
    package var exposureTargetBias: Float = 0
    package var customExposureDuration: Double = 1.0 / 60
    package var customISO: Float = 100

    // White balance; gains of at least 1.
    package var whiteBalanceMode = WhiteBalanceControl.continuous
    package var redGain: Float = 1
    package var greenGain: Float = 1
    package var blueGain: Float = 1
    package var isAdjustingWhiteBalance = false

    // Flash and torch.
    package var flashMode = LightControl.off
    package var torchMode = LightControl.off
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
        if autoFocusRangeRestriction == .near { depth = min(depth, 0.45) }
        if autoFocusRangeRestriction == .far { depth = max(depth, 0.55) }
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
        exposureMode == .custom ? customExposureDuration : min(1.0 / 30, max(1.0 / 8000, exposureGain / 60))
    }

    /// The ISO that the current gain implies.
    package var iso: Float {
        exposureMode == .custom ? customISO : Float(max(34, min(3264, 100 * exposureGain / (exposureDuration * 60))))
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
            || s.autoFocusRangeRestriction != old.autoFocusRangeRestriction || (s.isStreaming && !old.isStreaming)
        {
            if s.focusMode.adjusts { startFocusScan(&s) }
            if s.focusMode == .locked { s.isAdjustingFocus = false; s.focusScanRemaining = 0 }
        }
        s.isTorchActive = s.isStreaming && s.torchMode.isLit(sceneLuminance: s.sceneLuminance) && s.torchLevel > 0
        if s.exposureMode == .custom {
            s.exposureGain = min(ImagingState.maxExposureGain, (s.customExposureDuration * 60) * Double(s.customISO / 100))
            s.isAdjustingExposure = false
        }
        if s.exposureMode == .locked { s.isAdjustingExposure = false }
        if s.exposureMode.adjusts {
            s.isAdjustingExposure = abs(log2(s.exposureGain / s.exposureTargetGain)) > 0.02
        }
        if s.whiteBalanceMode == .locked { s.isAdjustingWhiteBalance = false }
        if s.whiteBalanceMode.adjusts {
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
                if s.focusMode == .once { s.focusMode = .locked }
            }
        }
        if s.exposureMode.adjusts {
            let target = s.exposureTargetGain
            let error = log2(target / s.exposureGain)
            let step = 4 * dt  // EV per second
            if abs(error) <= max(step, 0.02) {
                s.exposureGain = target
                s.isAdjustingExposure = false
                if s.exposureMode == .once { s.exposureMode = .locked }
            } else {
                s.exposureGain *= pow(2, error > 0 ? step : -step)
                s.isAdjustingExposure = true
            }
        }
        if s.whiteBalanceMode.adjusts {
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
            if done, s.whiteBalanceMode == .once { s.whiteBalanceMode = .locked }
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

extension ImagingModel {
    /// Takes a light meter's reading as the scene's luminance, unless the camera's own torch or
    /// flash is lighting the scene (which would put an automatic torch out again).
    package func meter(_ luminance: Double) {
        update { state in
            guard !state.isTorchActive, !state.isFlashFiring else { return }
            state.sceneLuminance = luminance
        }
    }
}
