import CaptureTestSupport
import XCTest
@testable import AVFoundation
@testable import CaptureDevices
import CPipeWire
import CPulse
import TestSupport

/// Cameras and microphones through a real PipeWire server (a private stack the tests start).
/// On a machine without PipeWire installed these tests skip; `.ci/run` installs it and runs them.
final class PipeWireCameraTests: CaptureTestCase {
    private var server: PrivatePipeWireServer!

    override func setUpWithError() throws {
        var failure = ""
        guard let server = PrivatePipeWireServer(failure: &failure) else { try skipOrFail(failure) }
        self.server = server
        super.setUp()
    }

    override func tearDown() {
        super.tearDown()
        server?.stop()
    }

    private func camera(_ name: String, timeout: TimeInterval = 5) -> AVCaptureDevice? {
        var found: AVCaptureDevice?
        waitUntil(timeout: timeout) {
            found = AVCaptureDevice.devices(for: .video).first { $0.uniqueID == "pipewire:\(name)" }
            return found != nil
        }
        return found
    }

    /// A session on `device` with the given format and rate, delivering `pixelFormat` to `collector`.
    private func makeSession(
        _ device: AVCaptureDevice, width: Int32, height: Int32, nativeSubType: FourCharCode, fps: Int32,
        pixelFormat: OSType, collector: FrameCollector
    ) throws -> AVCaptureSession {
        let format = try XCTUnwrap(
            device.formats.first {
                let size = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
                return size.width == width && size.height == height && CMFormatDescriptionGetMediaSubType($0.formatDescription) == nativeSubType
            })
        return try makeVideoSession(camera: device, format: format, framesPerSecond: fps, pixelFormat: pixelFormat, collector: collector).0
    }

    func testListsTheServersCameraWithTheFormatsItsPortOffers() throws {
        let device = try XCTUnwrap(camera("test-camera"), "the server's Video/Source node is a camera")
        XCTAssertEqual(device.localizedName, "Test Camera")
        XCTAssertEqual(device.deviceType, .external)
        XCTAssertTrue(device.hasMediaType(.video))
        XCTAssertEqual(AVCaptureDevice.default(for: .video)?.uniqueID, device.uniqueID, "real cameras come before the virtual ones")
        let offered = Set(
            device.formats.map { format -> String in
                let size = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
                return "\(size.width)x\(size.height) \(CMFormatDescriptionGetMediaSubType(format.formatDescription))"
            })
        // videotestsrc offers RGB and UYVY at any size: the standard sizes are listed for each.
        XCTAssertTrue(
            offered.isSuperset(of: [
                "1280x720 \(kCVPixelFormatType_422YpCbCr8)", "1280x720 \(kCVPixelFormatType_24RGB)",
                "640x480 \(kCVPixelFormatType_422YpCbCr8)", "1920x1080 \(kCVPixelFormatType_24RGB)",
            ]), "\(offered)")
        for format in device.formats {
            XCTAssertEqual(format.videoSupportedFrameRateRanges.first?.maxFrameRate ?? 0, 60, accuracy: 0.01)
        }
        XCTAssertTrue(device.supportsSessionPreset(.hd1280x720))
    }

    func testAPresetChoosesTheCamerasYCbCrFormatRatherThanItsRGBOneOfTheSameSize() throws {
        // The test source lists 24-bit R'G'B' before UYVY at every size.
        let device = try XCTUnwrap(camera("test-camera"))
        let sizes = device.formats.map { CMVideoFormatDescriptionGetDimensions($0.formatDescription) }
        let first = try XCTUnwrap(sizes.firstIndex { $0.width == 1280 && $0.height == 720 })
        XCTAssertEqual(CMFormatDescriptionGetMediaSubType(device.formats[first].formatDescription), kCVPixelFormatType_24RGB)
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        for (preset, width, height) in [(AVCaptureSession.Preset.hd1280x720, Int32(1280), Int32(720)), (.vga640x480, 640, 480), (.hd1920x1080, 1920, 1080)] {
            session.sessionPreset = preset
            let chosen = device.activeFormat.formatDescription
            let size = CMVideoFormatDescriptionGetDimensions(chosen)
            XCTAssertEqual([size.width, size.height], [width, height], preset.rawValue)
            XCTAssertEqual(CMFormatDescriptionGetMediaSubType(chosen), kCVPixelFormatType_422YpCbCr8, preset.rawValue)
        }
    }

