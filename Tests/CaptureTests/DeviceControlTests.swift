import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// The AV Foundation Programming Guide, "Focus Modes" to "White Balance", WWDC 2010 session 409's camera controls and WWDC 2013 session 610's zoom
/// and focus enhancements: modes, adjusting states observed over time, and the picture changing.
final class DeviceControlTests: CaptureTestCase {
    /// Records the values an observed property takes.
    private func runningSession(preset: AVCaptureSession.Preset = .low, pixelFormat: OSType? = kCVPixelFormatType_32BGRA) throws -> (
        AVCaptureSession, FrameCollector
    ) {
        let collector = FrameCollector()
        collector.measures = true
        let (session, _) = try makeVideoSession(preset: preset, pixelFormat: pixelFormat, collector: collector)
        session.startRunning()
        let started = { collector.frames.count >= 2 }
        XCTAssertTrue(backCamera.virtualScene!.clock.isManuallyAdvanced ? advanceUntil(started) : waitUntil(started))
        return (session, collector)
    }

    /// The mean of the last few frames' luma and colour.
    private func recentPicture(_ collector: FrameCollector, after: Int) -> (luma: Double, bgr: (Double, Double, Double)) {
        XCTAssertTrue(waitUntil { collector.frames.count >= after + 3 })
        let frames = collector.frames.suffix(3)
        let luma = frames.compactMap(\.meanLuma).reduce(0, +) / 3
        let bgr = frames.compactMap(\.meanBGR).reduce((0.0, 0.0, 0.0)) { ($0.0 + $1.0 / 3, $0.1 + $1.1 / 3, $0.2 + $1.2 / 3) }
        return (luma, bgr)
    }

    func testSettingAControlWithoutTheLockIsRefusedByTheLockCheck() {
        XCTAssertFalse(backCamera.isLockedForConfigurationByClient)
        XCTAssertNoThrow(try backCamera.lockForConfiguration())
        XCTAssertTrue(backCamera.isLockedForConfigurationByClient)
        backCamera.unlockForConfiguration()
        XCTAssertFalse(backCamera.isLockedForConfigurationByClient)
    }

    func testSupportFlagsTellTheTruth() {
        XCTAssertTrue(backCamera.isFocusModeSupported(.autoFocus))
        XCTAssertTrue(backCamera.isFocusModeSupported(.continuousAutoFocus))
        XCTAssertTrue(backCamera.isFocusPointOfInterestSupported)
        XCTAssertTrue(backCamera.hasTorch && backCamera.hasFlash)
        XCTAssertFalse(frontCamera.isFocusModeSupported(.autoFocus), "the front camera has fixed focus")
        XCTAssertEqual(frontCamera.focusMode, .locked)
        XCTAssertFalse(frontCamera.hasTorch)
        XCTAssertTrue(frontCamera.isTorchModeSupported(.off))
        XCTAssertFalse(frontCamera.isTorchModeSupported(.on))
        XCTAssertTrue(frontCamera.isExposureModeSupported(.continuousAutoExposure))
    }

    func testAutoFocusScansOnceThenLocks() throws {
        // The AV Foundation Programming Guide: "AVCaptureFocusModeAutoFocus: The camera does a single scan focus then reverts to locked."
        let (session, collector) = try runningSession()
        XCTAssertTrue(waitUntil { !self.backCamera.isAdjustingFocus }, "the initial continuous scan settles")
        let adjusting = Recorder<Bool>(), modes = Recorder<AVCaptureDevice.FocusMode>()
        let observation = backCamera.observe(\.isAdjustingFocus, options: [.new]) { _, change in adjusting.append(change.newValue!) }
        let modeObservation = backCamera.observe(\.focusMode, options: [.new]) { _, change in modes.append(change.newValue!) }
        try backCamera.lockForConfiguration()
        backCamera.focusPointOfInterest = CGPoint(x: 0.2, y: 0.5)
        backCamera.focusMode = .autoFocus
        backCamera.unlockForConfiguration()
        XCTAssertTrue(backCamera.isAdjustingFocus)
        let blurredFrame = collector.frames.count
        XCTAssertTrue(waitUntil { self.backCamera.focusMode == .locked })
        XCTAssertFalse(backCamera.isAdjustingFocus)
        // Observers are called on the device's thread after the property changes: wait for the calls.
        XCTAssertTrue(waitUntil { adjusting.values.count >= 2 && modes.values.count >= 2 })
        XCTAssertEqual(adjusting.values, [true, false], "observers see the scan start and end")
        XCTAssertEqual(modes.values, [.autoFocus, .locked])
        XCTAssertEqual(backCamera.lensPosition, 0.39, accuracy: 0.01, "the lens settles where the subject at the point is sharp")
        XCTAssertGreaterThan(collector.frames.count, blurredFrame)
        observation.invalidate()
        modeObservation.invalidate()
        session.stopRunning()
    }

