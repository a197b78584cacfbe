import CaptureTestSupport
import XCTest
@testable import AVFoundation
import CaptureDevices
import TestSupport

/// What current SDKs' capture code asks a device, beyond its controls.
final class DeviceFactsTests: CaptureTestCase {
    private func count(_ name: NSNotification.Name, from device: AVCaptureDevice, during body: () -> Void) -> Int {
        let seen = LockedValue(0)
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
            if (note.object as? AVCaptureDevice) == device { seen.withLock { $0 += 1 } }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        body()
        return seen.withLock { $0 }
    }

    private func picture(blue: UInt8, red: UInt8) -> CVPixelBuffer {
        let buffer = CVPixelBuffer(width: 64, height: 48, pixelFormatType: kCVPixelFormatType_32BGRA)!
        let base = buffer.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<48 { for x in 0..<64 { let p = base + y * buffer.planes[0].bytesPerRow + x * 4; p[0] = blue; p[1] = 40; p[2] = red; p[3] = 255 } }
        return buffer
    }

    func testSubjectAreaChangesArePostedWhenThePictureChangesSubstantially() throws {
        // On a manual clock: each stretch below is a number of frames, whatever the machine's speed.
        let clock = VirtualClock.manual()
        backCamera.virtualScene!.clock = clock
        let collector = FrameCollector()
        let (session, _) = try makeVideoSession(collector: collector)
        session.startRunning()
        let camera = backCamera
        XCTAssertFalse(camera.isSubjectAreaChangeMonitoringEnabled, "off by default")
        // Off: a new scene posts nothing.
        let whileOff = count(.AVCaptureDeviceSubjectAreaDidChange, from: camera) {
            camera.virtualScene!.showImage(picture(blue: 230, red: 20))
            step(clock, frames: 18, collector: collector)
        }
        XCTAssertEqual(whileOff, 0)
        try camera.lockForConfiguration()
        camera.isSubjectAreaChangeMonitoringEnabled = true
        camera.unlockForConfiguration()
        // A still picture is no change.
        let still = count(.AVCaptureDeviceSubjectAreaDidChange, from: camera) { step(clock, frames: 30, collector: collector) }
        XCTAssertEqual(still, 0, "a still picture does not change")
        // The generated scene's moving square and line are small motion.
        camera.virtualScene!.showGeneratedScene()
        step(clock, frames: 12, collector: collector)
        let moving = count(.AVCaptureDeviceSubjectAreaDidChange, from: camera) { step(clock, frames: 45, collector: collector) }
        XCTAssertEqual(moving, 0, "small motion in the scene is not a new subject")
        // A new picture is.
        let changed = count(.AVCaptureDeviceSubjectAreaDidChange, from: camera) {
            camera.virtualScene!.showImage(picture(blue: 20, red: 230))
            step(clock, frames: 60, collector: collector)
        }
        XCTAssertEqual(changed, 1, "one change, posted once")
        // So is the light going out.
        let dark = count(.AVCaptureDeviceSubjectAreaDidChange, from: camera) {
            camera.virtualScene!.goDark()
            step(clock, frames: 45, collector: collector)
        }
        XCTAssertGreaterThanOrEqual(dark, 1)
        camera.virtualScene!.lightsOn()
    }

    func testSettingSubjectAreaMonitoringNeedsTheConfigurationLock() throws {
        // The trap without the lock is in ProgrammingErrorTests; the locked path works.
        try backCamera.lockForConfiguration()
        backCamera.isSubjectAreaChangeMonitoringEnabled = true
        backCamera.unlockForConfiguration()
        XCTAssertTrue(backCamera.isSubjectAreaChangeMonitoringEnabled)
    }

    func testFocusFactsAndSingleCameraFacts() {
        XCTAssertEqual(backCamera.minimumFocusDistance, 100)
        XCTAssertEqual(frontCamera.minimumFocusDistance, -1, "a fixed-focus camera does not say")
        XCTAssertEqual(backCamera.activeFormat.autoFocusSystem, .contrastDetection)
        XCTAssertEqual(frontCamera.activeFormat.autoFocusSystem, AVCaptureDevice.Format.AutoFocusSystem.none)
        XCTAssertEqual(backCamera.virtualDeviceSwitchOverVideoZoomFactors, [])
        XCTAssertFalse(backCamera.isVirtualDevice)
    }

    /// Every camera here delivers sRGB video without an HDR mode: each video format says so, the
    /// device's active color space is sRGB and setting it is accepted, and the HDR switch follows
    /// Apple's rules (automatic by default, settable only under the lock).
    func testColorSpacesAndVideoHDRAreWhatTheCamerasDeliver() throws {
        XCTAssertEqual(AVCaptureColorSpace.allRawValues, [0, 1, 2, 3, 4], "Apple's raw values")
        for camera in [backCamera, frontCamera] {
            XCTAssertTrue(camera.formats.allSatisfy { $0.supportedColorSpaces == [.sRGB] && !$0.isVideoHDRSupported })
            XCTAssertEqual(camera.activeColorSpace, .sRGB)
            XCTAssertFalse(camera.isVideoHDREnabled)
            XCTAssertTrue(camera.automaticallyAdjustsVideoHDREnabled, "automatic by default")
        }
        let microphone = try XCTUnwrap(AVCaptureDevice.default(for: .audio))
        XCTAssertEqual(microphone.activeFormat.supportedColorSpaces, [], "sound has no color space")
        try backCamera.lockForConfiguration()
        backCamera.activeColorSpace = .sRGB
        backCamera.automaticallyAdjustsVideoHDREnabled = false
        backCamera.isVideoHDREnabled = false
        XCTAssertFalse(backCamera.automaticallyAdjustsVideoHDREnabled)
        backCamera.automaticallyAdjustsVideoHDREnabled = true
        backCamera.unlockForConfiguration()
        XCTAssertTrue(backCamera.automaticallyAdjustsVideoHDREnabled)
        XCTAssertTrue(AVCaptureSession().automaticallyConfiguresCaptureDeviceForWideColor)
    }

