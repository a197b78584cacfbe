import XCTest
import AVFAudio
@testable import AVFoundation
import AppleStyleCode
import CaptureTestSupport
import CaptureDevices
import TestSupport

/// What capture code written for Apple's platforms computes here.
final class AppleStyleCodeTests: XCTestCase {
    func testAFrameGrabberReadsTimingDimensionsAndHostTimeAsOnApple() throws {
        let grabber = FrameTimingGrabber()
        let before = CMClockGetTime(CMClockGetHostTimeClock())
        try grabber.start(rotationAngle: 90)
        defer { grabber.stop() }
        let deadline = Date().addingTimeInterval(5)
        while grabber.grabbed.count < 3, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let frame = try XCTUnwrap(grabber.grabbed.last)
        let after = CMClockGetTime(CMClockGetHostTimeClock())
        XCTAssertEqual(frame.dimensions, CMVideoDimensions(width: 480, height: 640), "turned a quarter for portrait")
        XCTAssertEqual(frame.presentationDimensions, CGSize(width: 480, height: 640))
        XCTAssertEqual(frame.pixelFormat, kCVPixelFormatType_32BGRA)
        XCTAssertEqual(frame.timingEntries, 1)
        XCTAssertEqual(frame.timing.duration.seconds, 1.0 / 30, accuracy: 0.002)
        // Capture times are host times: the session's clock converts to the host clock unchanged.
        XCTAssertEqual(frame.hostTime, frame.timing.presentationTimeStamp)
        XCTAssertTrue(frame.hostTime >= before && frame.hostTime <= after, "\(frame.hostTime.seconds) within the run")
        XCTAssertEqual(frame.retimedPresentationTime, CMTimeSubtract(frame.timing.presentationTimeStamp, CMTime(value: 1, timescale: 1)))
        XCTAssertEqual(frame.outputPresentationTime, CMTime(value: 42, timescale: 1))
        XCTAssertNil(frame.extensions, "raw frames carry no codec boxes")
    }

    func testALivePhotoCameraSavesHEICAndItsMovieIntoThePicturesFolder() throws {
        let home = try TemporaryHome("live-camera")
        defer { home.restore() }
        let camera = LivePhotoCamera()
        try camera.configure()
        camera.session.startRunning()
        defer { camera.session.stopRunning() }
        // The movie begins 1.5 s before the still: wait until the output holds that much (not
        // until the camera has given so many frames: on a loaded machine the output may have
        // dropped the first while it set its ring up).
        XCTAssertTrue(waitUntil(timeout: 30) { camera.photoOutput.livePhotoKeptSeconds >= 1.7 }, "\(camera.photoOutput.livePhotoKeptSeconds) s kept")
        let finished = expectation(description: "saved")
        let box = ResultBox()
        camera.takeLivePhoto { result in
            box.result = result
            finished.fulfill()
        }
        wait(for: [finished], timeout: 60)
        let result = try XCTUnwrap(box.result)
        XCTAssertNil(result.saveError)
        XCTAssertEqual(result.callbacks, ["willBegin", "photo", "movieRecorded", "movieWritten", "finished"])
        XCTAssertEqual(result.orientation, .up)
        XCTAssertTrue(result.hadDepth, "the virtual back camera delivers depth")
        // 1.5 s after the still (the movie waits for those frames), and 1.5 s before it, less
        // the end or the start of those stretches if a loaded machine made the camera skip frames
        // then (once, under the full suite six at a time: 1.27 s after the still, the frames of its
        // last quarter second skipped).
        let after = result.movieDuration - result.photoDisplayTime
        XCTAssertTrue((1.0...1.7).contains(after), "after the still: \(after) s")
        XCTAssertEqual(result.photoDisplayTime, 1.5, accuracy: 0.5, "before the still")
        XCTAssertEqual(result.movieDuration, 3, accuracy: 0.6)
        let saved = try FileManager.default.contentsOfDirectory(atPath: home.url.appendingPathComponent("Pictures").path).sorted()
        XCTAssertEqual(saved.count, 2, "\(saved)")
        XCTAssertEqual(saved.map { ($0 as NSString).pathExtension }, ["heic", "mov"])
        XCTAssertEqual(Set(saved.map { ($0 as NSString).deletingPathExtension }).count, 1, "one base name")
    }