    func testSmoothAutoFocusIsSlowerThanFastFocus() throws {
        // WWDC 2013 session 610: "Smooth auto-focus slows the focus scan and is less visually intrusive".
        let (session, _) = try runningSession()
        func scanDuration(smooth: Bool) throws -> TimeInterval {
            XCTAssertTrue(waitUntil { !self.backCamera.isAdjustingFocus })
            try backCamera.lockForConfiguration()
            backCamera.isSmoothAutoFocusEnabled = smooth
            backCamera.focusMode = .autoFocus
            backCamera.unlockForConfiguration()
            let start = Date()
            XCTAssertTrue(waitUntil { !self.backCamera.isAdjustingFocus })
            return Date().timeIntervalSince(start)
        }
        let fast = try scanDuration(smooth: false), smooth = try scanDuration(smooth: true)
        XCTAssertGreaterThan(smooth, fast * 1.8, "fast \(fast) s, smooth \(smooth) s")
        session.stopRunning()
    }

    func testContinuousAutoFocusRefocusesWhenThePointMovesAndFocusRangeRestrictsIt() throws {
        useManualClock()
        let (session, _) = try runningSession()
        XCTAssertTrue(advanceUntil { !self.backCamera.isAdjustingFocus })
        try backCamera.lockForConfiguration()
        backCamera.autoFocusRangeRestriction = .near
        backCamera.focusPointOfInterest = CGPoint(x: 0.9, y: 0.5)
        backCamera.unlockForConfiguration()
        XCTAssertTrue(backCamera.isAdjustingFocus, "continuous autofocus refocuses for a new point")
        XCTAssertTrue(advanceUntil { !self.backCamera.isAdjustingFocus })
        XCTAssertLessThanOrEqual(backCamera.lensPosition, 0.45, "near restriction keeps the lens near")
        XCTAssertEqual(backCamera.focusMode, .continuousAutoFocus, "continuous focus stays continuous")
        try backCamera.lockForConfiguration()
        backCamera.focusMode = .locked
        backCamera.unlockForConfiguration()
        let locked = backCamera.lensPosition
        backCamera.virtualScene!.moveSubject()
        pass(0.3)
        XCTAssertEqual(backCamera.lensPosition, locked, "a locked lens stays put")
        session.stopRunning()
    }

    func testFocusingBlursThePicture() throws {
        // On the manual clock each frame reaches the delegate before time moves on, so the lens's
        // state the delegate reads is the state the frame was taken in, however slow the machine.
        useManualClock()
        let (session, collector) = try runningSession(preset: .vga640x480)
        XCTAssertTrue(advanceUntil { !self.backCamera.isAdjustingFocus })
        var sharp: CVPixelBuffer?, blurred: CVPixelBuffer?
        let lock = NSLock()
        collector.onFrame = { sample in
            lock.lock(); defer { lock.unlock() }
            let copy = sample.imageBuffer.flatMap(TestImages.copy)
            if self.backCamera.isAdjustingFocus, self.backCamera.lensPosition != 0.3 + 0.45 * 0.5 {
                blurred = blurred ?? copy
            } else if sharp == nil {
                sharp = copy
            }
        }
        XCTAssertTrue(advanceUntil { lock.withLock { sharp != nil } })
        try backCamera.lockForConfiguration()
        backCamera.focusMode = .autoFocus
        backCamera.unlockForConfiguration()
        XCTAssertTrue(advanceUntil { lock.withLock { blurred != nil } })
        session.stopRunning()
        let sharpness = lock.withLock { (TestImages.edgeEnergy(sharp!), TestImages.edgeEnergy(blurred!)) }
        XCTAssertGreaterThan(sharpness.0, sharpness.1 * 1.5, "a frame taken while focusing has softer edges: \(sharpness)")
    }

