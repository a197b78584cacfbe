import CV4L2
import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing

/// A V4L2 capture device: a USB (UVC) camera, an embedded camera, or the kernel's vivid test driver.
///
/// Thread ownership: it streams on a thread of its own. Driver buffers are mapped once per
/// stream and handed to clients without copying when the client asked for the device's own
/// pixel format and no zoom; a buffer goes back to the driver as soon as the client lets go
/// of it. Zoom is optical up to the lens's longest focal length (ZOOM_ABSOLUTE), and digital
/// beyond it, or throughout on cameras without a zoom lens: the centre of the frame, scaled up.
package final class V4L2Camera: HardwareDeviceBase, CaptureDeviceBackend, @unchecked Sendable {
    package let path: String
    package let videoFormats: [CaptureVideoFormat]
    package let capabilities: ImagingCapabilities
    package let imaging: ImagingModel
    /// The driver's controls.
    package let controls: [V4L2Control]
    private let controlIDs: Set<UInt32>
    /// The most the lens zooms (ZOOM_ABSOLUTE's maximum over its minimum), or 1 without a zoom control; beyond it, zoom is digital.
    package let opticalZoomFactor: Double

    /// Opens a node to learn what it is; nil for nodes that are not video capture devices.
    init?(path: String) {
        self.path = path
        var formats: [CaptureVideoFormat] = []
        var controls: [V4L2Control] = []
        let descriptor: CaptureDeviceDescriptor
        var authorized = true
        do {
            let node = try V4L2Node(path: path)
            let capability = try node.capability()
            guard capability.isVideoCapture else { return nil }
            formats = node.formats()
            guard !formats.isEmpty else { return nil }
            controls = node.controls()
            let usb = capability.busInfo.hasPrefix("usb")
            descriptor = CaptureDeviceDescriptor(
                uniqueID: "v4l2:\(capability.busInfo):\(capability.card)", modelID: "\(capability.driver) \(capability.card)",
                localizedName: capability.card, manufacturer: capability.driver, mediaKind: .video,
                position: .unspecified, kind: usb ? .external : .builtInWideAngleCamera)
        } catch let error where error.errno == EACCES || error.errno == EPERM {
            // A camera this process may not open: listed, but not authorized.
            let name =
                (try? String(contentsOfFile: "/sys/class/video4linux/\((path as NSString).lastPathComponent)/name", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? path
            descriptor = CaptureDeviceDescriptor(
                uniqueID: "v4l2:\(path)", modelID: name, localizedName: name, manufacturer: "",
                mediaKind: .video, position: .unspecified, kind: .external)
            authorized = false
        } catch {
            return nil
        }
        let controlIDs = Set(controls.map(\.id))
        var optical = 1.0
        if let zoom = controls.first(where: { $0.id == V4L2ControlID.zoomAbsolute }), zoom.minimum > 0, zoom.maximum > zoom.minimum {
            optical = Double(zoom.maximum) / Double(zoom.minimum)
            formats = formats.map { format in
                var format = format
                format.zoomUpscaleThreshold = optical
                format.maxZoomFactor = max(DigitalZoom.maxFactor, optical)
                return format
            }
        }
        opticalZoomFactor = optical
        var capabilities = ImagingCapabilities()
        capabilities.focusModes = [.locked]
        capabilities.hasCustomLensPosition = controlIDs.contains(V4L2ControlID.focusAbsolute)
        if controlIDs.contains(V4L2ControlID.focusAuto) { capabilities.focusModes.insert(.continuous) }
        if controlIDs.contains(V4L2ControlID.autoFocusStart) { capabilities.focusModes.insert(.once) }
        if controlIDs.contains(V4L2ControlID.exposureAuto) { capabilities.exposureModes = [.locked, .continuous] }
        if controlIDs.contains(V4L2ControlID.exposureAbsolute) { capabilities.exposureModes.formUnion([.locked, .custom]) }
        if controlIDs.contains(V4L2ControlID.autoWhiteBalance) { capabilities.whiteBalanceModes = [.locked, .continuous] }
        // An LED flash (as v4l2-flash-led-class drivers expose one): a flash if the LED mode menu
        // offers V4L2_FLASH_LED_MODE_FLASH and the flash can be strobed, a torch if it offers TORCH.
        if let ledMode = controls.first(where: { $0.id == V4L2ControlID.flashLEDMode }) {
            capabilities.hasFlash = ledMode.menu[V4L2ControlID.ledModeFlash] != nil && controlIDs.contains(V4L2ControlID.flashStrobe)
            capabilities.hasTorch = ledMode.menu[V4L2ControlID.ledModeTorch] != nil
        }
        var initial = ImagingState()
        initial.focusMode = controlIDs.contains(V4L2ControlID.focusAuto) ? .continuous : .locked
        initial.exposureMode = capabilities.exposureModes.contains(.continuous) ? .continuous : .locked
        initial.whiteBalanceMode = capabilities.whiteBalanceModes.contains(.continuous) ? .continuous : .locked
        videoFormats = formats
        self.controls = controls
        self.controlIDs = controlIDs
        self.capabilities = capabilities
        imaging = ImagingModel(initial)
        super.init(descriptor: descriptor)
        if !authorized { setAuthorized(false) }
        imaging.setControlHandler { [weak self] old, new in self?.apply(old, new) }
    }

    // MARK: Controls

    /// The current value of a control.
    package func value(of control: UInt32) throws(CaptureBackendError) -> Int32 {
        do { return try V4L2Node(path: path).value(of: control) } catch { throw error.backendError }
    }

    /// Sets a control on the device.
    package func setValue(_ value: Int32, of control: UInt32) throws(CaptureBackendError) {
        do { try V4L2Node(path: path).setValue(value, of: control) } catch { throw error.backendError }
    }

    /// Sends control changes the client made through AVCaptureDevice to the driver.
    private func apply(_ old: ImagingState, _ new: ImagingState) {
        let ids = controlIDs
        if old.focusMode != new.focusMode, ids.contains(V4L2ControlID.focusAuto) {
            try? setValue(new.focusMode == .continuous ? 1 : 0, of: V4L2ControlID.focusAuto)
            if new.focusMode == .once, ids.contains(V4L2ControlID.autoFocusStart) { try? setValue(1, of: V4L2ControlID.autoFocusStart) }
        }
        if old.lensPosition != new.lensPosition, new.focusMode == .locked, let focus = controls.first(where: { $0.id == V4L2ControlID.focusAbsolute }) {
            try? setValue(Int32(Double(focus.minimum) + Double(new.lensPosition) * Double(focus.maximum - focus.minimum)), of: focus.id)
        }
        if old.exposureMode != new.exposureMode, let auto = controls.first(where: { $0.id == V4L2ControlID.exposureAuto }) {
            // V4L2_EXPOSURE_AUTO is 0, MANUAL 1, APERTURE_PRIORITY 3: use what the menu offers.
            let automatic: Int64 = auto.menu[0] != nil ? 0 : 3
            try? setValue(Int32(new.exposureMode == .continuous ? automatic : 1), of: auto.id)
        }
        if new.exposureMode == .custom, old.customExposureDuration != new.customExposureDuration || old.exposureMode != .custom,
            let absolute = controls.first(where: { $0.id == V4L2ControlID.exposureAbsolute })
        {
            let units = Int64(new.customExposureDuration * 10_000)  // in 100 µs units
            try? setValue(Int32(min(absolute.maximum, max(absolute.minimum, units))), of: absolute.id)
        }
        if old.whiteBalanceMode != new.whiteBalanceMode, ids.contains(V4L2ControlID.autoWhiteBalance) {
            try? setValue(new.whiteBalanceMode == .continuous ? 1 : 0, of: V4L2ControlID.autoWhiteBalance)
        }
        if new.whiteBalanceMode == .locked, (old.redGain, old.greenGain, old.blueGain) != (new.redGain, new.greenGain, new.blueGain),
            let temperature = controls.first(where: { $0.id == V4L2ControlID.whiteBalanceTemperature })
        {
            // Gains the client chose are a temperature to the camera; locking without new gains keeps the camera's own.
            let kelvin = Int64(WhiteBalanceModel.temperature(red: new.redGain, green: new.greenGain, blue: new.blueGain).kelvin.rounded())
            let step = max(1, temperature.step)
            let value = min(temperature.maximum, max(temperature.minimum, temperature.minimum + (kelvin - temperature.minimum + step / 2) / step * step))
            try? setValue(Int32(value), of: temperature.id)
        }
        applyLight(old, new)
        if old.videoZoomFactor != new.videoZoomFactor, opticalZoomFactor > 1, let zoom = controls.first(where: { $0.id == V4L2ControlID.zoomAbsolute }) {
            // The lens takes the zoom up to its longest focal length; the frame path does the rest.
            let optical = min(new.videoZoomFactor, opticalZoomFactor)
            try? setValue(Int32(min(zoom.maximum, max(zoom.minimum, Int64((Double(zoom.minimum) * optical).rounded())))), of: zoom.id)
        }
    }

    /// Lights the LED as the torch and a photo's flash ask: a flash is strobed when a photo
    /// fires it and stopped when the photo has its frame; the torch burns between flashes.
    private func applyLight(_ old: ImagingState, _ new: ImagingState) {
        guard capabilities.hasFlash || capabilities.hasTorch else { return }
        func mode(_ state: ImagingState) -> Int64 {
            if state.isFlashFiring, capabilities.hasFlash { return V4L2ControlID.ledModeFlash }
            return state.isTorchActive && capabilities.hasTorch ? V4L2ControlID.ledModeTorch : V4L2ControlID.ledModeNone
        }
        if new.torchLevel != old.torchLevel, new.torchLevel > 0,
            let intensity = controls.first(where: { $0.id == V4L2ControlID.flashTorchIntensity }), intensity.maximum > intensity.minimum
        {
            let range = Double(intensity.maximum - intensity.minimum)
            let value = max(intensity.minimum + max(1, intensity.step), intensity.minimum + Int64((Double(new.torchLevel) * range).rounded()))
            try? setValue(Int32(min(intensity.maximum, value)), of: intensity.id)
        }
        let (before, after) = (mode(old), mode(new))
        guard before != after else { return }
        if before == V4L2ControlID.ledModeFlash, controlIDs.contains(V4L2ControlID.flashStrobeStop) {
            try? setValue(1, of: V4L2ControlID.flashStrobeStop)
        }
        try? setValue(Int32(after), of: V4L2ControlID.flashLEDMode)
        if after == V4L2ControlID.ledModeFlash { try? setValue(1, of: V4L2ControlID.flashStrobe) }
    }

    // MARK: Streaming

    package func start(_ configuration: VideoStreamConfiguration?, sink: CaptureSampleSink) throws(CaptureBackendError) -> Int {
        guard isConnected else { throw .notConnected }
        guard isAuthorized else { throw .notAuthorized }
        guard let configuration else { throw .unsupportedConfiguration("a camera needs a video configuration") }
        // Open and configure here, so that a busy or failing device is reported to the caller.
        // A stream of our own whose frames a client still holds keeps the device busy for a moment.
        var setup: V4L2Stream?
        let deadline = Date().addingTimeInterval(1)
        while setup == nil {
            do {
                setup = try V4L2Stream(path: path, configuration: configuration, formats: videoFormats)
            } catch {
                let ours = lastMapping.withLock { $0.mapping != nil }
                guard error.errno == EBUSY, ours, Date() < deadline else { throw error.backendError }
                usleep(10_000)
            }
        }
        lastMapping.withLock { $0.mapping = setup!.mapping }
        let (generation, token) = beginStream(sink: sink)
        pendingSetup.withLock { $0 = (generation, setup!) }
        imaging.update { $0.isStreaming = true }
        if let token {
            spawnProducer(token: token, name: "\(descriptor.localizedName) frames") { [self] token in produce(thread: token) }
        }
        return generation
    }

    private let pendingSetup = LockedValue<(Int, V4L2Stream)?>(nil)
    private struct WeakMapping { weak var mapping: V4L2Stream.Mapping? }
    private let lastMapping = LockedValue(WeakMapping())

    override func didStop() {
        pendingSetup.withLock { $0 = nil }
        imaging.update { $0.isStreaming = false }
    }

    private func produce(thread token: Int) {
        var current: V4L2Stream?
        var generation = -1
        var lastTick = CMClock.hostTimeNanoseconds()
        var meter = SceneLightMeter()
        while let currentGeneration = currentGeneration(token: token) {
            // Zoom ramps (digital zoom) advance with time, like the rest of the imaging model.
            let now = CMClock.hostTimeNanoseconds()
            let zoom = imaging.tick(seconds: Double(now - lastTick) / 1e9).videoZoomFactor
            lastTick = now
            if let (pendingGeneration, setup) = pendingSetup.withLock({ value -> (Int, V4L2Stream)? in
                defer { value = nil }; return value
            }) {
                current?.close()
                current = setup
                generation = pendingGeneration
                do { try setup.startStreaming() } catch {
                    current = nil
                    report(error.errno == ENODEV ? .disconnected : .runtimeError(code: -11800))
                    break
                }
            }
            guard let active = current, currentGeneration == generation else {
                usleep(1000)
                continue
            }
            switch active.next(zoom: zoom / min(zoom, opticalZoomFactor)) {
            case .frame(let sample):
                if let luminance = meter.reading(of: sample) { imaging.meter(luminance) }
                deliver(sample, generation: generation)
            case .dropped(let time, let reason):
                drop(at: time, duration: active.frameDuration, reason: reason, generation: generation)
            case .idle:
                break
            case .failed(let error):
                let gone = error.errno == ENODEV || !active.deviceExists
                active.close()
                current = nil
                if gone {
                    setConnected(false)
                } else {
                    stop()
                    report(.runtimeError(code: -11800))
                }
            }
        }
        current?.close()
    }
}

/// V4L2 control IDs the backend maps onto AVCaptureDevice's controls.
package enum V4L2ControlID {
    static let cameraClassBase: UInt32 = 0x009A_0900
    package static let exposureAuto = cameraClassBase + 1
    package static let exposureAbsolute = cameraClassBase + 2
    package static let focusAbsolute = cameraClassBase + 10
    package static let focusAuto = cameraClassBase + 12
    package static let zoomAbsolute = cameraClassBase + 13
    package static let autoFocusStart = cameraClassBase + 28
    package static let autoWhiteBalance: UInt32 = 0x0098_090C
    package static let whiteBalanceTemperature: UInt32 = 0x0098_091A
    package static let brightness: UInt32 = 0x0098_0900
    static let flashClassBase: UInt32 = 0x009C_0900
    package static let flashLEDMode = flashClassBase + 1
    package static let flashStrobe = flashClassBase + 3
    package static let flashStrobeStop = flashClassBase + 4
    package static let flashTorchIntensity = flashClassBase + 8
    /// V4L2_FLASH_LED_MODE_NONE, _FLASH and _TORCH.
    package static let ledModeNone: Int64 = 0, ledModeFlash: Int64 = 1, ledModeTorch: Int64 = 2
}