    func testADeferredPhotosProxyIsSavedAtOnceAndTheLibraryFinishesItAsHEIC() throws {
        let home = try TemporaryHome("deferred-camera")
        defer { home.restore() }
        let camera = DeferredPhotoCamera()
        try camera.configure()
        XCTAssertTrue(camera.photoOutput.isAutoDeferredPhotoDeliveryEnabled)
        XCTAssertTrue(camera.photoOutput.isFastCapturePrioritizationEnabled)
        camera.session.startRunning()
        defer { camera.session.stopRunning() }
        XCTAssertTrue(waitUntil(timeout: 30) { camera.photoOutput.maxPhotoDimensions.width > 0 })
        let saved = expectation(description: "proxy saved")
        let box = ResultBox()
        camera.takePhoto { result in
            box.deferred = result
            saved.fulfill()
        }
        wait(for: [saved], timeout: 60)
        XCTAssertNoThrow(try XCTUnwrap(box.deferred).get())
        let pictures = home.url.appendingPathComponent("Pictures")
        // The library holds the proxy (a JPEG) until the final HEIC takes its place: once its
        // background work is done (HEVC at the quality preset takes long on a loaded machine;
        // the limit is only against a hang).
        XCTAssertTrue(waitUntil(timeout: 600) { DeferredPhotoProcessing.finishing == 0 }, "the library finished the photo")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pictures.path)) ?? []
        XCTAssertTrue(names.count == 1 && names[0].hasSuffix(".heic"), "one HEIC in the end: \(names)")
        if let name = names.first {
            let data = try Data(contentsOf: pictures.appendingPathComponent(name))
            XCTAssertEqual(String(decoding: data[4..<12], as: UTF8.self), "ftypheic")
            let source = try XCTUnwrap(CGImageSourceCreateWithData(data as CFData, nil))
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any]
            XCTAssertEqual(properties?[kCGImagePropertyPixelWidth as String] as? Int, Int(camera.photoOutput.maxPhotoDimensions.width))
        }
    }

    func testAPictureInPictureCameraRunsBothCamerasInTheLargestFormatsTheBudgetAllows() throws {
        // Room for a little more than one 1280x720 camera at 30 frames a second.
        MultiCamBudget.pixelsPerSecond = 1280 * 720 * 30 * 1.2
        defer {
            MultiCamBudget.reset()
            for device in DeviceDirectory.all { device.resetToDefaults() }
        }
        let camera = MultiCamPictureInPicture()
        try camera.configure()
        XCTAssertEqual(camera.session.sessionPreset, .inputPriority)
        XCTAssertLessThanOrEqual(camera.session.hardwareCost, 1)
        XCTAssertEqual(camera.backPreviewLayer.connection?.inputPorts.first?.input, camera.session.inputs.first)
        camera.session.startRunning()
        defer { camera.session.stopRunning() }
        XCTAssertTrue(camera.session.isRunning)
        XCTAssertTrue(
            waitUntil(timeout: 30) { (camera.framesByPosition[.back]?.count ?? 0) >= 3 && (camera.framesByPosition[.front]?.count ?? 0) >= 3 },
            "both cameras deliver: \(camera.framesByPosition)")
        // Half the budget at most each: 960x540 of the back camera's formats, 640x480 of the front's.
        XCTAssertEqual(camera.framesByPosition[.back]?.size, CGSize(width: 960, height: 540))
        XCTAssertEqual(camera.framesByPosition[.front]?.size, CGSize(width: 640, height: 480))
        XCTAssertEqual(camera.frontPreviewLayer.connection?.isVideoMirrored, true)
    }

    func testATapOnAnUprightFilledPreviewFocusesWhereTheFingerWas() throws {
        for (position, mirrored) in [(AVCaptureDevice.Position.back, false), (.front, true)] {
            let preview = TapToFocusPreview()
            try preview.configure(position: position, viewSize: CGSize(width: 390, height: 844))
            preview.session.startRunning()
            defer { preview.session.stopRunning() }
            XCTAssertEqual(preview.previewLayer.connection?.isVideoMirrored, mirrored)
            // A 16:9 picture turned upright and filling a 390x844 view: the view's top left is the
            // sensor's left edge (turned to the top), a little in from the picture's bottom edge (turned to the left).
            try preview.tapped(at: CGPoint(x: 195, y: 211))  // halfway across, a quarter down
            let device = try XCTUnwrap(preview.device)
            // The exposure point is where the tap was; so is the focus point where the camera can focus there.
            XCTAssertEqual(device.exposurePointOfInterest.x, 0.25, accuracy: 1e-6, "a quarter down the upright picture is a quarter along the sensor")
            XCTAssertEqual(device.exposurePointOfInterest.y, 0.5, accuracy: 1e-6)
            if device.isFocusPointOfInterestSupported {
                XCTAssertEqual(device.focusPointOfInterest, device.exposurePointOfInterest)
            }
            try preview.tapped(at: CGPoint(x: 0, y: 422))
            // The view's left edge is cropped in fill: it is this far in from the sensor's bottom edge
            // (its top edge when mirrored, the front camera's preview being mirrored).
            let edge = (1 - 390.0 / (844.0 * 9 / 16)) / 2
            XCTAssertEqual(device.exposurePointOfInterest.x, 0.5, accuracy: 1e-6)
            XCTAssertEqual(device.exposurePointOfInterest.y, mirrored ? edge : 1 - edge, accuracy: 1e-6)
        }
    }

    func testAFormatChooserMakesItsInputThroughSelfAndFindsNoWideColorOrHDR() throws {
        let camera = try XCTUnwrap(AVCaptureDevice.default(for: .video))
        let configurator = ColorAndHDRConfigurator()
        let chosen = try configurator.configure(camera)
        XCTAssertEqual(chosen.colorSpace, .sRGB, "the only space the camera delivers")
        XCTAssertFalse(chosen.hdr)
        XCTAssertEqual(chosen.hdrFormats, 0)
        let input = try XCTUnwrap(configurator.input)
        XCTAssertEqual(input.purpose, "main camera")
        XCTAssertTrue(configurator.session.inputs.first === input, "the subclass's input is the session's")
        XCTAssertFalse(configurator.session.automaticallyConfiguresCaptureDeviceForWideColor)
        XCTAssertTrue(camera.automaticallyAdjustsVideoHDREnabled)
    }

    func testAClassicQRScannerReadsACodeOnTheMainQueueAndHighlightsIt() throws {
        let camera = try XCTUnwrap(AVCaptureDevice.default(for: .video))
        let scene = try XCTUnwrap(camera.virtualScene)
        let id = try scene.placeCode(.qr, payload: "https://example.com/menu", center: CGPoint(x: 0.4, y: 0.55), width: 0.2, aspectRatio: 16.0 / 9.0)
        defer { scene.removeAllCodes() }
        let scanner = QRCodeScanner()
        try scanner.setup(viewBounds: CGRect(x: 0, y: 0, width: 640, height: 480))
        scanner.start()
        defer { scanner.stop() }
        let deadline = Date().addingTimeInterval(5)
        while scanner.scannedCodes.isEmpty, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.02)) }
        XCTAssertEqual(scanner.scannedCodes, ["https://example.com/menu"])
        let qrSymbol = try XCTUnwrap(scanner.lastQRSymbol, "the code's Core Image descriptor")
        XCTAssertTrue((1...40).contains(qrSymbol.version))
        // The session's default preset (.high) streams 16:9: filling a 640x480 view, it is scaled
        // to 853x480 and its sides are cut, so the highlight is the symbol's place in that picture.
        let dimensions = CMVideoFormatDescriptionGetDimensions(camera.activeFormat.formatDescription)
        XCTAssertEqual(Double(dimensions.width) / Double(dimensions.height), 16.0 / 9.0, accuracy: 0.01)
        let scale = 480 / CGFloat(dimensions.height), cut = (CGFloat(dimensions.width) * scale - 640) / 2
        let symbol = try XCTUnwrap(scene.symbolCorners(ofCode: id))
        XCTAssertEqual(scanner.highlightFrame.midX, symbol.map(\.x).reduce(0, +) / 4 * CGFloat(dimensions.width) * scale - cut, accuracy: 6)
        XCTAssertEqual(scanner.highlightFrame.midY, symbol.map(\.y).reduce(0, +) / 4 * 480, accuracy: 6)
        scanner.toggleTorch(on: true)
        XCTAssertEqual(camera.torchMode, .on)
        scanner.toggleTorch(on: false)
        scene.removeCode(id)
        let gone = Date().addingTimeInterval(5)
        while scanner.highlightFrame != .zero, Date() < gone { RunLoop.main.run(until: Date().addingTimeInterval(0.02)) }
        XCTAssertEqual(scanner.highlightFrame, .zero, "the highlight goes when the code does")
    }

    func testEveryZeroInitializerOfAnImportedStructure() {
        XCTAssertEqual(CMVideoDimensions(), CMVideoDimensions(width: 0, height: 0))
        XCTAssertFalse(CMTime().isValid)
        XCTAssertEqual(CMTime().value, 0)
        XCTAssertFalse(CMTimeRange().start.isValid)
        XCTAssertFalse(CMSampleTimingInfo().duration.isValid)
        XCTAssertEqual(AudioStreamBasicDescription().mSampleRate, 0)
    }

    func testStringConstantsBridgeToNSString() {
        let item = locationMetadataItem(latitude: 48.8584, longitude: 2.2945)
        XCTAssertEqual(item.key as? NSString, "location" as NSString)
        XCTAssertEqual(item.value as? NSString, "+48.8584+002.2945/" as NSString)
        let settings = storedSettings()
        XCTAssertEqual(settings["preset"], AVCaptureSession.Preset.hd1280x720.rawValue as NSString)
        XCTAssertEqual(settings["media"], "vide")
        XCTAssertEqual(settings["fileType"], "com.apple.quicktime-movie")
        XCTAssertEqual(settings["codec"], "avc1")
        XCTAssertEqual(AVMetadataKey.commonKeyLocation as NSString as String, AVMetadataKey.commonKeyLocation.rawValue)
    }

    func testGeometryAsAppsUseIt() {
        let transform = portraitTransform(for: CGSize(width: 1920, height: 1080))
        XCTAssertEqual(CGRect(x: 0, y: 0, width: 1920, height: 1080).applying(transform), CGRect(x: 0, y: 0, width: 1080, height: 1920))
        XCTAssertEqual(zoomedFieldOfView(60, zoomFactor: 1), 60, accuracy: 1e-9)
        XCTAssertEqual(zoomedFieldOfView(60, zoomFactor: 2), 32.2, accuracy: 0.1)
        XCTAssertEqual(temporaryMovieURL(named: "clip").pathExtension, "mov")
    }

    func testVideoToolboxKeysAskTheEncoderForSpeed() throws {
        let url = temporaryMovieURL(named: "fast-\(getpid())-\(UUID().uuidString.prefix(8))").deletingPathExtension().appendingPathExtension("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try writeGreyFrames(to: url, settings: fastWriterSettings(width: 320, height: 240, bitRate: 500_000), frames: 10), .completed)
        let data = try Data(contentsOf: url)
        let options = try XCTUnwrap(
            data.range(of: Data("options: ".utf8)).map {
                String(decoding: data[$0.upperBound..<min(data.endIndex, $0.upperBound + 600)], as: UTF8.self)
            })
        XCTAssertTrue(options.contains(" subme=0 ") && options.contains("cabac=0"), "x264's fastest preset: \(options.prefix(100))")
        XCTAssertTrue(options.contains("bitrate=500 "), String(options.prefix(400)))
    }

    func testAWritersTransformBecomesTheMoviesDisplayMatrix() throws {
        let url = temporaryMovieURL(named: "transform-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(
            mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240])
        input.transform = portraitTransform(for: CGSize(width: 320, height: 240))
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        XCTAssertTrue(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for index in 0..<5 {
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
            while !input.isReadyForMoreMediaData { Thread.sleep(forTimeInterval: 0.005) }
            XCTAssertTrue(adaptor.append(buffer!, withPresentationTime: CMTime(value: CMTimeValue(index), timescale: 30)))
        }
        input.markAsFinished()
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(writer.status, .completed)
        let rotation = MediaProbe.entries(url, "stream_side_data=rotation", stream: "v:0")
        XCTAssertEqual(rotation, "-90", "shown a quarter turn clockwise, as Apple's players show a portrait movie")
    }

    func testASlowMotionReviewShowsThePictureOnceReadyAndPlaysAtHalfSpeed() throws {
        let url = temporaryMovieURL(named: "review-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: url) }
        // A second of 320x240 pictures at 30 fps, written as an app's recorder would.
        XCTAssertEqual(try writeGreyFrames(to: url, settings: fastWriterSettings(width: 320, height: 240, bitRate: 500_000), frames: 30), .completed)

        let review = SlowMotionReview()
        review.show(url, in: CGRect(x: 0, y: 0, width: 640, height: 640))
        let deadline = Date().addingTimeInterval(5)
        while !review.isShowingVideo, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.02)) }
        XCTAssertTrue(review.isShowingVideo, "the layer says when its first picture is ready")
        XCTAssertEqual(review.pictureRect, CGRect(x: 0, y: 80, width: 640, height: 480), "aspect fit in the square view")
        let snapshot = try XCTUnwrap(review.snapshot())
        XCTAssertEqual([CVPixelBufferGetWidth(snapshot), CVPixelBufferGetHeight(snapshot)], [320, 240])
        review.playSlowly()
        RunLoop.main.run(until: Date().addingTimeInterval(1))
        XCTAssertEqual(review.player.rate, 0.5)
        XCTAssertEqual(review.scrubberPosition.seconds, 0.5, accuracy: 0.1, "half a second of the clip in a second")
        review.close()
    }

    func testACachingPlayerServesTheMovieThroughItsResourceLoader() async throws {
        let url = temporaryMovieURL(named: "cached-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try writeGreyFrames(to: url, settings: fastWriterSettings(width: 320, height: 240, bitRate: 500_000), frames: 30), .completed)
        let cached = try Data(contentsOf: url)
        let loader = CachingPlayerLoader(cached: cached)
        let asset = loader.asset(for: url)
        XCTAssertEqual(asset.url.scheme, CachingPlayerLoader.scheme)
        let tracks = try await asset.loadTracks(withMediaType: .video)
        XCTAssertEqual(tracks.count, 1)
        let size = try await tracks[0].load(.naturalSize)
        XCTAssertEqual(size, CGSize(width: 320, height: 240))
        let duration = try await asset.load(.duration)
        XCTAssertEqual(duration.seconds, 1, accuracy: 0.05)
        // Every frame, read through the loader.
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: tracks[0], outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        reader.add(output)
        XCTAssertTrue(reader.startReading())
        var frames = 0
        while output.copyNextSampleBuffer() != nil { frames += 1 }
        XCTAssertEqual(reader.status, .completed, String(describing: reader.error))
        XCTAssertEqual(frames, 30)
        // Each opening (the asset's, then the reader's) first asks for the content information with
        // two bytes, as Apple's loader does; then for ranges within the movie.
        let requests = loader.requests
        XCTAssertEqual(requests.filter(\.wantsInformation).count, 2, "\(requests)")
        XCTAssertTrue(requests.filter(\.wantsInformation).allSatisfy { $0.offset == 0 && $0.length == 2 }, "\(requests)")
        XCTAssertEqual(requests.first?.wantsInformation, true)
        let ranges = requests.filter { !$0.wantsInformation }
        XCTAssertFalse(ranges.isEmpty)
        XCTAssertTrue(ranges.allSatisfy { $0.length > 0 && $0.offset + Int64($0.length) <= Int64(cached.count) }, "\(requests)")

        // The downloads it would start for those ranges, made with URLRequest from AVFoundation's import alone.
        XCTAssertEqual(loader.forwardedRanges.first, "bytes=0-1")
        XCTAssertEqual(loader.forwardedRanges.count, requests.count)
        XCTAssertEqual(RangeDownloads().session.configuration.requestCachePolicy, URLSessionConfiguration.ephemeral.requestCachePolicy)
        // A loader that fails its requests: loading the asset throws the loader's error.
        let failing = CachingPlayerLoader(cached: cached)
        failing.failsEveryRequest = true
        do {
            _ = try await failing.asset(for: url).load(.tracks)
            XCTFail("an asset whose loader fails does not load")
        } catch {
            XCTAssertEqual((error as? URLError)?.code, .notConnectedToInternet, "\(error)")
        }
        // Without a delegate, a URL of a custom scheme is not read.
        do {
            _ = try await AVURLAsset(url: URL(string: "cachingplayer://cache/movie.mp4")!).load(.tracks)
            XCTFail("nothing reads a custom scheme without a resource loader delegate")
        } catch {
            XCTAssertEqual((error as? AVError)?.code, .fileFormatNotRecognized, "\(error)")
        }
    }

    func testAScreenRecordingOfACroppedRegionReadsBackWithFFprobe() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed")
        let display: VirtualDisplay
        do { display = try VirtualDisplay(width: 800, height: 600) } catch {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw error }
            throw XCTSkip("\(error)")
        }
        let saved = ProcessInfo.processInfo.environment["DISPLAY"]
        setenv("DISPLAY", display.name, 1)
        defer {
            display.stop()
            if let saved { setenv("DISPLAY", saved, 1) } else { unsetenv("DISPLAY") }
        }
        XCTAssertTrue(display.paint("#40c080"))
        let url = temporaryMovieURL(named: "screen-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = ScreenRecorder()
        XCTAssertTrue(recorder.configure(cropRect: CGRect(x: 100, y: 100, width: 400, height: 300), framesPerSecond: 15))
        recorder.record(to: url, seconds: 2)
        XCTAssertNil(recorder.recordingError)
        let facts = runTool(
            "/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", url.path])
        XCTAssertEqual(String(decoding: facts ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "400,300")
        // The frames' own times, not ffprobe's guess of a rate from them: never closer than the
        // 15 a second asked (a busy machine may pass frame times over, never add them).
        let packets = runTool(
            "/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", url.path])
        let times = String(decoding: packets ?? Data(), as: UTF8.self).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .sorted()
        XCTAssertGreaterThan(times.count, 1, "frames in the movie")
        XCTAssertLessThanOrEqual(times.count, 31, "at most 15 frames a second for 2 s")
        let closest = zip(times.dropFirst(), times).map { $0 - $1 }.min() ?? 0
        XCTAssertGreaterThanOrEqual(closest, 1.0 / 15 - 0.002, "frames no closer than a fifteenth of a second")
        let duration = runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
        XCTAssertEqual(Double(String(decoding: duration ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 2, accuracy: 0.2)
    }

    func testFramesBecomeCGImagesAsTheProgrammingGuideAndQA1702MakeThem() throws {
        let grabber = FrameImageGrabber()
        try grabber.start()
        defer { grabber.stop() }
        XCTAssertTrue(waitUntil { grabber.latest != nil })
        let frame = try XCTUnwrap(grabber.latest)
        let pixels = try XCTUnwrap(CMSampleBufferGetImageBuffer(frame))
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        let (width, height, rowBytes) = (CVPixelBufferGetWidth(pixels), CVPixelBufferGetHeight(pixels), CVPixelBufferGetBytesPerRow(pixels))
        let original = Data(bytes: CVPixelBufferGetBaseAddress(pixels)!, count: rowBytes * height)
        CVPixelBufferUnlockBaseAddress(pixels, .readOnly)
        for image in [FramesAsImages.imageFromSampleBuffer(frame), FramesAsImages.directImage(from: frame)] {
            let image = try XCTUnwrap(image)
            XCTAssertEqual(image.width, width)
            XCTAssertEqual(image.height, height)
            XCTAssertEqual(image.bytesPerRow, rowBytes)
            let bytes = try XCTUnwrap(image.dataProvider?.data) as Data
            XCTAssertEqual(bytes.prefix(rowBytes * height), original, "the frame's pixels, byte for byte")
            // Redrawn into RGBA: every pixel's red, green and blue, in the other order.
            let rgba = try XCTUnwrap(FramesAsImages.rgbaBytes(of: image))
            var differences = 0
            for y in stride(from: 0, to: height, by: 7) {
                for x in stride(from: 0, to: width, by: 5) {
                    let b = original[y * rowBytes + x * 4], g = original[y * rowBytes + x * 4 + 1], r = original[y * rowBytes + x * 4 + 2]
                    let at = (y * width + x) * 4
                    if rgba[at] != r || rgba[at + 1] != g || rgba[at + 2] != b || rgba[at + 3] != 255 { differences += 1 }
                }
            }
            XCTAssertEqual(differences, 0, "pixels redrawn upright and unchanged")
        }
    }
}