    func testContinuousAutoExposureCompensatesForDarknessAndLockedExposureDoesNot() throws {
        let (session, collector) = try runningSession()
        let normal = recentPicture(collector, after: collector.frames.count)
        XCTAssertGreaterThan(normal.luma, 60)
        let durationBefore = backCamera.exposureDuration
        let adjusting = Recorder<Bool>()
        let observation = backCamera.observe(\.isAdjustingExposure, options: [.new]) { _, change in adjusting.append(change.newValue!) }
        backCamera.virtualScene!.luminance = 0.25
        XCTAssertTrue(waitUntil { adjusting.values.contains(true) })
        XCTAssertTrue(waitUntil { adjusting.values.last == false })
        XCTAssertGreaterThan(
            backCamera.exposureDuration.seconds * Double(backCamera.iso), durationBefore.seconds * 100 * 3.5, "exposure rose by about four times")
        let compensated = recentPicture(collector, after: collector.frames.count)
        XCTAssertEqual(compensated.luma, normal.luma, accuracy: 8, "auto exposure restores the brightness")
        observation.invalidate()

        try backCamera.lockForConfiguration()
        backCamera.exposureMode = .locked
        backCamera.unlockForConfiguration()
        backCamera.virtualScene!.luminance = 0.0625
        let locked = recentPicture(collector, after: collector.frames.count + 2)
        XCTAssertLessThan(locked.luma, compensated.luma / 2.5, "with exposure locked, a darker scene gives a darker picture")
        XCTAssertFalse(backCamera.isAdjustingExposure)
        session.stopRunning()
    }

    func testAutoExposeSettlesOnceThenLocks() throws {
        let (session, _) = try runningSession()
        backCamera.virtualScene!.luminance = 0.5
        try backCamera.lockForConfiguration()
        backCamera.exposureMode = .autoExpose
        backCamera.unlockForConfiguration()
        XCTAssertTrue(waitUntil { self.backCamera.exposureMode == .locked })
        XCTAssertFalse(backCamera.isAdjustingExposure)
        XCTAssertEqual(backCamera.exposureTargetOffset, 0, accuracy: 0.05)
        session.stopRunning()
    }

    func testExposureBiasAndCustomExposureChangeTheBrightness() throws {
        let (session, collector) = try runningSession()
        let normal = recentPicture(collector, after: collector.frames.count)
        try backCamera.lockForConfiguration()
        backCamera.setExposureTargetBias(-2)
        backCamera.unlockForConfiguration()
        XCTAssertTrue(waitUntil { !self.backCamera.isAdjustingExposure && self.backCamera.exposureTargetBias == -2 })
        let darker = recentPicture(collector, after: collector.frames.count)
        XCTAssertLessThan(darker.luma, normal.luma * 0.5)
        try backCamera.lockForConfiguration()
        backCamera.setExposureModeCustom(duration: CMTime(value: 1, timescale: 30), iso: 200)
        backCamera.unlockForConfiguration()
        XCTAssertEqual(backCamera.exposureMode, .custom)
        XCTAssertEqual(backCamera.iso, 200)
        let brighter = recentPicture(collector, after: collector.frames.count + 1)
        XCTAssertGreaterThan(brighter.luma, normal.luma * 1.5, "twice the duration at twice the ISO")
        session.stopRunning()
    }

