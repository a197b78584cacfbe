import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
@testable import FrameProcessing
import TestSupport

/// A real V4L2 camera: the kernel's vivid driver, in the VM that `scripts/vm/test-in-vm.sh` runs.
/// On a machine without one, these tests skip.
final class V4L2CameraTests: CaptureTestCase {
    private var camera: AVCaptureDevice!

    override func setUpWithError() throws {
        guard let vivid = AVCaptureDevice.devices(for: .video).first(where: { $0.uniqueID.hasPrefix("v4l2:") && $0.manufacturer == "vivid" }) else {
            throw XCTSkip("no vivid V4L2 camera here: run scripts/vm/test-in-vm.sh")
        }
        camera = vivid
    }

    private func format(_ pixelFormat: OSType, _ width: Int32 = 640, _ height: Int32 = 480) throws -> AVCaptureDevice.Format {
        try XCTUnwrap(
            camera.formats.first {
                $0.backing.pixelFormat == pixelFormat && $0.formatDescription.dimensions == CMVideoDimensions(width: width, height: height)
            },
            "vivid offers \(pixelFormat.fourCharacterString) \(width)x\(height)")
    }

    private func session(_ format: AVCaptureDevice.Format, rate: Int32 = 25, deliver pixelFormat: OSType? = nil, collector: FrameCollector) throws
        -> AVCaptureSession
    {
        let (session, _) = try makeVideoSession(camera: camera, format: format, framesPerSecond: rate, pixelFormat: pixelFormat, collector: collector)
        XCTAssertEqual(session.sessionPreset, .inputPriority)
        return session
    }

    func testDiscoveryListsTheCameraFirstWithItsFormatsAndControls() throws {
        XCTAssertEqual(AVCaptureDevice.default(for: .video), camera, "hardware comes before the virtual cameras")
        XCTAssertTrue(camera.uniqueID.contains("platform:vivid"))
        XCTAssertEqual(camera.localizedName, "vivid")
        XCTAssertTrue(AVCaptureDevice.devices(for: .video).contains { $0.virtualScene != nil }, "the virtual cameras stay selectable")
        for pixelFormat in [
            kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
            kCVPixelFormatType_32BGRA, kCVPixelFormatType_24RGB,
        ] {
            let format = try format(pixelFormat)
            XCTAssertFalse(format.videoSupportedFrameRateRanges.isEmpty)
        }
        XCTAssertNotNil(camera.linuxControl(named: "Brightness"))
        XCTAssertFalse(camera.isFocusModeSupported(.continuousAutoFocus), "vivid has no focus control, and says so")
        XCTAssertFalse(camera.hasTorch)
        XCTAssertEqual(camera.activeFormat.videoZoomFactorUpscaleThreshold, 1, "vivid has no zoom lens: all its zoom is digital, upscaled")
        XCTAssertEqual(camera.focusMode, .locked)
    }