extension AppleStyleCodeTests {
    func testFramesGoThroughCoreImageFiltersAsAppsFilterThem() throws {
        let camera = FilteredFrames()
        try camera.start()
        defer { camera.stop() }
        XCTAssertTrue(waitUntil { camera.latestFrameAndImage != nil }, "a filtered frame")
        let (frame, image) = try XCTUnwrap(camera.latestFrameAndImage)
        let (width, height) = (CVPixelBufferGetWidth(frame), CVPixelBufferGetHeight(frame))
        XCTAssertEqual([image.width, image.height], [height, width], "turned for a portrait screen")
        let source = try XCTUnwrap(FramesAsImages.rgbaBytes(of: try XCTUnwrap(FilteredFrames.snapshot(of: frame))))
        let shown = try XCTUnwrap(FramesAsImages.rgbaBytes(of: image))
        // Each pixel shown is the frame's pixel a quarter turn away, as its luma.
        var worst = 0
        for row in stride(from: 0, to: image.height, by: 9) {
            for column in stride(from: 0, to: image.width, by: 7) {
                let (x, y) = (row, height - 1 - column)
                let at = (y * width + x) * 4
                let luma = 0.2126 * Double(source[at]) + 0.7152 * Double(source[at + 1]) + 0.0722 * Double(source[at + 2])
                let seen = (row * image.width + column) * 4
                worst = max(
                    worst, abs(Int(shown[seen]) - Int(luma.rounded())), abs(Int(shown[seen + 1]) - Int(shown[seen])),
                    abs(Int(shown[seen + 2]) - Int(shown[seen])))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "grey, turned, pixel for pixel")
    }
}

extension AppleStyleCodeTests {
    /// 320x240 30 fps H.264 clips of one colour each, made by the ffmpeg command.
    func colourClips(_ colours: [String], seconds: Int, in folder: URL) throws -> [AVURLAsset] {
        try colours.map { colour in
            let url = folder.appendingPathComponent("\(colour).mov")
            let arguments = [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(colour):s=320x240:r=30:d=\(seconds)", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            ]
            guard runTool("/usr/bin/ffmpeg", arguments + [url.path]) != nil else { throw XCTSkip("ffmpeg is needed") }
            return AVURLAsset(url: url)
        }
    }

    /// Runs an export that calls its completion once, and waits for it: the error it gave, as text; nil when it succeeded.
    func exportError(_ export: (@escaping @Sendable (Error?) -> Void) -> Void) -> String? {
        let finished = expectation(description: "export")
        let outcome = LockedValue<String?>("not called")
        export { error in
            outcome.withLock { $0 = error.map { "\($0)" } }
            finished.fulfill()
        }
        wait(for: [finished], timeout: 60)
        return outcome.withLock { $0 }
    }

    func testTwoClipsMergeWithACrossfadeAsEditingTutorialsMergeThem() throws {
        let folder = makeScratchFolder()
        let clips = try colourClips(["red", "blue"], seconds: 2, in: folder)
        let output = folder.appendingPathComponent("merged.mov")
        XCTAssertNil(exportError { ClipMerger.merge(clips[0], clips[1], fadeSeconds: 1, to: output, completion: $0) }, "exported")
        let merged = AVURLAsset(url: output)
        XCTAssertEqual(merged.duration.seconds, 3, accuracy: 0.1, "two 2 s clips overlapping by 1 s")
        func colour(_ seconds: Double) throws -> [Int] {
            let bytes = try XCTUnwrap(FramesAsImages.rgbaBytes(of: try XCTUnwrap(ClipMerger.frame(of: merged, at: seconds))))
            let at = (120 * 320 + 160) * 4
            return [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])]
        }
        let early = try colour(0.5), middle = try colour(1.5), late = try colour(2.5)
        XCTAssertTrue(early[0] > 220 && early[2] < 40, "red before the fade: \(early)")
        XCTAssertTrue(abs(middle[0] - 128) < 40 && abs(middle[2] - 128) < 40, "half of each halfway through: \(middle)")
        XCTAssertTrue(late[2] > 220 && late[0] < 40, "blue after it: \(late)")
    }
}