    func testAMicrophoneHasOneFormatTheSoundItDelivers() throws {
        let microphone = try XCTUnwrap(AVCaptureDevice.default(for: .audio))
        XCTAssertEqual(microphone.formats.count, 1, "as Apple's microphones have")
        let format = microphone.activeFormat
        XCTAssertEqual(format.mediaType, .audio)
        XCTAssertEqual(format.formatDescription.mediaType, .audio)
        let asbd = try XCTUnwrap(format.formatDescription.audioStreamBasicDescription)
        let input = try AVCaptureDeviceInput(device: microphone)
        let port = try XCTUnwrap(input.ports.first?.formatDescription?.audioStreamBasicDescription)
        defer { withExtendedLifetime(input) {} }
        XCTAssertEqual(asbd.mSampleRate, port.mSampleRate, "the format is what the microphone delivers")
        XCTAssertEqual(asbd.mChannelsPerFrame, port.mChannelsPerFrame)
        XCTAssertEqual(format.videoSupportedFrameRateRanges, [])
        XCTAssertFalse(microphone.activeVideoMinFrameDuration.isValid)
        XCTAssertTrue(backCamera.formats.allSatisfy { $0.mediaType == .video })
    }

    func testEveryDeviceTypeIsSpelledAndOnlyPresentDevicesAreFound() {
        let types: [AVCaptureDevice.DeviceType] = [
            .builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .builtInDualCamera,
            .builtInDualWideCamera, .builtInTripleCamera, .builtInTrueDepthCamera, .builtInLiDARDepthCamera,
            .continuityCamera, .deskViewCamera, .microphone, .external,
        ]
        XCTAssertEqual(Set(types.map(\.rawValue)).count, types.count)
        XCTAssertEqual(AVCaptureDevice.DeviceType.builtInTripleCamera.rawValue, "AVCaptureDeviceTypeBuiltInTripleCamera")
        let multi = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInTripleCamera, .builtInDualWideCamera, .builtInDualCamera, .builtInTrueDepthCamera],
            mediaType: .video, position: .unspecified)
        XCTAssertTrue(multi.devices.isEmpty, "no multi-camera or depth camera exists here")
        let wide = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInTripleCamera, .builtInWideAngleCamera], mediaType: .video, position: .back)
        XCTAssertEqual(wide.devices.first, backCamera, "AVCam's list falls through to the wide-angle camera")
    }

    func testTheSystemPreferredCameraFollowsTheUsersChoiceWhileItIsConnected() throws {
        AVCaptureDevice.userPreferredCamera = nil
        defer { AVCaptureDevice.userPreferredCamera = nil }
        XCTAssertEqual(AVCaptureDevice.systemPreferredCamera, AVCaptureDevice.default(for: .video))
        let (front, back) = (frontCamera, backCamera)
        let seen = Recorder<AVCaptureDevice?>()
        let observation = AVCaptureDevice.self.observe(\.systemPreferredCamera, options: [.new]) { _, change in seen.append(change.newValue ?? nil) }
        AVCaptureDevice.userPreferredCamera = front
        XCTAssertEqual(AVCaptureDevice.userPreferredCamera, front)
        XCTAssertEqual(AVCaptureDevice.systemPreferredCamera, front)
        AVCaptureDevice.userPreferredCamera = microphone
        XCTAssertEqual(AVCaptureDevice.userPreferredCamera, front, "a microphone is not a camera")
        // The chosen camera goes away: the system prefers the default one until it returns.
        front.virtualScene!.disconnect()
        XCTAssertTrue(waitUntil { AVCaptureDevice.systemPreferredCamera == back })
        front.virtualScene!.reconnect()
        XCTAssertTrue(waitUntil { AVCaptureDevice.systemPreferredCamera == front })
        // Observers hear of a camera coming or going on the class's own queue, just after.
        XCTAssertTrue(waitUntil { seen.values.count >= 3 })
        observation.invalidate()
        XCTAssertEqual(seen.values.map { $0?.uniqueID }, [front.uniqueID, back.uniqueID, front.uniqueID])
    }

    func testTheRotationCoordinatorSaysAnUprightCameraIsLevel() {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 390, height: 844)
        let coordinator = AVCaptureDevice.RotationCoordinator(device: backCamera, previewLayer: layer)
        XCTAssertEqual(coordinator.device, backCamera)
        XCTAssertTrue(coordinator.previewLayer === layer)
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 390, height: 844))
        XCTAssertEqual(coordinator.videoRotationAngleForHorizonLevelPreview, 0)
        XCTAssertEqual(coordinator.videoRotationAngleForHorizonLevelCapture, 0)
        let angles = Recorder<CGFloat>()
        let observation = coordinator.observe(\.videoRotationAngleForHorizonLevelCapture, options: [.initial, .new]) { _, change in
            angles.append(change.newValue!)
        }
        XCTAssertEqual(angles.values, [0])
        observation.invalidate()
        // AVCam applies the angle to its connections, which take it.
        let connectionAngle = AVCaptureDevice.RotationCoordinator(device: frontCamera, previewLayer: nil).videoRotationAngleForHorizonLevelCapture
        XCTAssertTrue([0, 90, 180, 270].contains(connectionAngle))
    }
}

extension AVCaptureColorSpace {
    /// The raw values of every case, in declaration order.
    fileprivate static var allRawValues: [Int] { [Self.sRGB, .P3_D65, .HLG_BT2020, .appleLog, .appleLog2].map(\.rawValue) }
}