    func testTheTorchLightsOnlyWithARunningSessionAndBrightensTheDark() throws {
        // The AV Foundation Programming Guide: "the torch only turns on if the device is associated with a running capture session."
        try backCamera.lockForConfiguration()
        backCamera.torchMode = .on
        backCamera.exposureMode = .locked
        backCamera.unlockForConfiguration()
        XCTAssertFalse(backCamera.isTorchActive)
        backCamera.virtualScene!.goDark()
        try backCamera.lockForConfiguration()
        backCamera.torchMode = .off
        backCamera.unlockForConfiguration()
        let (session, collector) = try runningSession()
        let dark = recentPicture(collector, after: collector.frames.count)
        XCTAssertLessThan(dark.luma, 3, "in the dark with no torch the picture is black")
        let active = Recorder<Bool>()
        let observation = backCamera.observe(\.isTorchActive, options: [.new]) { _, change in active.append(change.newValue!) }
        try backCamera.lockForConfiguration()
        try backCamera.setTorchModeOn(level: 1)
        backCamera.unlockForConfiguration()
        XCTAssertTrue(backCamera.isTorchActive)
        XCTAssertEqual(backCamera.torchLevel, 1)
        let lit = recentPicture(collector, after: collector.frames.count + 1)
        XCTAssertGreaterThan(lit.luma, 30, "the torch lights the scene")
        session.stopRunning()
        XCTAssertFalse(backCamera.isTorchActive, "the torch goes out when the session stops")
        XCTAssertEqual(active.values, [true, false])
        observation.invalidate()
    }