extension AppleStyleCodeTests {
    func testACustomCompositorClassPutsTwoClipsSideBySide() throws {
        let folder = makeScratchFolder()
        let clips = try colourClips(["red", "blue"], seconds: 2, in: folder)
        let output = folder.appendingPathComponent("split.mp4")
        XCTAssertNil(exportError { SplitScreenExport.export(clips[0], clips[1], to: output, completion: $0) }, "exported")
        let split = AVURLAsset(url: output)
        XCTAssertEqual(split.duration.seconds, 2, accuracy: 0.1)
        let bytes = try XCTUnwrap(FramesAsImages.rgbaBytes(of: try XCTUnwrap(ClipMerger.frame(of: split, at: 1))))
        func colour(x: Int) -> [Int] {
            let at = (120 * 320 + x) * 4
            return [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])]
        }
        let left = colour(x: 60), right = colour(x: 260)
        XCTAssertTrue(left[0] > 220 && left[2] < 40, "the first clip on the left: \(left)")
        XCTAssertTrue(right[2] > 220 && right[0] < 40, "the second on the right: \(right)")
    }
}

extension AppleStyleCodeTests {
    /// An exporter that announces its progress by key around each change compiles and runs: the
    /// announcements do nothing on Linux, the progress climbs to 1 and the movie is written.
    func testAnExporterAnnouncingItsProgressByKeyRunsUnchanged() throws {
        let folder = makeScratchFolder()
        let source = try XCTUnwrap(colourClips(["blue"], seconds: 2, in: folder).first)
        let output = folder.appendingPathComponent("exported.mov")
        let exporter = ProgressReportingExporter()
        XCTAssertNil(exportError { exporter.export(source, to: output, completion: $0) }, "exported")
        XCTAssertEqual(exporter.progress, 1)
        XCTAssertEqual(exporter.announced.last, 1)
        XCTAssertEqual(exporter.announced, exporter.announced.sorted(), "progress only climbs")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.path))
    }

    func testAWatermarkLayerIsDrawnOverEachFrameByTheAnimationTool() throws {
        let folder = makeScratchFolder()
        let source = try XCTUnwrap(colourClips(["red"], seconds: 1, in: folder).first)
        let logo = try XCTUnwrap(WatermarkExporter.logo(red: 0, green: 1, blue: 0))
        let output = folder.appendingPathComponent("marked.mov")
        XCTAssertNil(exportError { WatermarkExporter.export(source, logo: logo, to: output, completion: $0) }, "exported")
        let bytes = try XCTUnwrap(FramesAsImages.rgbaBytes(of: try XCTUnwrap(ClipMerger.frame(of: AVURLAsset(url: output), at: 0.5))))
        func colour(x: Int, y: Int) -> [Int] {
            let at = (y * 320 + x) * 4
            return [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])]
        }
        // The logo's layer is 20 points from the bottom left (Core Animation's origin): rows 156-219 from the top.
        let marked = colour(x: 52, y: 188), plain = colour(x: 200, y: 60), above = colour(x: 52, y: 140)
        XCTAssertTrue(abs(marked[0] - 128) < 40 && abs(marked[1] - 128) < 40 && marked[2] < 40, "half green over red: \(marked)")
        XCTAssertTrue(plain[0] > 220 && plain[1] < 40, "the video elsewhere: \(plain)")
        XCTAssertTrue(above[0] > 220 && above[1] < 40, "above the logo, the video: \(above)")
    }

    func testATitleCardLayerIsComposedAsATrackOfItsOwnAndFadesOut() throws {
        let folder = makeScratchFolder()
        let source = try XCTUnwrap(colourClips(["red"], seconds: 2, in: folder).first)
        let output = folder.appendingPathComponent("titled.mp4")
        XCTAssertNil(
            exportError { TitleCardExporter.export(source, cardColor: CGColor(red: 0, green: 0, blue: 1, alpha: 1), to: output, completion: $0) }, "exported")
        let titled = AVURLAsset(url: output)
        func colour(at seconds: Double, x: Int, y: Int) throws -> [Int] {
            let bytes = try XCTUnwrap(FramesAsImages.rgbaBytes(of: try XCTUnwrap(ClipMerger.frame(of: titled, at: seconds))))
            let at = (y * 320 + x) * 4
            return [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])]
        }
        // The band is the bottom third (Core Animation's origin at the bottom left): rows 160-239 from the top.
        let band = try colour(at: 0.5, x: 160, y: 200), above = try colour(at: 0.5, x: 160, y: 60)
        XCTAssertTrue(band[2] > 200 && band[0] < 50, "the card's blue band over the video: \(band)")
        XCTAssertTrue(above[0] > 200 && above[2] < 50, "the video above it, where the card draws nothing: \(above)")
        let fading = try colour(at: 1.25, x: 160, y: 200), gone = try colour(at: 1.8, x: 160, y: 200)
        XCTAssertTrue(abs(fading[0] - 128) < 45 && abs(fading[2] - 128) < 45, "half faded at 1.25 s: \(fading)")
        XCTAssertTrue(gone[0] > 200 && gone[2] < 50, "faded out after 1.5 s: \(gone)")
    }
}