    func testCapturesFramesAtTheRequestedSizeRateAndFormatOnTheHostClock() throws {
        let device = try XCTUnwrap(camera("test-camera"))
        for (native, wanted) in [
            (kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_32BGRA), (kCVPixelFormatType_24RGB, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
        ] {
            let collector = FrameCollector()
            collector.measures = true
            let session = try makeSession(device, width: 640, height: 480, nativeSubType: native, fps: 30, pixelFormat: wanted, collector: collector)
            let started = CMClockGetTime(CMClockGetHostTimeClock())
            session.startRunning()
            XCTAssertTrue(session.isRunning)
            // Waited on, not timed: a busy machine starts the stream later, not slower.
            XCTAssertTrue(waitUntil(timeout: 30) { collector.frames.count >= 62 }, "frames keep coming from \(native)")
            session.stopRunning()
            let frames = collector.frames.dropFirst(2)
            XCTAssertGreaterThanOrEqual(frames.count, 60)
            // No faster than the rate asked for: the frames' own times span their number at 30 a second.
            let span = (frames.last!.presentationTime - frames.first!.presentationTime).seconds
            XCTAssertGreaterThanOrEqual(span, Double(frames.count - 1) / 30 - 0.05, "\(frames.count) frames in \(span) s")
            for frame in frames {
                XCTAssertEqual(frame.width, 640)
                XCTAssertEqual(frame.height, 480)
                XCTAssertEqual(frame.pixelFormat, wanted)
            }
            let times = frames.map(\.presentationTime)
            XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "timestamps increase")
            // A busy machine may lose a frame (a gap of two frame times); most gaps are one.
            let gaps = zip(times.dropFirst(), times).map { ($0 - $1).seconds }.sorted()
            XCTAssertEqual(gaps[gaps.count / 2], 1.0 / 30, accuracy: 0.004, "frames are 1/30 s apart")
            XCTAssertGreaterThan(times.first!, started, "capture times are on the host clock")
            for frame in frames {
                XCTAssertLessThan((frame.callbackEnd - frame.presentationTime).seconds, 0.25, "a frame arrives within moments of its capture")
            }
            // The test pattern (SMPTE bars) is neither black nor flat.
            let luma = frames.compactMap(\.meanLuma)
            XCTAssertTrue(luma.allSatisfy { $0 > 40 && $0 < 220 }, "\(luma.prefix(3))")
        }
    }

