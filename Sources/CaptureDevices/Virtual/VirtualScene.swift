import CoreVideo
import Foundation

/// What a virtual device shows and hears, and the events it can be made to report:
/// a stand-in for the world in front of a camera, for tests, demos and CI.
///
/// Every change takes effect at the next frame or audio buffer. Thread-safe.
public final class VirtualScene: @unchecked Sendable {
    struct Content {
        var image: CVPixelBuffer?
        var toneFrequency: Double = 440
        var toneAmplitude: Double = 0.3
        var isInterrupted = false
    }

    let content = LockedValue(Content())
    private let imaging: ImagingModel
    weak var device: (any VirtualSceneDevice)?

    init(imaging: ImagingModel) {
        self.imaging = imaging
    }

    /// Shows a picture, a 32-bit BGRA pixel buffer scaled to the frame, instead of the generated scene; `nil` returns to the scene.
    public func showImage(_ image: CVPixelBuffer?) {
        precondition(image == nil || image!.pixelFormatType == kCVPixelFormatType_32BGRA, "VirtualScene.showImage takes a 32BGRA pixel buffer")
        content.withLock { $0.image = image }
    }

    /// Returns to the generated scene: colour bars, a bouncing square and a sweeping line.
    public func showGeneratedScene() {
        content.withLock { $0.image = nil }
    }

    /// The scene's light, relative to a normally lit room: 1 is normal, 0 is darkness.
    public var luminance: Double {
        get { imaging.current.sceneLuminance }
        set { imaging.update { $0.sceneLuminance = max(0, newValue) } }
    }

    /// Turns the lights off: the camera sees darkness, lit only by its torch.
    public func goDark() { luminance = 0 }

    /// Turns the lights back on.
    public func lightsOn() { luminance = 1 }

    /// The colour temperature of the light, in kelvin; white balance neutralises it.
    public var illuminantTemperature: Double {
        get { imaging.current.illuminantKelvin }
        set { imaging.update { $0.illuminantKelvin = min(12000, max(1800, newValue)) } }
    }

    /// Moves the subject the camera's continuous autofocus follows, starting a new focus scan.
    public func moveSubject() {
        imaging.update { state in
            if state.focusMode == 2 { state.focusScanRemaining = 0.2; state.isAdjustingFocus = true; state.lensPosition = max(0, state.lensPosition - 0.2) }
        }
    }

    /// The frequency of the microphone's tone, in hertz.
    public var toneFrequency: Double {
        get { content.withLock { $0.toneFrequency } }
        set { content.withLock { $0.toneFrequency = newValue } }
    }

    /// The peak amplitude of the microphone's tone, from 0 (silence) to 1 (full scale).
    public var toneAmplitude: Double {
        get { content.withLock { $0.toneAmplitude } }
        set { content.withLock { $0.toneAmplitude = min(1, max(0, newValue)) } }
    }

    /// Interrupts the device, as another client taking it would; AVCaptureSession reason codes apply.
    public func interrupt(reason: Int = 3) {
        content.withLock { $0.isInterrupted = true }
        device?.report(.interrupted(reason: reason))
    }

    /// Ends an interruption; capture resumes.
    public func endInterruption() {
        content.withLock { $0.isInterrupted = false }
        device?.report(.interruptionEnded)
    }

    /// Unplugs the device: it stops streaming and reports itself disconnected.
    public func disconnect() { device?.setConnected(false) }

    /// Plugs the device back in.
    public func reconnect() { device?.setConnected(true) }

    /// Makes the device fail with a runtime error of the given AVError code.
    public func failWithRuntimeError(code: Int) { device?.report(.runtimeError(code: code)) }

    /// Denies or grants this process access to the device, as a user's choice would.
    public func setAuthorized(_ authorized: Bool) { device?.setAuthorized(authorized) }
}

/// What a scene needs of the device it belongs to.
protocol VirtualSceneDevice: AnyObject, Sendable {
    /// Reports an event to the device's owner.
    func report(_ event: CaptureDeviceEvent)
    /// Marks the device connected or not.
    func setConnected(_ connected: Bool)
    /// Marks the device allowed or not.
    func setAuthorized(_ authorized: Bool)
}