/// A voice memo recorder on the virtual microphone, in real time: it records for about a second.
final class VoiceMemoRecorderTests: XCTestCase {
    func testAMemoIsRecordedWithALevelBarAndPlaysBack() throws {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        defer { unsetenv("LINUXAVFOUNDATION_DEVICES") }
        let url = makeScratchFolder(name).appendingPathComponent("memo.m4a")
        let memo = VoiceMemoRecorder()
        let finished = LockedFlag()
        memo.onFinish = { if $0 { finished.set() } }
        try memo.startRecording(to: url)
        XCTAssertTrue(memo.isRecording)
        XCTAssertTrue(waitUntil(timeout: 10) { memo.levels.count >= 10 }, "the timer polls the meter")
        memo.stopRecording()
        XCTAssertTrue(waitUntil { finished.value }, "the delegate hears it finished successfully")
        XCTAssertTrue(memo.levels.allSatisfy { (0...1).contains($0) })
        // The virtual microphone's voice peaks at -10.5 dBFS in syllables: the bar rises and falls.
        XCTAssertGreaterThan(memo.levels.max() ?? 0, 0.3, "the tone moves the bar: \(memo.levels)")
        XCTAssertGreaterThan((memo.levels.max() ?? 0) - (memo.levels.min() ?? 0), 0.05, "with the syllables")
        let file = try AVAudioFile(forReading: url)
        XCTAssertEqual(file.fileFormat.sampleRate, 12_000)
        XCTAssertEqual(Double(file.length) / 12_000, 1, accuracy: 0.5, "about the second recorded")
    }
}