    /// Keeps the first `keep` frames and notes, for every frame, where its pixels are and a checksum of them.
    final class BufferWatcher: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "buffer-watcher")
        private let lock = NSLock()
        private var _kept: [CMSampleBuffer] = []
        private var _addresses: [UInt] = []
        private var _sums: [UInt64] = []
        let keep: Int
        init(keep: Int) { self.keep = keep }
        var addresses: [UInt] { lock.withLock { _addresses } }
        var kept: [CMSampleBuffer] { lock.withLock { _kept } }
        var keptSums: [UInt64] { lock.withLock { Array(_sums.prefix(_kept.count)) } }
        func letGo() { lock.withLock { _kept.removeAll() } }

        static func checksum(_ image: CVPixelBuffer) -> UInt64 {
            CVPixelBufferLockBaseAddress(image, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
            let bytes = UnsafeRawBufferPointer(
                start: CVPixelBufferGetBaseAddress(image),
                count: CVPixelBufferGetBytesPerRow(image) * CVPixelBufferGetHeight(image))
            return bytes.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }
        }

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            guard let image = sampleBuffer.imageBuffer else { return }
            let address = UInt(bitPattern: CVPixelBufferGetBaseAddress(image))
            let sum = Self.checksum(image)
            lock.withLock {
                _addresses.append(address)
                if _kept.count < keep { _kept.append(sampleBuffer); _sums.append(sum) }
            }
        }
    }

    func testFramesAClientHoldsNeverChangeUnderIt() throws {
        // The server reuses a stream's buffer at its next cycle whether or not the client has given
        // it back (the server side of the link acknowledges each buffer at once; PipeWire issue
        // 190), so a frame handed out as the stream's own buffer would change while a client still
        // reads it. Frames are copied once, in the callback: held ones stay as they were, while
        // the camera streams and after it stops.
        let device = try XCTUnwrap(camera("test-camera"))
        let format = try XCTUnwrap(
            device.formats.first {
                let size = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
                return size.width == 640 && size.height == 480 && CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_422YpCbCr8
            })
        let watcher = BufferWatcher(keep: 6)
        let session = AVCaptureSession()
        sessions.append(session)
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_422YpCbCr8]
        output.setSampleBufferDelegate(watcher, queue: watcher.queue)
        session.addOutput(output)
        try device.lockForConfiguration()
        device.activeFormat = format
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
        device.unlockForConfiguration()
        session.commitConfiguration()
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { watcher.addresses.count > 30 }, "holding six frames does not stop the camera: \(watcher.addresses.count)")
        XCTAssertEqual(watcher.kept.count, 6)
        XCTAssertEqual(watcher.kept.compactMap { $0.imageBuffer.map(BufferWatcher.checksum) }, watcher.keptSums, "held frames do not change while streaming")
        session.stopRunning()
        spin(0.3)
        XCTAssertEqual(watcher.kept.compactMap { $0.imageBuffer.map(BufferWatcher.checksum) }, watcher.keptSums, "nor once the stream has ended")
        watcher.letGo()
    }

    func testDigitalZoomShowsTheCentreAndRampsOverTime() throws {
        let device = try XCTUnwrap(camera("test-camera"))
        let collector = FrameCollector()
        let latest = LockedBox<CMSampleBuffer?>(nil)
        collector.onFrame = { latest.value = $0 }
        let session = try makeSession(
            device, width: 640, height: 480, nativeSubType: kCVPixelFormatType_422YpCbCr8, fps: 30,
            pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        XCTAssertEqual(device.activeFormat.videoMaxZoomFactor, 16, "a camera without a zoom lens zooms digitally, as Apple's do")
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 5 })
        let unzoomed = PixelStatistics.bars(try XCTUnwrap(latest.value))
        XCTAssertEqual(unzoomed, 7, "seven bars")
        try device.lockForConfiguration()
        device.ramp(toVideoZoomFactor: 4, withRate: 8)
        device.unlockForConfiguration()
        XCTAssertTrue(device.isRampingVideoZoom)
        XCTAssertTrue(waitUntil(timeout: 3) { device.videoZoomFactor == 4 && !device.isRampingVideoZoom }, "the ramp advances with the frames")
        let seen = collector.frames.count
        XCTAssertTrue(waitUntil { collector.frames.count >= seen + 3 })
        let zoomed = PixelStatistics.bars(try XCTUnwrap(latest.value))
        XCTAssertTrue((2...3).contains(zoomed), "the middle quarter shows two or three bars, not seven: \(zoomed)")
        session.stopRunning()
    }

    func testAHotPluggedCameraAppearsAndItsRemovalIsADisconnectNotAHang() throws {
        _ = try XCTUnwrap(camera("test-camera"))
        let connected = NotificationLog([.AVCaptureDeviceWasConnected], object: nil)
        server.addCamera("plugged-camera")
        let device = try XCTUnwrap(camera("plugged-camera"), "a node created while the process runs is found")
        XCTAssertTrue(waitUntil { connected.names.contains(.AVCaptureDeviceWasConnected) }, "AVCaptureDeviceWasConnected is posted")
        let collector = FrameCollector()
        let session = try makeSession(
            device, width: 320, height: 240, nativeSubType: kCVPixelFormatType_422YpCbCr8, fps: 30,
            pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError, .AVCaptureDeviceWasDisconnected], object: nil)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 10 })
        server.removeCamera("plugged-camera")
        XCTAssertTrue(waitUntil(timeout: 5) { !session.isRunning }, "the stream ends: PipeWire's default would wait forever")
        XCTAssertTrue(waitUntil { log.names.contains(.AVCaptureSessionRuntimeError) }, "\(log.names)")
        XCTAssertEqual((log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError)?.code, .deviceWasDisconnected)
        XCTAssertTrue(waitUntil { log.names.contains(.AVCaptureDeviceWasDisconnected) })
        XCTAssertFalse(device.isConnected)
        XCTAssertFalse(AVCaptureDevice.devices(for: .video).contains(device))
        XCTAssertThrowsError(try AVCaptureDeviceInput(device: device)) { XCTAssertEqual(($0 as? AVError)?.code, .deviceNotConnected) }
    }

    func testTwoPipeWireCamerasInOneMultiCameraSessionDeliverTogetherOnOneClock() throws {
        server.addCamera("second-camera")
        let first = try XCTUnwrap(camera("test-camera"))
        let second = try XCTUnwrap(camera("second-camera"))
        // Each camera its own size, as the multi-camera sample gives its two cameras their own formats.
        for (device, width) in [(first, Int32(640)), (second, Int32(320))] {
            let format = try XCTUnwrap(
                device.formats.first {
                    $0.formatDescription.dimensions.width == width && CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_422YpCbCr8
                })
            XCTAssertTrue(format.isMultiCamSupported)
            try device.lockForConfiguration()
            device.activeFormat = format
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
            device.unlockForConfiguration()
        }
        let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
        XCTAssertTrue(discovery.supportedMultiCamDeviceSets.contains([first, second]), "the two cameras can run together")

        let collectors = [FrameCollector(label: "first"), FrameCollector(label: "second")]
        let (session, _) = try makeMultiCamSession(
            cameras: [first, second], collectors: collectors, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        XCTAssertGreaterThan(session.hardwareCost, 0)
        XCTAssertLessThanOrEqual(session.hardwareCost, 1, "640x480 and 320x240 at 30 fps are within the machine's budget")
        session.startRunning()
        XCTAssertTrue(session.isRunning)
        XCTAssertTrue(waitUntil(timeout: 10) { collectors.allSatisfy { $0.frames.count >= 40 } }, "\(collectors.map(\.frames.count))")
        session.stopRunning()
        XCTAssertEqual(Set(collectors[0].frames.map { [$0.width, $0.height] }), [[640, 480]], "the first camera's own format")
        XCTAssertEqual(Set(collectors[1].frames.map { [$0.width, $0.height] }), [[320, 240]], "the second camera's own format")
        // Both on the host clock, side by side: each of the first camera's frames (after the first few)
        // has one of the second's within a frame time or so (the test cameras are not locked to each
        // other, so up to one frame apart; a busy machine may lose one, so the median is asked).
        let others = collectors[1].frames.map(\.presentationTime.seconds).sorted()
        let times = collectors[0].frames.dropFirst(5).map(\.presentationTime.seconds).filter { $0 >= others[0] && $0 <= others[others.count - 1] }
        XCTAssertGreaterThan(times.count, 20, "the two cameras' frames overlap in time")
        let skews = times.map { time in others.map { abs($0 - time) }.min() ?? .infinity }.sorted()
        XCTAssertLessThanOrEqual(skews[skews.count / 2], 1.0 / 30, "the nearest frame of the other camera is within a frame time: \(skews.prefix(5))")
        let now = CMClockGetTime(CMClockGetHostTimeClock()).seconds
        for collector in collectors {
            let last = try XCTUnwrap(collector.frames.last).presentationTime.seconds
            XCTAssertLessThan(abs(now - last), 5, "stamped on the host clock")
        }
    }

    func testAServerThatDiesMidCaptureIsARuntimeErrorAndItsCamerasReturnWithIt() throws {
        let device = try XCTUnwrap(camera("test-camera"))
        let collector = FrameCollector()
        let session = try makeSession(
            device, width: 320, height: 240, nativeSubType: kCVPixelFormatType_422YpCbCr8, fps: 30,
            pixelFormat: kCVPixelFormatType_32BGRA, collector: collector)
        let log = NotificationLog([.AVCaptureSessionRuntimeError], object: session)
        let deviceLog = NotificationLog([.AVCaptureDeviceWasDisconnected, .AVCaptureDeviceWasConnected], object: device)
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 10 })
        server.kill()
        XCTAssertTrue(waitUntil(timeout: 5) { !session.isRunning }, "a vanished server never hangs capture")
        XCTAssertTrue(waitUntil { log.names == [.AVCaptureSessionRuntimeError] }, "\(log.names)")
        XCTAssertEqual((log.userInfo(of: .AVCaptureSessionRuntimeError)?[AVCaptureSessionErrorKey] as? AVError)?.code, .mediaServicesWereReset)
        XCTAssertTrue(waitUntil { !device.isConnected && deviceLog.names.last == .AVCaptureDeviceWasDisconnected }, "\(deviceLog.names)")
        // The server returns: so does its camera, as the same device object.
        server.stop()
        var failure = ""
        server = PrivatePipeWireServer(failure: &failure)
        guard server != nil else { return XCTFail(failure) }
        XCTAssertTrue(waitUntil(timeout: 10) { device.isConnected }, "the camera is back with its server")
        XCTAssertTrue(waitUntil { deviceLog.names.last == .AVCaptureDeviceWasConnected }, "\(deviceLog.names)")
        collector.reset()
        session.startRunning()
        XCTAssertTrue(waitUntil { collector.frames.count >= 5 }, "the same session captures again")
    }

    func testAFormatTheCameraCannotAgreeOrACameraThatIsNotThereIsAClearErrorNotAHang() throws {
        final class Sink: CaptureSampleSink, @unchecked Sendable {
            func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {}
            func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}
        }
        _ = try XCTUnwrap(camera("test-camera"))
        let backend = try XCTUnwrap(PipeWireDiscovery.cameras().first { $0.nodeName == "test-camera" })
        // videotestsrc offers no YUY2: asking for it anyway never starts.
        var configuration = VideoStreamConfiguration(width: 640, height: 480, pixelFormat: kCVPixelFormatType_32BGRA, frameDurationNanoseconds: 33_333_333)
        configuration.sourceCode = kCVPixelFormatType_422YpCbCr8_yuvs
        let unofferable = PipeWireCamera(camera: Self.descriptor(name: "test-camera", formats: [(kCVPixelFormatType_422YpCbCr8_yuvs, 640, 480)]))
        let started = Date()
        XCTAssertThrowsError(try unofferable.start(configuration, sink: Sink())) { error in
            guard case .unsupportedConfiguration = error as? CaptureBackendError else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "a format that is never agreed times out")
        let missing = PipeWireCamera(camera: Self.descriptor(name: "no-such-camera", formats: [(kCVPixelFormatType_422YpCbCr8, 640, 480)]))
        configuration.sourceCode = kCVPixelFormatType_422YpCbCr8
        XCTAssertThrowsError(try missing.start(configuration, sink: Sink())) { error in
            XCTAssertEqual(error as? CaptureBackendError, .notConnected, "PipeWire does not fall back to another camera")
        }
        // The real camera still streams afterwards.
        XCTAssertNoThrow(try backend.start(configuration, sink: Sink()))
        backend.stop()
    }

    func testCapturesTheServersToneThroughPipeWirePulse() throws {
        let tone = try XCTUnwrap(waitForMicrophone("pulse:test-tone"), "PipeWire's audio sources reach libpulse clients as microphones")
        let collector = FrameCollector()
        let (session, output) = try makeAudioSession(microphone: tone, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 30 })
        let level = try XCTUnwrap(output.connections.first?.audioChannels.first).averagePowerLevel
        session.stopRunning()
        let buffers = Array(collector.audioBuffers.dropFirst(5))
        XCTAssertEqual(buffers.first?.formatDescription?.audioStreamBasicDescription?.mBitsPerChannel, 16)
        XCTAssertEqual(ToneAnalysis.frequency(buffers), 440, accuracy: 10, "audiotestsrc's 440 Hz sine")
        XCTAssertLessThan(level, -3, "\(level) dBFS")
        XCTAssertGreaterThan(level, -30, "\(level) dBFS: the tone, not silence")
    }

    func testTheVirtualMicrophoneHearsWhatIsPlayedIntoIt() throws {
        let microphone = try XCTUnwrap(waitForMicrophone("pulse:test-mic"))
        // A 1 kHz tone at half scale, played into the loopback's sink; the session records its source meanwhile.
        let tone = makeScratchFolder().appendingPathComponent("tone.wav")
        XCTAssertEqual(
            runCommand([
                "/usr/bin/ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=8",
                "-af", "volume=4", "-ac", "1", tone.path,
            ]).status, 0)
        var player = pid_t(0)
        let arguments: [String] = ["/usr/bin/paplay", "--device=test-mic-input", tone.path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&player, "/usr/bin/paplay", nil, nil, argv, environ), 0)
        defer { kill(player, SIGKILL); var status: Int32 = 0; waitpid(player, &status, 0) }
        spin(0.5)
        let collector = FrameCollector()
        collector.audioBuffersToKeep = 24
        let (session, _) = try makeAudioSession(microphone: microphone, collector: collector)
        session.startRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { collector.audioBuffers.count >= 24 })
        session.stopRunning()
        let loud = collector.audioBuffers.filter { ToneAnalysis.peak([$0]) > 0.3 }
        XCTAssertGreaterThan(loud.count, 12, "the played tone comes out of the microphone")
        XCTAssertEqual(ToneAnalysis.frequency(loud), 1000, accuracy: 15, "at its own frequency")
        XCTAssertEqual(ToneAnalysis.peak(loud), 0.5, accuracy: 0.06, "and its own level")
    }

    func testASourceThePipeWireServerDoesNotHaveIsNotConnectedNotItsDefault() throws {
        final class Sink: CaptureSampleSink, @unchecked Sendable {
            func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {}
            func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}
        }
        _ = try XCTUnwrap(waitForMicrophone("pulse:test-tone"))
        var missing = cpulse_source()
        (missing.rate, missing.channels) = (48_000, 1)
        withUnsafeMutableBytes(of: &missing.name) { $0.copyBytes(from: Array("no-such-source".utf8)) }
        XCTAssertThrowsError(try PulseMicrophone(source: missing).start(nil, sink: Sink())) { error in
            XCTAssertEqual(error as? CaptureBackendError, .notConnected, "pipewire-pulse would record its default source instead")
        }
    }

    private func waitForMicrophone(_ uniqueID: String) -> AVCaptureDevice? {
        var found: AVCaptureDevice?
        waitUntil(timeout: 5) {
            PulseDiscovery.refresh()
            found = AVCaptureDevice.devices(for: .audio).first { $0.uniqueID == uniqueID }
            return found != nil
        }
        return found
    }

    /// A camera description as the monitor reports one, for cameras the server does not have.
    static func descriptor(name: String, formats: [(OSType, UInt32, UInt32)]) -> cpw_camera {
        var camera = cpw_camera()
        withUnsafeMutableBytes(of: &camera.name) { $0.copyBytes(from: Array(name.utf8)) }
        camera.n_formats = Int32(formats.count)
        withUnsafeMutableBytes(of: &camera.formats) { raw in
            let slots = raw.bindMemory(to: cpw_format.self)
            for (index, (code, width, height)) in formats.enumerated() {
                var format = cpw_format()
                format.n_pixel_formats = 1
                format.pixel_formats.0 = code
                format.n_sizes = 1
                format.widths.0 = width
                format.heights.0 = height
                format.n_rates = 1
                format.rate_nums.0 = 30
                format.rate_denoms.0 = 1
                slots[index] = format
            }
        }
        return camera
    }
}