    func testWhiteBalanceNeutralisesWarmLightAndLockedBalanceKeepsTheCast() throws {
        let (session, collector) = try runningSession()
        try backCamera.lockForConfiguration()
        backCamera.whiteBalanceMode = .locked
        backCamera.unlockForConfiguration()
        let neutral = recentPicture(collector, after: collector.frames.count)
        backCamera.virtualScene!.illuminantTemperature = 2800
        let warm = recentPicture(collector, after: collector.frames.count + 1)
        XCTAssertGreaterThan(warm.bgr.2 / warm.bgr.0, neutral.bgr.2 / neutral.bgr.0 * 1.4, "locked balance: tungsten light turns the picture orange")
        let adjusting = Recorder<Bool>()
        let observation = backCamera.observe(\.isAdjustingWhiteBalance, options: [.new]) { _, change in adjusting.append(change.newValue!) }
        try backCamera.lockForConfiguration()
        backCamera.whiteBalanceMode = .continuousAutoWhiteBalance
        backCamera.unlockForConfiguration()
        XCTAssertTrue(waitUntil { adjusting.values == [true, false] })
        XCTAssertGreaterThan(backCamera.deviceWhiteBalanceGains.blueGain, backCamera.deviceWhiteBalanceGains.redGain)
        let balanced = recentPicture(collector, after: collector.frames.count + 1)
        XCTAssertEqual(balanced.bgr.2 / balanced.bgr.0, neutral.bgr.2 / neutral.bgr.0, accuracy: 0.12, "auto white balance restores neutral colour")
        observation.invalidate()
        try backCamera.lockForConfiguration()
        backCamera.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 1))
        backCamera.unlockForConfiguration()
        XCTAssertEqual(backCamera.whiteBalanceMode, .locked)
        XCTAssertEqual(backCamera.deviceWhiteBalanceGains, .init(redGain: 1, greenGain: 1, blueGain: 1))
        session.stopRunning()
    }

    func testZoomCropsThePicture() throws {
        let (session, collector) = try runningSession(preset: .vga640x480)
        XCTAssertTrue(waitUntil { !self.backCamera.isAdjustingFocus }, "measure sharp frames")
        var frames: [CVPixelBuffer] = []
        let lock = NSLock()
        collector.onFrame = { sample in lock.withLock { if let copy = sample.imageBuffer.flatMap(TestImages.copy) { frames.append(copy) } } }
        XCTAssertTrue(waitUntil { lock.withLock { frames.count >= 3 } })
        let wide = lock.withLock { Array(frames.suffix(3)) }
        try backCamera.lockForConfiguration()
        backCamera.videoZoomFactor = 2
        backCamera.unlockForConfiguration()
        let count = lock.withLock { frames.count }
        XCTAssertTrue(waitUntil { lock.withLock { frames.count >= count + 5 } })
        let zoomed = lock.withLock { Array(frames.suffix(3)) }
        session.stopRunning()
        // The bars are an eighth of the width each; at 2x they are a quarter.
        XCTAssertEqual(TestImages.barWidth(wide), 80, accuracy: 2)
        XCTAssertEqual(TestImages.barWidth(zoomed), 160, accuracy: 3)
    }

    func testAZoomRampEndsInTheChangeThatReachesItsTarget() throws {
        // The change that ends a ramp reads exactly its target: no 3.99999994 while still ramping.
        let (session, _) = try runningSession()
        for target in [4.0, 2.5, 1.0, 3.3] as [CGFloat] {
            let endings = Recorder<(CGFloat, Bool)>()
            let observation = backCamera.observe(\.isRampingVideoZoom, options: [.new]) { device, change in
                if change.newValue == false { endings.append((device.videoZoomFactor, device.isRampingVideoZoom)) }
            }
            let factors = Recorder<(CGFloat, Bool)>()
            let zoom = backCamera.observe(\.videoZoomFactor, options: [.new]) { device, change in factors.append((change.newValue!, device.isRampingVideoZoom))
            }
            try backCamera.lockForConfiguration()
            backCamera.ramp(toVideoZoomFactor: target, withRate: 8)
            backCamera.unlockForConfiguration()
            XCTAssertTrue(waitUntil { !self.backCamera.isRampingVideoZoom })
            spin(0.1)
            observation.invalidate()
            zoom.invalidate()
            XCTAssertEqual(endings.values.count, 1, "one end of the ramp to \(target)")
            XCTAssertEqual(endings.values.first?.0, target, "the ramp ends at its target exactly")
            let last = try XCTUnwrap(factors.values.last)
            XCTAssertEqual(last.0, target)
            XCTAssertFalse(last.1, "the change that reaches \(target) is the one that ends the ramp")
            XCTAssertTrue(factors.values.dropLast().allSatisfy { $0.1 && $0.0 != target }, "no change reads the target while still ramping")
        }
        session.stopRunning()
    }

    func testObservationOptionsAndInvalidation() throws {
        let initial = Recorder<AVCaptureDevice.FocusMode?>(), old = Recorder<AVCaptureDevice.FocusMode?>()
        let observation = backCamera.observe(\.focusMode, options: [.initial, .new, .old]) { _, change in
            initial.append(change.newValue)
            old.append(change.oldValue)
        }
        XCTAssertEqual(initial.values, [.continuousAutoFocus], ".initial reports the current value at once")
        try backCamera.lockForConfiguration()
        backCamera.focusMode = .locked
        observation.invalidate()
        backCamera.focusMode = .continuousAutoFocus
        backCamera.unlockForConfiguration()
        XCTAssertEqual(initial.values, [.continuousAutoFocus, .locked])
        XCTAssertEqual(old.values, [nil, .continuousAutoFocus])
    }
}

/// Image helpers for control tests.
enum TestImages {
    static func copy(_ image: CVPixelBuffer) -> CVPixelBuffer? {
        var out: CVPixelBuffer?
        CVPixelBufferCreate(nil, CVPixelBufferGetWidth(image), CVPixelBufferGetHeight(image), CVPixelBufferGetPixelFormatType(image), nil, &out)
        guard let out, CVPixelBufferGetPlaneCount(image) == 0 else { return nil }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        memcpy(CVPixelBufferGetBaseAddress(out)!, CVPixelBufferGetBaseAddress(image)!, min(CVPixelBufferGetDataSize(out), CVPixelBufferGetDataSize(image)))
        return out
    }