/// A tuner and a signal generator as iOS apps build them on AVAudioEngine. The tuner listens to
/// the virtual microphone in real time for up to ten seconds.
final class AudioEngineAppTests: XCTestCase {
    func testATunerFindsTheMicrophonesNote() throws {
        setenv("LINUXAVFOUNDATION_DEVICES", "virtual", 1)
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
        defer {
            unsetenv("LINUXAVFOUNDATION_DEVICES")
            unsetenv("PULSE_SERVER")
        }
        let tuner = Tuner()
        try tuner.start()
        XCTAssertTrue(waitUntil(timeout: 10) { tuner.latestFrequencies.count >= 5 }, "a pitch for each buffer")
        tuner.stop()
        let sorted = tuner.latestFrequencies.sorted()
        let median = sorted[sorted.count / 2]
        XCTAssertEqual(median, 440, accuracy: 12, "the virtual microphone's 440 Hz")
        XCTAssertEqual(Tuner.noteName(for: median), "A4")
    }

    func testASignalGeneratorRendersItsSineIntoAFile() throws {
        let url = makeScratchFolder(name).appendingPathComponent("sine.caf")
        try SignalGenerator.renderSine(frequency: 880, amplitude: 0.25, seconds: 2, to: url)
        let file = try AVAudioFile(forReading: url)
        XCTAssertEqual(file.length, 88_200)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 88_200)!
        try file.read(into: buffer)
        let left = (0..<Int(buffer.frameLength)).map { buffer.floatChannelData![0][$0] }
        let risings = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        XCTAssertEqual(Double(risings) / 2, 880, accuracy: 1, "880 rising crossings a second")
        XCTAssertEqual(left.map { abs($0) }.max() ?? 0, 0.25, accuracy: 0.001)
    }
}

/// A capture's result, handed from the library's queue to the test.
/// A home folder of a test's own, made empty and set as HOME (where the photo library's folders are) until `restore()`.
struct TemporaryHome {
    let url: URL
    private let saved: String?

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        saved = ProcessInfo.processInfo.environment["HOME"]
        setenv("HOME", url.path, 1)
    }

    /// Puts HOME back and removes the folder.
    func restore() {
        if let saved { setenv("HOME", saved, 1) }
        try? FileManager.default.removeItem(at: url)
    }
}

final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LivePhotoResult?
    var result: LivePhotoResult? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    private var storedDeferred: Result<TimeInterval, Error>?
    var deferred: Result<TimeInterval, Error>? {
        get { lock.withLock { storedDeferred } }
        set { lock.withLock { storedDeferred = newValue } }
    }

}