    func testStreamsEachClassOfPixelFormatWithHostClockTimestamps() throws {
        let cases: [(OSType, OSType?)] = [
            (kCVPixelFormatType_422YpCbCr8_yuvs, nil), (kCVPixelFormatType_422YpCbCr8, nil),
            (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil), (kCVPixelFormatType_32BGRA, nil),
            (kCVPixelFormatType_24RGB, kCVPixelFormatType_32BGRA), (kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
        ]
        for (native, wanted) in cases {
            let collector = FrameCollector()
            let lock = NSLock()
            var lags: [Double] = []
            collector.onFrame = { sample in
                let lag = (CMClockGetTime(CMClockGetHostTimeClock()) - sample.presentationTimeStamp).seconds
                lock.withLock { lags.append(lag) }
            }
            let session = try session(try format(native), deliver: wanted, collector: collector)
            session.startRunning()
            XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 8 }, "\(native.fourCharacterString) frames")
            session.stopRunning()
            let frames = collector.frames
            XCTAssertTrue(frames.allSatisfy { $0.pixelFormat == (wanted ?? native) && $0.width == 640 && $0.height == 480 }, native.fourCharacterString)
            for (a, b) in zip(frames, frames.dropFirst()) { XCTAssertLessThan(a.presentationTime, b.presentationTime) }
            // vivid stamps a frame with its nominal capture time, a little ahead of when it is dequeued.
            lock.withLock { XCTAssertTrue(lags.allSatisfy { $0 > -0.1 && $0 < 1 }, "the kernel's timestamps are on the host clock: \(lags)") }
        }
    }

    func testTheDriversOwnFormatIsHandedOverWithoutCopies() throws {
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 12 })
        session.stopRunning()
        let buffers = Set(collector.frames.compactMap(\.pixelBufferID))
        XCTAssertLessThanOrEqual(buffers.count, Int(V4L2Stream.bufferCount), "frames are the driver's mapped buffers, reused")
    }

    func testFrameRateFollowsTheActiveFrameDuration() throws {
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs, 320, 180), rate: 15, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 3 })
        let first = collector.frames.last!.presentationTime
        spin(3)
        session.stopRunning()
        XCTAssertEqual(frameRate(of: collector.frames, since: first), 15, accuracy: 2.5)
    }

    func testDigitalZoomShowsTheCentreOfTheDriversFrames() throws {
        let collector = FrameCollector()
        let latest = LockedBox<CMSampleBuffer?>(nil)
        collector.onFrame = { latest.value = $0 }
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), deliver: kCVPixelFormatType_32BGRA, collector: collector)
        XCTAssertEqual(camera.activeFormat.videoMaxZoomFactor, 16, "a camera without a zoom lens zooms digitally")
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 4 })
        let unzoomed = PixelStatistics.bars(try XCTUnwrap(latest.value))
        XCTAssertGreaterThanOrEqual(unzoomed, 7, "vivid's colour bars")
        try camera.lockForConfiguration()
        camera.videoZoomFactor = 4
        camera.unlockForConfiguration()
        let count = collector.frames.count
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= count + 4 })
        let zoomed = PixelStatistics.bars(try XCTUnwrap(latest.value))
        session.stopRunning()
        XCTAssertTrue((2...3).contains(zoomed), "the middle quarter shows two or three bars, not \(unzoomed): \(zoomed)")
        try camera.lockForConfiguration()
        camera.videoZoomFactor = 1
        camera.unlockForConfiguration()
    }

    /// Runs `body` once for each of vivid's colorspace menu values, set on the camera, and puts its default back.
    private func forEachColorspace<Expected>(_ values: [(Int64, Expected)], _ body: (Int64, Expected) throws -> Void) throws {
        let colorspace = try XCTUnwrap(camera.linuxControl(named: "Colorspace"), "vivid's colorspace control")
        defer {
            try? camera.lockForConfiguration()
            try? camera.setValue(colorspace.defaultValue, of: colorspace)
            camera.unlockForConfiguration()
        }
        for (value, expected) in values {
            try camera.lockForConfiguration()
            try camera.setValue(value, of: colorspace)
            camera.unlockForConfiguration()
            try body(value, expected)
        }
    }

    func testHDFramesDecodeWithTheMatrixTheDriverReports() throws {
        // vivid's menu: 2 (its default) is sRGB, whose Y'CbCr encoding is BT.601 at every size; 1 is Rec. 709.
        try forEachColorspace([(Int64(2), kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String), (Int64(1), kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)]) {
            _, matrix in
            let collector = FrameCollector()
            let latest = LockedBox<CMSampleBuffer?>(nil)
            collector.onFrame = { latest.value = $0 }
            let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs, 1280, 720), deliver: kCVPixelFormatType_32BGRA, collector: collector)
            session.startRunning()
            XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 3 })
            session.stopRunning()
            session.inputs.forEach(session.removeInput)
            let image = try XCTUnwrap(try XCTUnwrap(latest.value).imageBuffer)
            XCTAssertEqual(
                CMGetAttachment(image, key: kCVImageBufferYCbCrMatrixKey, attachmentModeOut: nil) as? String, matrix,
                "the driver's encoding, not the size's convention")
            // vivid's 75% colour bars, in the middle of each: white, yellow, cyan, green, magenta, red, blue, black.
            let bars: [(Int, Int, Int)] = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0)]
            CVPixelBufferLockBaseAddress(image, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
            let row = CVPixelBufferGetBaseAddress(image)!.advanced(by: 540 * CVPixelBufferGetBytesPerRow(image)).assumingMemoryBound(to: UInt8.self)
            // Decoded with the other matrix, the bars are up to 31 off and 7 on average; libyuv's
            // BT.709 decoding is itself up to 12 short in blue (its blue coefficient is clamped to 8 bits).
            var errors: [Int] = []
            for (index, (red, green, blue)) in bars.enumerated() {
                let pixel = row + (2 * index + 1) * 1280 / 16 * 4
                errors += [abs(Int(pixel[2]) - red), abs(Int(pixel[1]) - green), abs(Int(pixel[0]) - blue)]
            }
            XCTAssertLessThanOrEqual(errors.max() ?? .max, 13, "with \(matrix): \(errors)")
            XCTAssertLessThan(Double(errors.reduce(0, +)) / Double(errors.count), 4, "with \(matrix): \(errors)")
        }
    }

    func testTheLiveViewsJPEGsOfTheDriversFramesKeepTheirColours() throws {
        // sRGB's BT.601 frames go into the JPEG as they are (their levels stretched); Rec. 709's through BGRA.
        try forEachColorspace([(Int64(2), kCVPixelFormatType_420YpCbCr8PlanarFullRange), (Int64(1), kCVPixelFormatType_32BGRA)]) { value, expected in
            let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs, 1280, 720), collector: FrameCollector())
            let layer = AVCaptureVideoPreviewLayer(session: session)
            layer.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
            let encoded = LockedBox<(OSType, Data)?>(nil)
            let encoder = JPEGEncoder()
            layer.setLinuxPreviewFrameHandler(
                { frame in
                    if let jpeg = encoder.encode(frame, quality: 95) { encoded.value = (CVPixelBufferGetPixelFormatType(frame), jpeg) }
                }, queue: DispatchQueue(label: "live view"), allowingJPEGSamples: true)
            session.startRunning()
            XCTAssertTrue(waitUntil(timeout: 20) { encoded.value != nil })
            session.stopRunning()
            layer.setLinuxPreviewFrameHandler(nil)
            session.inputs.forEach(session.removeInput)
            let (format, jpeg) = try XCTUnwrap(encoded.value)
            XCTAssertEqual(format, expected, "colorspace \(value)")
            let image = try XCTUnwrap(CVPixelBuffer(width: 1280, height: 720, pixelFormatType: kCVPixelFormatType_32BGRA))
            XCTAssertTrue(jpeg.withUnsafeBytes { MJPEGDecoder().decode($0.bindMemory(to: UInt8.self).baseAddress!, count: jpeg.count, into: image) })
            // vivid's 75% colour bars, as a browser shows the JPEG: black at 0, white at 191, not the 16 and 180 of video range
            // (3 at most off through JPEG's samples; BT.709 through BGRA up to 13 in blue, as above).
            let bars: [(Int, Int, Int)] = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0)]
            let row = image.planes[0].baseAddress.advanced(by: 540 * image.planes[0].bytesPerRow).assumingMemoryBound(to: UInt8.self)
            var errors: [Int] = []
            for (index, (red, green, blue)) in bars.enumerated() {
                let pixel = row + (2 * index + 1) * 1280 / 16 * 4
                errors += [abs(Int(pixel[2]) - red), abs(Int(pixel[1]) - green), abs(Int(pixel[0]) - blue)]
            }
            XCTAssertLessThanOrEqual(errors.max() ?? .max, 13, "colorspace \(value): \(errors)")
            XCTAssertLessThan(Double(errors.reduce(0, +)) / Double(errors.count), 4, "colorspace \(value): \(errors)")
        }
    }

    func testBrightnessIsReachableAndChangesThePicture() throws {
        let brightness = try XCTUnwrap(camera.linuxControl(named: "Brightness"))
        let collector = FrameCollector()
        collector.measures = true
        let session = try session(try format(kCVPixelFormatType_32BGRA), collector: collector)
        try camera.lockForConfiguration()
        try camera.setValue(brightness.minimum + (brightness.maximum - brightness.minimum) / 4, of: brightness)
        camera.unlockForConfiguration()
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 4 })
        let dim = collector.frames.last!.meanLuma!
        try camera.lockForConfiguration()
        try camera.setValue(brightness.maximum, of: brightness)
        camera.unlockForConfiguration()
        XCTAssertEqual(try camera.value(of: brightness), brightness.maximum)
        let count = collector.frames.count
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= count + 4 })
        session.stopRunning()
        XCTAssertGreaterThan(collector.frames.last!.meanLuma!, dim + 20, "the driver's brightness control changes the frames")
        try camera.lockForConfiguration()
        try camera.setValue(brightness.defaultValue, of: brightness)
        camera.unlockForConfiguration()
    }

    func testDroppedBuffersAreReportedAsDiscontinuities() throws {
        let dropped = try XCTUnwrap(camera.linuxControl(named: "Percentage of Dropped Buffers"))
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs, 320, 180), collector: collector)
        try camera.lockForConfiguration()
        try camera.setValue(50, of: dropped)
        camera.unlockForConfiguration()
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.drops.count >= 3 })
        session.stopRunning()
        try camera.lockForConfiguration()
        try camera.setValue(0, of: dropped)
        camera.unlockForConfiguration()
        XCTAssertTrue(collector.drops.allSatisfy { $0.reason == kCMSampleBufferDroppedFrameReason_Discontinuity as String })
    }

    func testABusyDeviceInterruptsTheSessionUntilItIsFree() throws {
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/v4l2-ctl")
        other.arguments = ["-d", (camera.backend as! V4L2Camera).path, "--stream-mmap", "--stream-count=100000"]
        other.standardOutput = FileHandle.nullDevice
        other.standardError = FileHandle.nullDevice
        try other.run()
        Thread.sleep(forTimeInterval: 1)
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        let log = NotificationLog(
            [.AVCaptureSessionRuntimeError, .AVCaptureSessionWasInterrupted, .AVCaptureSessionInterruptionEnded],
            object: session)
        session.startRunning()
        XCTAssertTrue(session.isRunning, "EBUSY interrupts the session rather than failing it")
        XCTAssertTrue(session.isInterrupted)
        XCTAssertTrue(waitUntil { log.names == [.AVCaptureSessionWasInterrupted] }, "\(log.names)")
        XCTAssertEqual(
            (log.userInfo(of: .AVCaptureSessionWasInterrupted)?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue,
            AVCaptureSession.InterruptionReason.videoDeviceInUseByAnotherClient.rawValue)
        spin(0.6)
        XCTAssertEqual(collector.frames.count, 0, "no frames while another application streams")
        other.terminate()
        other.waitUntilExit()
        XCTAssertTrue(waitUntil(timeout: 10) { log.names == [.AVCaptureSessionWasInterrupted, .AVCaptureSessionInterruptionEnded] }, "\(log.names)")
        XCTAssertFalse(session.isInterrupted)
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 3 }, "frames flow once the device is free")
        session.stopRunning()
    }

    func testZZAStreamOnFailureIsARuntimeError() throws {
        let inject = try XCTUnwrap(camera.linuxControl(named: "Inject VIDIOC_STREAMON Error"))
        try camera.lockForConfiguration()
        try camera.press(inject)
        camera.unlockForConfiguration()
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError], object: session)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { !log.names.isEmpty }, "a failing VIDIOC_STREAMON is reported")
        XCTAssertFalse(session.isRunning)
    }

    /// Presses one of vivid's error-injection buttons while a YUYV stream runs; returns the runtime error the session posted.
    private func injectMidStream(_ button: String) throws -> AVError? {
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError], object: session)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 2 })
        try camera.lockForConfiguration()
        try camera.press(try XCTUnwrap(camera.linuxControl(named: button)))
        camera.unlockForConfiguration()
        XCTAssertTrue(waitUntil(timeout: 10) { !log.names.isEmpty }, "\(button) is reported")
        XCTAssertTrue(waitUntil { !session.isRunning }, "the session stops after a runtime error")
        return log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError
    }

    func testZZBAFailingQueueBufferMidStreamIsARuntimeError() throws {
        XCTAssertEqual(try injectMidStream("Inject VIDIOC_QBUF Error")?.code, .unknown, "a driver that refuses a buffer: AVErrorUnknown")
        XCTAssertTrue(camera.isConnected, "the camera stays")
    }

    func testZZCAFatalStreamingErrorIsARuntimeErrorAndTheCameraRecovers() throws {
        XCTAssertEqual(try injectMidStream("Inject Fatal Streaming Error")?.code, .unknown)
        XCTAssertTrue(camera.isConnected)
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 2 }, "a new session streams again")
        session.stopRunning()
    }

    func testZZDAFailingBufferRequestIsAnErrorAtStart() throws {
        try camera.lockForConfiguration()
        try camera.press(try XCTUnwrap(camera.linuxControl(named: "Inject VIDIOC_REQBUFS Error")))
        camera.unlockForConfiguration()
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError], object: session)
        session.startRunning()
        XCTAssertFalse(session.isRunning, "a camera that cannot get buffers does not start")
        XCTAssertTrue(waitUntil(timeout: 10) { !log.names.isEmpty }, "a failing VIDIOC_REQBUFS is reported")
    }

    func testZZZDisconnectingMidStreamIsARuntimeErrorAndTheDeviceGoesAway() throws {
        // Last: vivid's Disconnect unregisters the device for good.
        let disconnect = try XCTUnwrap(camera.linuxControl(named: "Disconnect"))
        let collector = FrameCollector()
        let session = try session(try format(kCVPixelFormatType_422YpCbCr8_yuvs), collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError, .AVCaptureSessionDidStopRunning], object: session)
        let deviceLog = NotificationLog([.AVCaptureDeviceWasDisconnected], object: camera)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 20) { collector.frames.count >= 3 })
        try camera.lockForConfiguration()
        try camera.press(disconnect)
        camera.unlockForConfiguration()
        XCTAssertTrue(waitUntil(timeout: 10) { log.names.contains(.AVCaptureSessionRuntimeError) })
        XCTAssertEqual((log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError)?.code, .deviceWasDisconnected)
        XCTAssertFalse(session.isRunning)
        XCTAssertTrue(waitUntil { deviceLog.names == [.AVCaptureDeviceWasDisconnected] })
        XCTAssertFalse(camera.isConnected)
    }
}
