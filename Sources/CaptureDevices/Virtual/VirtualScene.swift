import CoreVideo
import Foundation
import FrameProcessing

/// What a virtual device shows and hears, and the events it can be made to report:
/// a stand-in for the world in front of a camera, for tests, demos and CI.
///
/// Every change takes effect at the next frame or audio buffer. Thread-safe.
public final class VirtualScene: @unchecked Sendable {
    struct Content {
        var image: CVPixelBuffer?
        var codes: [SceneCode] = []
        var pictures: [ScenePicture] = []
        var nextCodeID = 1
        var toneFrequency: Double = 440
        var toneAmplitude: Double = 0.3
        var isInterrupted = false
    }

    let content = LockedValue(Content())
    private let imaging: ImagingModel
    private let currentClock = LockedValue(VirtualClock.host)
    weak var device: (any VirtualSceneDevice)?

    init(imaging: ImagingModel) {
        self.imaging = imaging
    }

    /// The clock the device paces itself by: the host clock unless a manual one is set, best
    /// before the device starts streaming. Resetting the device returns it to the host clock.
    public var clock: VirtualClock {
        get { currentClock.withLock { $0 } }
        set { currentClock.withLock { $0 = newValue } }
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

    /// Prints a code of `symbology` carrying `payload` with its picture's corners (top left, top
    /// right, bottom right, bottom left, quiet zone included) at `corners` in scene coordinates;
    /// returns its identifier.
    package func placeCode(_ symbology: CodeSymbology, payload: String, corners: [CGPoint]) throws(CodeBitmap.Failure) -> Int {
        guard corners.count == 4 else { throw CodeBitmap.Failure(description: "a code has four corners; got \(corners.count)") }
        let bitmap = try CodeBitmap(symbology, payload: payload)
        return content.withLock { content in
            defer { content.nextCodeID += 1 }
            content.codes.append(SceneCode(id: content.nextCodeID, symbology: symbology, payload: payload, bitmap: bitmap, corners: corners))
            return content.nextCodeID
        }
    }

    /// The picture of a code, to place it by its centre, width and turn (see `SceneCode.corners(for:...)`).
    package func codeBitmap(_ symbology: CodeSymbology, payload: String) throws(CodeBitmap.Failure) -> CodeBitmap {
        try CodeBitmap(symbology, payload: payload)
    }

    /// Moves a printed code's corners; returns false when there is no such code.
    @discardableResult
    package func moveCode(_ id: Int, to corners: [CGPoint]) -> Bool {
        guard corners.count == 4 else { return false }
        return content.withLock { content in
            guard let index = content.codes.firstIndex(where: { $0.id == id }) else { return false }
            content.codes[index].corners = corners
            return true
        }
    }

    /// The codes printed in the scene.
    package var codes: [SceneCode] { content.withLock { $0.codes } }

    /// Takes a printed code out of the scene.
    public func removeCode(_ id: Int) { content.withLock { $0.codes.removeAll { $0.id == id } } }

    /// Takes every printed code out of the scene.
    public func removeAllCodes() { content.withLock { $0.codes.removeAll() } }

    /// Places an 8-bit grey picture with its corners at `corners` in scene coordinates; returns its identifier.
    package func placePicture(_ grey: CVPixelBuffer, corners: [CGPoint]) -> Int {
        content.withLock { content in
            defer { content.nextCodeID += 1 }
            content.pictures.append(ScenePicture(id: content.nextCodeID, grey: grey, corners: corners))
            return content.nextCodeID
        }
    }

    /// Moves a placed picture's corners; returns false when there is no such picture.
    @discardableResult
    package func movePicture(_ id: Int, to corners: [CGPoint]) -> Bool {
        guard corners.count == 4 else { return false }
        return content.withLock { content in
            guard let index = content.pictures.firstIndex(where: { $0.id == id }) else { return false }
            content.pictures[index].corners = corners
            return true
        }
    }

    /// The pictures placed in the scene.
    package var pictures: [ScenePicture] { content.withLock { $0.pictures } }

    /// Takes a placed picture out of the scene.
    public func removePicture(_ id: Int) { content.withLock { $0.pictures.removeAll { $0.id == id } } }

    /// Takes every placed picture out of the scene.
    public func removeAllPictures() { content.withLock { $0.pictures.removeAll() } }

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
            if state.focusMode == .continuous {
                state.focusScanRemaining = 0.2; state.isAdjustingFocus = true; state.lensPosition = max(0, state.lensPosition - 0.2)
            }
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