/// CMTime operators an app declares for itself, beside Core Media's.
/// A camera app's own album, found by a predicate on its title and made when missing.
final class CustomPhotoAlbumTests: XCTestCase {
    func testARecordingIsSavedIntoTheAppsAlbumMadeOnTheFirstSave() throws {
        let home = try TemporaryHome("custom-album")
        defer { home.restore() }
        let movie = home.url.appendingPathComponent("take.mov")
        try (Data([0, 0, 0, 20]) + Data("ftypqt  \0\0\0\0qt  movie bytes".utf8)).write(to: movie)
        let album = CustomPhotoAlbum(albumName: "My Camera")
        XCTAssertNil(album.fetchAssetCollectionForAlbum())
        for _ in 0..<2 {
            let saved = expectation(description: "saved")
            album.save(videoAt: movie) { success, error in
                XCTAssertTrue(success, "\(String(describing: error))")
                saved.fulfill()
            }
            wait(for: [saved], timeout: 10)
        }
        let collection = try XCTUnwrap(album.fetchAssetCollectionForAlbum())
        XCTAssertEqual(collection.localizedTitle, "My Camera")
        XCTAssertEqual(collection.estimatedAssetCount, 2, "both takes, in one album made once")
        let files = try FileManager.default.contentsOfDirectory(atPath: home.url.appendingPathComponent("Videos/My Camera").path)
        XCTAssertEqual(files.count, 2)
    }
}

/// A drum loop looped by a player node, and a reverb heard live and exported offline, as audio apps do them.
final class LoopAndReverbTests: XCTestCase {
    /// A mono 48 kHz WAV of `seconds`: a 1 kHz burst of 50 ms at the start, silence after.
    private func loopFile(seconds: Double) throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("loop-\(getpid()).wav")
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let buffer = burst(format: format, seconds: seconds)
        let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1])
        try file.write(from: buffer)
        file.close()
        return url
    }

    private func burst(format: AVAudioFormat, seconds: Double) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(seconds * 48_000))!
        buffer.frameLength = buffer.frameCapacity
        for frame in 0..<Int(buffer.frameLength) { buffer.floatChannelData![0][frame] = frame < 2400 ? 0.5 * sin(2 * .pi * 1000 * Float(frame) / 48_000) : 0 }
        return buffer
    }

    private func rms(_ samples: ArraySlice<Float>) -> Double { (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot() }

    func testALoopPlaysAgainAndAgainAtItsLength() throws {
        let url = try loopFile(seconds: 0.25)
        defer { try? FileManager.default.removeItem(at: url) }
        let bounced = try LoopPlayer(loopURL: url).bounce(seconds: 1)
        XCTAssertEqual(bounced.count, 48_000)
        for loop in 0..<4 {
            let start = loop * 12_000
            XCTAssertEqual(rms(bounced[start + 100..<start + 2300]), 0.5 / 2.squareRoot(), accuracy: 0.02, "the burst of pass \(loop + 1)")
            XCTAssertLessThan(rms(bounced[start + 2500..<start + 11_900]), 0.001, "silence after it")
        }
    }

    func testTheExportSoundsAsTheLiveReverbDidLaterByItsLatency() throws {
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
        defer { unsetenv("PULSE_SERVER") }
        let sound = burst(format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!, seconds: 0.1)
        let exporter = ReverbExporter(sound: sound)
        let exported = try exporter.export(frames: 24_000)
        XCTAssertGreaterThan(rms(exported[12_000..<24_000]), 0.005, "the hall rings on after the burst")
        // A busy machine can make the effect's worker late for a cycle, which real time shows as a
        // short cycle and the export never does: such a run is heard again, up to 8 times.
        for attempt in 1...8 {
            let late = EffectPipeline.lateCycles.load(ordering: .relaxed)
            let live = try XCTUnwrap(try exporter.listen(frames: 26_000, timeout: 10))
            if EffectPipeline.lateCycles.load(ordering: .relaxed) != late, attempt < 8 { continue }
            XCTAssertEqual(live.latencyFrames, 512, "live, the reverb runs a cycle behind")
            let difference = zip(live.samples.dropFirst(live.latencyFrames), exported).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(difference, 1e-5, "the export is what was heard (attempt \(attempt))")
            break
        }
    }
}

/// A stereo pair tagged as spatial video code tags it.
final class StereoPairTaggerTests: XCTestCase {
    func testEachEyeIsTaggedAndFoundAgain() {
        var left: CVPixelBuffer?, right: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &left)
        CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &right)
        let tagger = StereoPairTagger()
        let pair = tagger.tag(left: left!, right: right!)
        XCTAssertEqual(pair.count, 2)
        XCTAssertTrue(tagger.frame(for: .leftEye, in: pair) === left!)
        XCTAssertTrue(tagger.frame(for: .rightEye, in: pair) === right!)
        XCTAssertNil(tagger.frame(for: [.leftEye, .rightEye], in: pair), "no buffer holds both eyes")
        XCTAssertEqual(pair[1].tags.first, .videoLayerID(1))
        XCTAssertNotEqual(CMTag.videoLayerID(1), CMTag.videoLayerID(0))
        XCTAssertTrue(tagger.outputTags.contains(.stereoView([.leftEye, .rightEye])), "stereo output names both eyes")
        XCTAssertFalse([CMTag].monoscopicForVideoOutput().contains(.stereoView([.leftEye, .rightEye])))
    }
}

final class TimeArithmeticTests: XCTestCase {
    func testAnAppsOwnCMTimeOperatorsAreTheOnesUsed() {
        let bar = TrimmingBar(duration: CMTime(value: 6000, timescale: 600), thumbnails: 4)
        XCTAssertEqual(bar.thumbnailTimes.map(\.seconds), [0, 2.5, 5, 7.5])
        let window = bar.window(around: CMTime(value: 9, timescale: 1), seconds: 4)
        XCTAssertEqual(window.start.seconds, 7)
        XCTAssertEqual(window.end.seconds, 10, "kept inside the clip")
        XCTAssertEqual(bar.window(around: .zero, seconds: 4).start, .zero)
    }
}

/// An `@Observable` model written against AVFoundation alone.
final class ObservableCameraModelTests: XCTestCase {
    func testAChangeIsObserved() {
        let model = CameraModel()
        let changed = LockedFlag()
        withObservationTracking {
            _ = model.isRunning
        } onChange: {
            changed.set()
        }
        model.zoomFactor = 2
        XCTAssertFalse(changed.value, "a property not read is not tracked")
        model.sessionDidChange(running: true)
        XCTAssertTrue(changed.value, "the running state it read changed")
    }
}

/// A flag set from any thread.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}