    /// The sum of horizontal green differences over the lower half: high for sharp edges.
    static func edgeEnergy(_ image: CVPixelBuffer) -> Double {
        let base = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(image), width = CVPixelBufferGetWidth(image), height = CVPixelBufferGetHeight(image)
        var energy = 0.0
        for y in Swift.stride(from: height / 2, to: height, by: 8) {
            for x in 1..<width {
                let d = Double(base[y * stride + x * 4 + 1]) - Double(base[y * stride + (x - 1) * 4 + 1])
                energy += d * d
            }
        }
        return energy
    }

    /// The width of the colour bars in consecutive BGRA frames of the virtual scene. The sweeping
    /// line is taken out by the median of each pixel over the frames (it moves past any pixel within
    /// one frame); the bouncing square and the counter's box cut some rows' bars into other widths,
    /// so the width is the one most rows measure (each row's bar edges nearest each other, more
    /// than 20 pixels apart), over 15 rows from top to bottom.
    static func barWidth(_ images: [CVPixelBuffer]) -> Double {
        let width = CVPixelBufferGetWidth(images[0]), height = CVPixelBufferGetHeight(images[0])
        var widths: [Int] = []
        for band in 1...15 {
            let row = height * band / 16
            // The row's median over the frames, pixel by pixel.
            let line: [(Int, Int, Int)] = (0..<width).map { x in
                let samples = images.map { image -> (Int, Int, Int) in
                    let base = CVPixelBufferGetBaseAddress(image)!.assumingMemoryBound(to: UInt8.self) + row * CVPixelBufferGetBytesPerRow(image)
                    return (Int(base[x * 4]), Int(base[x * 4 + 1]), Int(base[x * 4 + 2]))
                }
                let median = { (channel: ((Int, Int, Int)) -> Int) in samples.map(channel).sorted()[samples.count / 2] }
                return (median { $0.0 }, median { $0.1 }, median { $0.2 })
            }
            func differs(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool { abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2) > 30 }
            let edges = (1..<width).filter { differs(line[$0], line[$0 - 1]) }
            widths += zip(edges, edges.dropFirst()).map { $1 - $0 }.filter { $0 > 20 }
        }
        // The width measured most often, give or take two pixels.
        let counted = widths.map { candidate in (candidate, widths.filter { abs($0 - candidate) <= 2 }.count) }
        return Double(counted.max { $0.1 < $1.1 }?.0 ?? 0)
    }
}

extension NSLock {
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

extension DeviceControlTests {
    func testTemperatureAndTintConvertToGainsAndBack() {
        let camera = backCamera
        let daylight = camera.deviceWhiteBalanceGains(for: .init(temperature: 5500, tint: 0))
        XCTAssertEqual(daylight, AVCaptureDevice.WhiteBalanceGains(), "daylight needs no correction")
        let tungsten = camera.deviceWhiteBalanceGains(for: .init(temperature: 3200, tint: 0))
        XCTAssertGreaterThan(tungsten.blueGain, tungsten.redGain, "warm light needs more blue")
        let shade = camera.deviceWhiteBalanceGains(for: .init(temperature: 7500, tint: 0))
        XCTAssertGreaterThan(shade.redGain, shade.blueGain, "cool light needs more red")
        for gains in [tungsten, shade, daylight] {
            XCTAssertGreaterThanOrEqual(min(gains.redGain, gains.greenGain, gains.blueGain), 1)
            XCTAssertLessThanOrEqual(max(gains.redGain, gains.greenGain, gains.blueGain), camera.maxWhiteBalanceGain)
        }
        for (temperature, tint) in [(Float(4000), Float(20)), (7000, -30), (3200, 0)] {
            let back = camera.temperatureAndTintValues(for: camera.deviceWhiteBalanceGains(for: .init(temperature: temperature, tint: tint)))
            XCTAssertEqual(back.temperature, temperature, accuracy: 1, "\(temperature) K")
            XCTAssertEqual(back.tint, tint, accuracy: 0.5, "tint \(tint)")
        }
    }
}