/// Notifications awaited as an asynchronous sequence.
final class NotificationSequenceTests: XCTestCase {
    /// Posts an interruption every few milliseconds until cancelled.
    private static func keepPosting(_ reason: Int, from session: AVCaptureSession) -> Task<Void, Never> {
        Task.detached {
            while !Task.isCancelled {
                post(reason, from: session)
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
        }
    }

    private static func post(_ reason: Int, from session: AVCaptureSession) {
        NotificationCenter.default.post(
            name: AVCaptureSession.wasInterruptedNotification, object: session, userInfo: [AVCaptureSessionInterruptionReasonKey: NSNumber(value: reason)])
    }

    func testAnIteratorKeepsWhatIsPostedForItsObjectInOrder() async {
        let session = AVCaptureSession(), other = AVCaptureSession()
        var iterator = NotificationCenter.default.notifications(named: AVCaptureSession.wasInterruptedNotification, object: session).makeAsyncIterator()
        Self.post(1, from: other)
        Self.post(2, from: session)
        Self.post(3, from: session)
        let first = await iterator.next(), second = await iterator.next()
        XCTAssertEqual((first?.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue, 2, "not the other session's")
        XCTAssertEqual((second?.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue, 3, "kept until asked for")
        XCTAssertTrue(first?.object as AnyObject? === session)
    }

    func testALoopAwaitsTheSessionsInterruption() async throws {
        let session = AVCaptureSession()
        let heard = Task { await firstInterruption(of: session) }
        // The loop observes once it has made its iterator: post until it has heard.
        let reason = AVCaptureSession.InterruptionReason.videoDeviceInUseByAnotherClient
        let posting = Self.keepPosting(reason.rawValue, from: session)
        let value = await heard.value
        posting.cancel()
        XCTAssertEqual(value, reason)
    }
}

/// A layer tree holding the preview layer.
final class CameraLayerTreeTests: XCTestCase {
    func testTheTreeKeepsItsOrderAndItsGeometry() throws {
        let tree = CameraLayerTree(session: AVCaptureSession(), size: CGSize(width: 390, height: 844))
        XCTAssertEqual(
            tree.root.sublayers?.map { $0 === tree.preview ? "preview" : $0 === tree.focusSquare ? "focus" : "badge" }, ["preview", "focus", "badge"])
        XCTAssertTrue(tree.preview.superlayer === tree.root)
        XCTAssertEqual(tree.preview.frame, CGRect(x: 0, y: 0, width: 390, height: 844))
        XCTAssertEqual(tree.preview.position, CGPoint(x: 195, y: 422), "the position is the frame's centre with the default anchor point")
        XCTAssertEqual(tree.badge.bounds, CGRect(x: 0, y: 0, width: 40, height: 40))
        XCTAssertEqual(tree.badge.position, CGPoint(x: 350, y: 40))

        XCTAssertEqual(tree.tap(at: CGPoint(x: 100, y: 200)), CGPoint(x: 100, y: 200), "the preview fills the root")
        XCTAssertEqual(tree.focusSquare.frame, CGRect(x: 60, y: 160, width: 80, height: 80), "centred on the tap")
        XCTAssertEqual(tree.badge.convert(CGPoint(x: 5, y: 5), to: tree.root), CGPoint(x: 335, y: 25))
        XCTAssertEqual(tree.root.convert(CGPoint(x: 335, y: 25), to: tree.badge), CGPoint(x: 5, y: 5))

        tree.focusSquare.anchorPoint = .zero
        XCTAssertEqual(tree.focusSquare.frame.origin, CGPoint(x: 100, y: 200), "moving the anchor point moves the frame, not the position")

        tree.hideBadge()
        XCTAssertNil(tree.badge.superlayer)
        XCTAssertEqual(tree.root.sublayers?.count, 2)
        let other = CALayer()
        other.addSublayer(tree.focusSquare)
        XCTAssertEqual(tree.root.sublayers?.count, 1, "a layer added elsewhere leaves its old superlayer")
        XCTAssertTrue(tree.focusSquare.superlayer === other)
        tree.root.insertSublayer(tree.badge, at: 0)
        XCTAssertTrue(tree.root.sublayers?.first === tree.badge)
        tree.root.replaceSublayer(tree.badge, with: tree.focusSquare)
        XCTAssertTrue(tree.root.sublayers?.first === tree.focusSquare && tree.badge.superlayer == nil && other.sublayers == nil)
    }
}

/// A player that shows its stream's ID3 titles and markers, on a manual clock the test moves.
final class NowPlayingMetadataTests: XCTestCase {
    func testTheTitlesAndMarkersOfAStreamsID3TagsArriveOnTheMainQueueAsItPlays() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed")
        let url = makeScratchFolder().appendingPathComponent("radio.ts")
        try TimedID3Movies.movie(
            url, seconds: 4,
            tags: [
                .init(seconds: 0, title: "Station ident"),
                .init(seconds: 1.5, title: "Song A", privateData: ("com.example.ads", Array("break:30".utf8))),
                .init(seconds: 3, title: "Song B"),
            ])
        let nowPlaying = NowPlayingMetadata(url: url)
        var shown: [String] = []
        nowPlaying.onTitle = { shown.append($0) }
        let item = try XCTUnwrap(nowPlaying.player.currentItem)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        // The output reads the tags on a thread of its own: the clock moves once it has read them.
        let output = try XCTUnwrap(item.outputs.first as? AVPlayerItemMetadataOutput)
        XCTAssertTrue(waitUntil { output.hasReadEveryTag })
        let clock = CMClock.manual()
        nowPlaying.player.sourceClock = clock
        nowPlaying.player.play()
        // Item time moves only as the test moves the clock; the main queue runs between steps.
        for _ in 0..<80 where nowPlaying.titles.count < 3 {
            clock.advance(by: CMTime(value: 50, timescale: 1000))
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
        let deadline = Date().addingTimeInterval(5)
        while nowPlaying.titles.count < 3, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.02)) }
        XCTAssertEqual(nowPlaying.titles, ["Station ident", "Song A", "Song B"])
        XCTAssertEqual(shown, nowPlaying.titles, "each title was shown on the main queue")
        XCTAssertEqual(nowPlaying.markers.count, 1)
        XCTAssertEqual(nowPlaying.markers.first?.owner, "com.example.ads")
        XCTAssertEqual(nowPlaying.markers.first.map { String(decoding: $0.payload, as: UTF8.self) }, "break:30")
        XCTAssertEqual(nowPlaying.markers.first?.at ?? 0, 1.5, accuracy: 1e-6)
        nowPlaying.player.pause()
    }
}
