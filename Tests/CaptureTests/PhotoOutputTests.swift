import CaptureTestSupport
import XCTest
@testable import AVFoundation
import Photos
import TestSupport

/// AVCapturePhotoOutput as the AVCam sample uses it: settings, the delegate's timeline, JPEG and
/// uncompressed photos, zero shutter lag.
final class PhotoOutputTests: CaptureTestCase {
    private func photoSession() throws -> (AVCaptureSession, AVCapturePhotoOutput) { try makePhotoSession() }

    func testAJPEGPhotoFollowsSeed001sTimelineAndDecodes() throws {
        let (_, output) = try photoSession()
        XCTAssertEqual(output.supportedFlashModes, [.off, .on, .auto], "the virtual back camera has a flash")
        let settings = AVCapturePhotoSettings()
        XCTAssertEqual(settings.photoCodecType, .jpeg)
        let processor = PhotoProcessor()
        output.capturePhoto(with: settings, delegate: processor)
        XCTAssertTrue(waitUntil { processor.isFinished })
        XCTAssertEqual(processor.calls.values, ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"])
        XCTAssertEqual(processor.queues.values, ["other"], "delegates are called off the main thread, on the output's queue")
        let photo = try XCTUnwrap(processor.photos.values.first)
        XCTAssertTrue(processor.errors.values.isEmpty)
        XCTAssertEqual(photo.resolvedSettings.uniqueID, settings.uniqueID)
        XCTAssertEqual(photo.resolvedSettings.photoDimensions, CMVideoDimensions(width: 640, height: 480))
        XCTAssertEqual(photo.photoCount, 1)
        XCTAssertNil(photo.pixelBuffer, "a compressed photo has no pixel buffer")
        let jpeg = try XCTUnwrap(photo.fileDataRepresentation())
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8], "a JPEG file")
        // An independent decoder reads it at the photo's size.
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("photo-\(getpid()).jpg")
        try jpeg.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let video = try XCTUnwrap(MediaProbe.probe(url)?.video)
        XCTAssertEqual(video.codec, "mjpeg")
        XCTAssertEqual(video.width, 640)
        XCTAssertEqual(video.height, 480)
    }

    /// A photo asked for while the running session's camera is being changed (its input removed,
    /// the new one not yet added) fails with an error rather than trapping: a client's timing
    /// reaches it, as a camera switch racing a shutter button does.
    func testAPhotoWhileTheCameraIsBeingChangedFailsWithAnError() throws {
        let (session, output) = try photoSession()
        session.beginConfiguration()
        let input = try XCTUnwrap(session.inputs.first)
        session.removeInput(input)
        let processor = PhotoProcessor()
        let settings = AVCapturePhotoSettings()
        output.capturePhoto(with: settings, delegate: processor)
        XCTAssertTrue(waitUntil { processor.isFinished })
        XCTAssertEqual(processor.calls.values, ["didFinishCapture"], "no photo, only the end of the capture")
        let error = try XCTUnwrap(processor.errors.values.first) as NSError
        XCTAssertEqual(error.code, AVError.Code.sessionConfigurationChanged.rawValue, "\(error)")
        XCTAssertTrue(error.localizedDescription.contains("camera is being changed"), error.localizedDescription)
        session.addInput(input)
        session.commitConfiguration()
        // Once the camera is back, photos are taken again.
        let again = PhotoProcessor()
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: again)
        XCTAssertTrue(waitUntil { again.isFinished })
        XCTAssertNotNil(again.photos.values.first)
    }

    /// Photos asked for while another thread keeps changing the camera: each capture judges its
    /// settings against the camera it found, so a change landing in the middle of the checks ends
    /// the capture with a photo or an error, never a trap (the flash mode was once checked against
    /// a camera already gone, and the process stopped).
    func testPhotosRacingCameraChangesEndInAPhotoOrAnError() throws {
        let (session, output) = try photoSession()
        let input = try XCTUnwrap(session.inputs.first)
        let finished = LockedBox(false)
        let changer = Thread {
            while !finished.value {
                session.beginConfiguration()
                session.removeInput(input)
                session.addInput(input)
                session.commitConfiguration()
            }
        }
        changer.start()
        defer { finished.value = true }
        var processors: [PhotoProcessor] = []
        for _ in 0..<300 {
            let processor = PhotoProcessor()
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .off
            settings.photoQualityPrioritization = .speed
            output.capturePhoto(with: settings, delegate: processor)
            processors.append(processor)
        }
        finished.value = true
        XCTAssertTrue(waitUntil(timeout: 120) { processors.allSatisfy(\.isFinished) })
        for processor in processors {
            XCTAssertTrue(processor.photos.values.count == 1 || processor.errors.values.count == 1, "\(processor.calls.values)")
        }
    }

    func testZeroShutterLagTakesTheFrameCurrentWhenAsked() throws {
        useManualClock()
        let (_, output) = try photoSession()
        XCTAssertTrue(output.isZeroShutterLagSupported)
        XCTAssertTrue(output.isZeroShutterLagEnabled)
        pass(0.3)
        let asked = manualClock.now
        let processor = PhotoProcessor()
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: processor)
        XCTAssertTrue(advanceUntil { processor.isFinished })
        let taken = try XCTUnwrap(processor.photos.values.first).timestamp
        XCTAssertLessThanOrEqual(taken, asked, "the frame that was current, not a later one")
        XCTAssertGreaterThan(taken.seconds, asked.seconds - 1.5 / 30, "and not an old one: the latest frame")
        // Without zero shutter lag, the next frame.
        output.isZeroShutterLagEnabled = false
        let later = PhotoProcessor()
        let askedAgain = manualClock.now
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: later)
        XCTAssertTrue(advanceUntil { later.isFinished })
        XCTAssertGreaterThan(try XCTUnwrap(later.photos.values.first).timestamp, askedAgain)
    }

    func testUncompressedPhotosAndOverlappingCapturesKeepTheirOrder() throws {
        let (_, output) = try photoSession()
        let first = PhotoProcessor(), second = PhotoProcessor()
        let bgra = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.capturePhoto(with: bgra, delegate: first)
        output.capturePhoto(with: AVCapturePhotoSettings(from: bgra), delegate: second)
        XCTAssertTrue(waitUntil { first.isFinished && second.isFinished })
        for processor in [first, second] {
            XCTAssertEqual(processor.calls.values, ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"])
            let photo = try XCTUnwrap(processor.photos.values.first)
            let pixels = try XCTUnwrap(photo.pixelBuffer)
            XCTAssertEqual(CVPixelBufferGetPixelFormatType(pixels), kCVPixelFormatType_32BGRA)
            XCTAssertEqual(CVPixelBufferGetWidth(pixels), 640)
            let tiff = try XCTUnwrap(photo.fileDataRepresentation(), "an uncompressed photo's file is a TIFF, as Apple's")
            XCTAssertEqual(Array(tiff.prefix(4)), [0x49, 0x49, 0x2A, 0x00])
            let decoded = try XCTUnwrap(CGImageSourceCreateWithData(tiff as CFData, nil).flatMap { CGImageSourceCreateImageAtIndex($0, 0, nil) })
            XCTAssertEqual([decoded.width, decoded.height], [CVPixelBufferGetWidth(pixels), CVPixelBufferGetHeight(pixels)])
            let (luma, _) = PixelStatistics.measure(pixels)
            XCTAssertGreaterThan(luma, 20, "the scene, not an empty buffer")
        }
        XCTAssertNotEqual(
            first.photos.values.first?.resolvedSettings.uniqueID, second.photos.values.first?.resolvedSettings.uniqueID,
            "init(from:) makes new settings")
    }

    func testFlashResolvesFromTheModeAndTheScene() throws {
        useManualClock()
        let (_, output) = try photoSession()
        func flash(_ mode: AVCaptureDevice.FlashMode) throws -> Bool {
            let settings = AVCapturePhotoSettings()
            settings.flashMode = mode
            let processor = PhotoProcessor()
            output.capturePhoto(with: settings, delegate: processor)
            XCTAssertTrue(advanceUntil { processor.isFinished })
            return try XCTUnwrap(processor.photos.values.first).resolvedSettings.isFlashEnabled
        }
        XCTAssertFalse(try flash(.off))
        XCTAssertTrue(try flash(.on))
        XCTAssertFalse(try flash(.auto), "a lit scene needs no flash")
        backCamera.virtualScene!.goDark()
        pass(0.5)
        XCTAssertTrue(try flash(.auto), "a dark one does")
        backCamera.virtualScene!.lightsOn()
    }
}

/// What photos carry: EXIF written with libexif (read back by exiftool), HEIC through libheif
/// (read back by heif-info), and a flash that lights a dark scene.
final class PhotoFileTests: CaptureTestCase {
    private func photoSession() throws -> (AVCaptureSession, AVCapturePhotoOutput) {
        let (session, output) = try makePhotoSession()
        output.maxPhotoQualityPrioritization = .quality
        return (session, output)
    }

    private func take(_ settings: AVCapturePhotoSettings, with output: AVCapturePhotoOutput) throws -> AVCapturePhoto {
        let processor = PhotoProcessor()
        output.capturePhoto(with: settings, delegate: processor)
        let finished = { processor.isFinished }
        XCTAssertTrue(backCamera.virtualScene!.clock.isManuallyAdvanced ? advanceUntil(finished) : waitUntil(timeout: 30, finished))
        XCTAssertTrue(processor.errors.values.isEmpty, "\(processor.errors.values)")
        return try XCTUnwrap(processor.photos.values.first)
    }

    func testAJPEGPhotoCarriesTheCapturesEXIFAndTheAppsGPS() throws {
        try XCTSkipUnless(ImageTools.hasExifTool, "exiftool (libimage-exiftool-perl) reads the photos back")
        let (session, output) = try photoSession()
        let connection = try XCTUnwrap(output.connection(with: .video))
        connection.videoRotationAngle = 90
        let settings = AVCapturePhotoSettings()
        settings.metadata = [
            kCGImagePropertyGPSDictionary as String: [
                kCGImagePropertyGPSLatitude as String: 48.8584, kCGImagePropertyGPSLatitudeRef as String: "N",
                kCGImagePropertyGPSLongitude as String: 2.2945, kCGImagePropertyGPSLongitudeRef as String: "E",
                kCGImagePropertyGPSAltitude as String: 35.5,
            ]
        ]
        let before = Date()
        let photo = try take(settings, with: output)
        // The in-memory metadata, in Image I/O's dictionary format.
        XCTAssertEqual(photo.metadata[kCGImagePropertyOrientation as String] as? Int, 6, "a quarter turn clockwise to display")
        let exif = try XCTUnwrap(photo.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
        XCTAssertEqual(exif[kCGImagePropertyExifPixelXDimension as String] as? Int, 640)
        XCTAssertNotNil(exif[kCGImagePropertyExifExposureTime as String])
        XCTAssertNotNil(photo.metadata[kCGImagePropertyGPSDictionary as String], "the settings' metadata is merged in")
        XCTAssertFalse(session.isInterrupted)

        // The file, as exiftool reads it.
        let tags = try ImageTools.exif(of: try XCTUnwrap(photo.fileDataRepresentation()), fileExtension: "jpg")
        XCTAssertEqual(tags["Orientation"] as? Int, 6)
        XCTAssertEqual(tags["Make"] as? String, backCamera.manufacturer)
        XCTAssertEqual(tags["Model"] as? String, backCamera.localizedName)
        XCTAssertEqual(tags["ExifImageWidth"] as? Int, 640)
        XCTAssertEqual(tags["ExifImageHeight"] as? Int, 480)
        XCTAssertEqual(tags["ImageWidth"] as? Int, 640)
        let exposure = try XCTUnwrap(tags["ExposureTime"] as? Double)
        XCTAssertEqual(exposure, CMTimeGetSeconds(backCamera.exposureDuration), accuracy: exposure * 0.05)
        XCTAssertEqual(tags["ISO"] as? Int, Int(backCamera.iso.rounded()))
        XCTAssertEqual(try XCTUnwrap(tags["FNumber"] as? Double), Double(backCamera.lensAperture), accuracy: 0.01)
        XCTAssertEqual(tags["Flash"] as? Int, 0x10, "did not fire; flash mode off")
        XCTAssertNotNil(tags["FocalLengthIn35mmFormat"])
        XCTAssertNotNil(tags["LensModel"])
        let subseconds = try XCTUnwrap(tags["SubSecTimeOriginal"])
        XCTAssertEqual("\(subseconds)".count, 3, "milliseconds")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let taken = try XCTUnwrap(formatter.date(from: try XCTUnwrap(tags["DateTimeOriginal"] as? String)))
        XCTAssertEqual(taken.timeIntervalSince(before), 0, accuracy: 3, "the capture date is now")
        XCTAssertEqual(try XCTUnwrap(tags["GPSLatitude"] as? Double), 48.8584, accuracy: 0.0001)
        XCTAssertEqual(try XCTUnwrap(tags["GPSLongitude"] as? Double), 2.2945, accuracy: 0.0001)
        XCTAssertEqual(try XCTUnwrap(tags["GPSAltitude"] as? Double), 35.5, accuracy: 0.01)
    }

    func testAHEICPhotoIsWrittenByLibheifWithItsEXIF() throws {
        let (_, output) = try photoSession()
        XCTAssertEqual(output.availablePhotoCodecTypes, [.hevc, .jpeg], "Debian's libheif encodes HEVC through x265")
        XCTAssertEqual(output.availablePhotoFileTypes, [.heic, .jpg])
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        settings.photoQualityPrioritization = .speed
        let photo = try take(settings, with: output)
        let heic = try XCTUnwrap(photo.fileDataRepresentation())
        XCTAssertEqual(String(decoding: heic[4..<12], as: UTF8.self), "ftypheic")
        if ImageTools.hasHeifInfo {
            let info = try XCTUnwrap(try ImageTools.heifInfo(of: heic), "heif-info reads it")
            XCTAssertTrue(info.contains("640x480"), info)
            XCTAssertTrue(info.contains("Exif"), "the EXIF block is in the file: \(info)")
        }
        if ImageTools.hasExifTool {
            let tags = try ImageTools.exif(of: heic, fileExtension: "heic")
            XCTAssertEqual(tags["Make"] as? String, backCamera.manufacturer)
            XCTAssertEqual(tags["Orientation"] as? Int, 1)
            XCTAssertEqual(tags["ImageWidth"] as? Int, 640)
        }
    }

    /// The luma sampling factors of a JPEG's frame header: 0x11 for 4:4:4, 0x22 for 4:2:0.
    private func lumaSampling(_ jpeg: Data) -> UInt8? {
        let bytes = [UInt8](jpeg)
        var at = 2
        while at + 4 < bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1], length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if marker == 0xC0 || marker == 0xC1 || marker == 0xC2 { return at + 11 < bytes.count ? bytes[at + 11] : nil }
            at += 2 + length
        }
        return nil
    }

    func testDeferredDeliveryGivesAProxyAtOnceAndFastPrioritizationSpeedsShotsInQuickSuccession() throws {
        let (_, output) = try photoSession()
        XCTAssertTrue(output.isAutoDeferredPhotoDeliverySupported)
        XCTAssertFalse(output.isAutoDeferredPhotoDeliveryEnabled, "off by default")
        XCTAssertFalse(output.isFastCapturePrioritizationSupported, "only with responsive capture on")
        output.maxPhotoQualityPrioritization = .quality
        output.isAutoDeferredPhotoDeliveryEnabled = true
        // A capture at the quality prioritization: a proxy, not a photo, then the end of the capture.
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        settings.photoQualityPrioritization = .quality
        let processor = PhotoProcessor()
        let pendingBefore = DeferredPhotoProcessing.pending
        output.capturePhoto(with: settings, delegate: processor)
        XCTAssertTrue(waitUntil(timeout: 30) { processor.isFinished })
        XCTAssertEqual(
            processor.calls.values, ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishCapturingDeferredPhotoProxy", "didFinishCapture"])
        let proxy = try XCTUnwrap(processor.proxies.values.first)
        XCTAssertEqual(proxy.resolvedSettings.deferredPhotoProxyDimensions, CMVideoDimensions(width: 640, height: 480))
        let data = try XCTUnwrap(proxy.fileDataRepresentation())
        XCTAssertEqual(Array(data.prefix(2)), [0xFF, 0xD8], "the proxy is a JPEG to show at once")
        XCTAssertEqual(lumaSampling(data), 0x22, "made at the fastest settings (4:2:0)")
        XCTAssertEqual(proxy.cgImageRepresentation()?.width, 640)
        XCTAssertEqual(DeferredPhotoProcessing.pending, min(DeferredPhotoProcessing.capacity, pendingBefore + 1), "its pixels wait for the library")
        XCTAssertNotNil(DeferredPhotoProcessing.take(proxy: data), "the library can finish it")
        // A capture at another prioritization is not deferred.
        let quick = AVCapturePhotoSettings()
        quick.photoQualityPrioritization = .balanced
        XCTAssertEqual(try take(quick, with: output).resolvedSettings.deferredPhotoProxyDimensions, CMVideoDimensions())
        output.isAutoDeferredPhotoDeliveryEnabled = false

        // Fast capture prioritization: shots asked for while earlier ones wait are made at the speed prioritization.
        output.isResponsiveCaptureEnabled = true
        XCTAssertTrue(output.isFastCapturePrioritizationSupported)
        output.isFastCapturePrioritizationEnabled = true
        let burst = (0..<4).map { _ in PhotoProcessor() }
        for processor in burst {
            let settings = AVCapturePhotoSettings()
            settings.photoQualityPrioritization = .quality
            output.capturePhoto(with: settings, delegate: processor)
        }
        XCTAssertTrue(waitUntil(timeout: 30) { burst.allSatisfy(\.isFinished) })
        let samplings = burst.compactMap { $0.photos.values.first?.fileDataRepresentation().flatMap(lumaSampling) }
        XCTAssertEqual(samplings.count, 4)
        XCTAssertEqual(samplings.first, 0x11, "the first shot at the quality asked for (4:4:4)")
        XCTAssertTrue(samplings.dropFirst().contains(0x22), "a shot while others wait is made fast: \(samplings)")
        output.isResponsiveCaptureEnabled = false
        XCTAssertFalse(output.isFastCapturePrioritizationEnabled, "turned off with responsive capture")
    }

    func testThePhotoPresetTakesTheCamerasLargestPhotosWhileDataOutputsGetAPreviewSize() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .photo
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let photos = AVCapturePhotoOutput()
        session.addOutput(photos)
        let frames = AVCaptureVideoDataOutput()
        let sizes = Recorder<String>()
        let delegate = FrameSizeRecorder(sizes)
        frames.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "frames"))
        session.addOutput(frames)
        session.startRunning()
        XCTAssertTrue(waitUntil { !sizes.values.isEmpty && photos.maxPhotoDimensions.width > 0 })
        XCTAssertEqual(photos.maxPhotoDimensions, CMVideoDimensions(width: 3264, height: 2448))
        let photo = try take(AVCapturePhotoSettings(), with: photos)
        XCTAssertEqual(photo.resolvedSettings.photoDimensions, CMVideoDimensions(width: 3264, height: 2448))
        XCTAssertEqual(Set(sizes.values), ["852x640"], "the data output's frames are preview-sized")
        if ImageTools.hasExifTool {
            let tags = try ImageTools.exif(of: try XCTUnwrap(photo.fileDataRepresentation()), fileExtension: "jpg")
            XCTAssertEqual(tags["ImageWidth"] as? Int, 3264)
            XCTAssertEqual(tags["ImageHeight"] as? Int, 2448)
        }
    }

    func testPhotosTakenWhileRecordingHaveTheVideosSizeAndTheMovieLosesNoFrames() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .hd1280x720
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let movie = AVCaptureMovieFileOutput()
        let photos = AVCapturePhotoOutput()
        session.addOutput(movie)
        session.addOutput(photos)
        useManualClock()
        // Time waits for the encoder, as a machine fast enough for the camera would keep up with it.
        outputsCaughtUp = { movie.samplesWaitingToBeWritten == 0 }
        session.startRunning()
        XCTAssertTrue(advanceUntil { photos.maxPhotoDimensions.width > 0 })
        let url = makeScratchFolder().appendingPathComponent("while-recording.mov")
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        XCTAssertTrue(advanceUntil { log.calls.contains("start") })
        for _ in 0..<5 {
            pass(0.4)
            let photo = try take(AVCapturePhotoSettings(), with: photos)
            XCTAssertEqual(photo.resolvedSettings.photoDimensions, CMVideoDimensions(width: 1280, height: 720))
        }
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 20) { log.finished })
        let video = try XCTUnwrap(MediaProbe.probe(url)?.video)
        let frames = Double(try XCTUnwrap(video.frames)), duration = try XCTUnwrap(video.duration)
        XCTAssertGreaterThan(duration, 1.8)
        XCTAssertEqual(frames, (duration * 30).rounded(), accuracy: 1, "no video frame lost to the photos: \(frames) frames in \(duration) s")
    }

    func testALivePhotoIsTheStillAndAMovieFromBeforeToAfterItWithSound() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCapturePhotoOutput()
        XCTAssertFalse(output.isLivePhotoCaptureSupported, "not before it has a camera")
        session.addOutput(output)
        XCTAssertTrue(output.isLivePhotoCaptureSupported)
        output.isLivePhotoCaptureEnabled = true
        useManualClock()
        session.startRunning()
        pass(2)  // the ring fills with what comes before the still
        let folder = makeScratchFolder()
        var processors: [PhotoProcessor] = []
        var asked: [CMTime] = []
        for index in 0..<2 {
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = folder.appendingPathComponent("live-\(index).mov")
            let processor = PhotoProcessor()
            asked.append(manualClock.now)
            output.capturePhoto(with: settings, delegate: processor)
            processors.append(processor)
            pass(0.5)  // the second overlaps the first's movie
        }
        XCTAssertTrue(advanceUntil { processors.allSatisfy(\.isFinished) })
        for (index, processor) in processors.enumerated() {
            XCTAssertEqual(
                processor.calls.values,
                [
                    "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto",
                    "didFinishRecordingLivePhotoMovie", "didFinishProcessingLivePhotoToMovieFile", "didFinishCapture",
                ])
            XCTAssertTrue(processor.errors.values.isEmpty, "\(processor.errors.values)")
            let photo = try XCTUnwrap(processor.photos.values.first)
            XCTAssertEqual(photo.resolvedSettings.livePhotoMovieDimensions, CMVideoDimensions(width: 640, height: 480))
            XCTAssertLessThanOrEqual(photo.timestamp, asked[index], "the still is the frame current when asked")
            let (url, duration, displayTime) = try XCTUnwrap(processor.movies.values.first)
            XCTAssertEqual(duration.seconds, 3, accuracy: 1.5 / 30, "1.5 s before and after the still")
            XCTAssertEqual(displayTime.seconds, 1.5, accuracy: 1.5 / 30, "the still is in the middle")
            let probe = try XCTUnwrap(MediaProbe.probe(url))
            let video = try XCTUnwrap(probe.video)
            XCTAssertEqual(video.codec, "h264")
            XCTAssertEqual(video.width, 640)
            XCTAssertEqual(try XCTUnwrap(video.frames), 90, accuracy: 1, "every frame of three seconds at 30 fps")
            XCTAssertEqual(probe.audio?.codec, "aac", "the microphone's sound is in the movie")
            XCTAssertEqual(probe.duration, 3, accuracy: 0.25)
        }
    }

    func testSuspendingLivePhotoCaptureEndsTheMovieThere() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
        useManualClock()
        let (_, output) = try makePhotoSession()
        output.isLivePhotoCaptureEnabled = true
        pass(2)
        let settings = AVCapturePhotoSettings()
        settings.livePhotoMovieFileURL = makeScratchFolder().appendingPathComponent("suspended.mov")
        let processor = PhotoProcessor()
        output.capturePhoto(with: settings, delegate: processor)
        pass(0.4)
        output.isLivePhotoCaptureSuspended = true
        XCTAssertTrue(advanceUntil { processor.isFinished })
        output.isLivePhotoCaptureSuspended = false
        let (_, duration, displayTime) = try XCTUnwrap(processor.movies.values.first)
        XCTAssertEqual(displayTime.seconds, 1.5, accuracy: 0.15, "what came before the still is all there")
        XCTAssertEqual(duration.seconds, 1.9, accuracy: 1.5 / 30, "the movie ends where the suspension began, not 1.5 s after the still")
    }

    func testLivePhotoCaptureMustBeEnabledFirst() throws {
        let (_, output) = try photoSession()
        XCTAssertFalse(output.isLivePhotoCaptureEnabled)
        XCTAssertEqual(output.availableLivePhotoVideoCodecTypes, [.h264])
        output.isLivePhotoCaptureSuspended = true
        XCTAssertTrue(output.isLivePhotoCaptureSuspended)
    }

    func testTheVirtualBackCameraDeliversDepthThatLinesUpWithThePicture() throws {
        let (_, output) = try photoSession()
        XCTAssertTrue(output.isDepthDataDeliverySupported, "the virtual back camera's scene has a known geometry")
        output.isDepthDataDeliveryEnabled = true
        XCTAssertFalse(output.isPortraitEffectsMatteDeliverySupported)
        XCTAssertEqual(output.availableSemanticSegmentationMatteTypes, [])
        let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        settings.isDepthDataDeliveryEnabled = true
        let photo = try take(settings, with: output)
        let depth = try XCTUnwrap(photo.depthData)
        XCTAssertNil(depth.cameraCalibrationData)
        XCTAssertEqual(depth.depthDataType, kCVPixelFormatType_DepthFloat32)
        XCTAssertEqual(depth.depthDataAccuracy, .absolute)
        let map = depth.depthDataMap
        XCTAssertEqual(CVPixelBufferGetWidth(map), 640)
        XCTAssertEqual(CVPixelBufferGetHeight(map), 480)
        let pixels = try XCTUnwrap(photo.pixelBuffer)
        CVPixelBufferLockBaseAddress(map, .readOnly)
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        defer {
            CVPixelBufferUnlockBaseAddress(map, .readOnly)
            CVPixelBufferUnlockBaseAddress(pixels, .readOnly)
        }
        func distance(_ x: Int, _ y: Int) -> Float {
            CVPixelBufferGetBaseAddress(map)!.advanced(by: y * CVPixelBufferGetBytesPerRow(map)).assumingMemoryBound(to: Float.self)[x]
        }
        func colour(_ x: Int, _ y: Int) -> (blue: UInt8, green: UInt8, red: UInt8) {
            let p = CVPixelBufferGetBaseAddress(pixels)!.advanced(by: y * CVPixelBufferGetBytesPerRow(pixels) + x * 4).assumingMemoryBound(to: UInt8.self)
            return (p[0], p[1], p[2])
        }
        // The square hangs 0.6 m away in front of a wall 1 m away on the left and 3 m on the right:
        // where the map says 0.6 m, the photo shows the orange square (its edges softened by focus).
        var orange = (x0: 640, y0: 480, x1: 0, y1: 0), near = orange
        for y in 0..<480 {
            for x in 0..<640 {
                let d = distance(x, y)
                XCTAssertTrue(d == 0.6 || (d >= 1 && d <= 3), "\(d) m at \(x),\(y)")
                let c = colour(x, y)
                if c.red > 200 && c.green > 80 && c.green < 160 && c.blue < 60 {
                    orange = (min(orange.x0, x), min(orange.y0, y), max(orange.x1, x), max(orange.y1, y))
                }
                if d == 0.6 { near = (min(near.x0, x), min(near.y0, y), max(near.x1, x), max(near.y1, y)) }
            }
        }
        XCTAssertGreaterThan(near.x1 - near.x0, 100, "the square is in the map")
        XCTAssertGreaterThan(orange.x1 - orange.x0, 50, "and in the photo")
        XCTAssertEqual(Double(orange.x0 + orange.x1) / 2, Double(near.x0 + near.x1) / 2, accuracy: 8, "centred on the same place: \(orange) \(near)")
        XCTAssertEqual(Double(orange.y0 + orange.y1) / 2, Double(near.y0 + near.y1) / 2, accuracy: 8, "centred on the same place: \(orange) \(near)")
        XCTAssertTrue(orange.x0 >= near.x0 && orange.x1 <= near.x1 && orange.y0 >= near.y0 && orange.y1 <= near.y1, "the orange lies within the near region")
        XCTAssertLessThan(distance(2, 470), distance(637, 470), "the wall recedes to the right")
        // Depth converts to disparity, and turns with the photo.
        let disparity = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        let disparityMap = disparity.depthDataMap
        CVPixelBufferLockBaseAddress(disparityMap, .readOnly)
        let first = CVPixelBufferGetBaseAddress(disparityMap)!.assumingMemoryBound(to: Float.self)[0]
        CVPixelBufferUnlockBaseAddress(disparityMap, .readOnly)
        XCTAssertEqual(first, 1 / distance(0, 0), accuracy: 1e-5)
        let turned = depth.applyingExifOrientation(.right)
        XCTAssertEqual(CVPixelBufferGetWidth(turned.depthDataMap), 480)
        XCTAssertEqual(CVPixelBufferGetHeight(turned.depthDataMap), 640)
        XCTAssertEqual(depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat16).depthDataType, kCVPixelFormatType_DepthFloat16)
        // Core Image shows depth and disparity as grey, 0 black and 1 white, as in Apple's depth samples.
        let middle = ((near.x0 + near.x1) / 2, (near.y0 + near.y1) / 2)
        let context = CIContext()
        for (data, nearGrey, name) in [
            (depth, 153, "depth"), (depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat16), 153, "16-bit depth"), (disparity, 255, "disparity"),
        ] {
            let image = try XCTUnwrap(CIImage(depthData: data), name)
            XCTAssertEqual(image.extent, CGRect(x: 0, y: 0, width: 640, height: 480))
            let picture = try XCTUnwrap(context.createCGImage(image, from: image.extent), name)
            let bytes = try XCTUnwrap(picture.dataProvider?.data as Data?)
            let at = middle.1 * picture.bytesPerRow + middle.0 * 4
            XCTAssertEqual(Int(bytes[at + 1]), nearGrey, accuracy: 1, "\(name): the square 0.6 m away")
            XCTAssertEqual(bytes[at], bytes[at + 2], "\(name): grey")
        }
        XCTAssertNil(try take(AVCapturePhotoSettings(), with: output).depthData, "no depth unless asked for")

        // The device's depth formats, as portrait apps choose one: the photo's depth comes in its type.
        let camera = try XCTUnwrap(AVCaptureDevice(uniqueID: "virtual:camera:back"))
        let depthFormats = camera.activeFormat.supportedDepthDataFormats
        XCTAssertEqual(
            depthFormats.map { CMFormatDescriptionGetMediaSubType($0.formatDescription) },
            [kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16])
        XCTAssertTrue(depthFormats.allSatisfy { $0.mediaType == .depthData })
        XCTAssertTrue(
            depthFormats.allSatisfy { CMVideoFormatDescriptionGetDimensions($0.formatDescription).width <= 640 },
            "depth maps are smaller than pictures")
        XCTAssertEqual(camera.activeDepthDataFormat.map { CMFormatDescriptionGetMediaSubType($0.formatDescription) }, kCVPixelFormatType_DepthFloat32)
        try camera.lockForConfiguration()
        camera.activeDepthDataFormat = depthFormats[3]
        camera.unlockForConfiguration()
        defer {
            try? camera.lockForConfiguration()
            camera.activeDepthDataFormat = camera.activeFormat.supportedDepthDataFormats.first
            camera.unlockForConfiguration()
        }
        let again = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        again.isDepthDataDeliveryEnabled = true
        XCTAssertEqual(try XCTUnwrap(try take(again, with: output).depthData).depthDataType, kCVPixelFormatType_DisparityFloat16)
        let front = try XCTUnwrap(AVCaptureDevice(uniqueID: "virtual:camera:front"))
        XCTAssertEqual(front.activeFormat.supportedDepthDataFormats, [], "the front camera measures no depth")
        XCTAssertNil(front.activeDepthDataFormat)
    }

    func testOnlyTheVirtualBackCameraMeasuresDepth() throws {
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)!))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        XCTAssertFalse(output.isDepthDataDeliverySupported)
        XCTAssertFalse(output.isDepthDataDeliveryEnabled)
    }

    func testAPreviewFitsTheBoxTheSettingsGiveKeepingTheAspectRatio() throws {
        let (_, output) = try photoSession()
        XCTAssertEqual(backCamera.activeFormat.supportedMaxPhotoDimensions, [CMVideoDimensions(width: 640, height: 480)])
        let settings = AVCapturePhotoSettings()
        let previewFormat = try XCTUnwrap(settings.availablePreviewPhotoPixelFormatTypes.first)
        settings.previewPhotoFormat = [
            kCVPixelBufferPixelFormatTypeKey as String: previewFormat,
            kCVPixelBufferWidthKey as String: 160, kCVPixelBufferHeightKey as String: 160,
        ]
        let photo = try take(settings, with: output)
        XCTAssertEqual(photo.resolvedSettings.previewDimensions, CMVideoDimensions(width: 160, height: 120))
        let preview = try XCTUnwrap(photo.previewPixelBuffer)
        XCTAssertEqual(CVPixelBufferGetWidth(preview), 160)
        XCTAssertEqual(CVPixelBufferGetHeight(preview), 120)
        XCTAssertEqual(CVPixelBufferGetPixelFormatType(preview), kCVPixelFormatType_32BGRA)
        XCTAssertGreaterThan(PixelStatistics.measure(preview).0, 20, "the scene, scaled down")
        XCTAssertNil(try take(AVCapturePhotoSettings(), with: output).previewPixelBuffer, "no preview unless asked for")
    }

    func testPhotosAndPreviewsAsCoreGraphicsImages() throws {
        let (_, output) = try photoSession()
        let settings = AVCapturePhotoSettings()
        settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 160]
        let jpeg = try take(settings, with: output)
        let image = try XCTUnwrap(jpeg.cgImageRepresentation(), "the JPEG decoded")
        XCTAssertEqual([image.width, image.height], [640, 480])
        let preview = try XCTUnwrap(jpeg.previewCGImageRepresentation())
        XCTAssertEqual([preview.width, preview.height], [160, 120])
        let uncompressed = try take(AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]), with: output)
        let pixels = try XCTUnwrap(uncompressed.pixelBuffer)
        let same = try XCTUnwrap(uncompressed.cgImageRepresentation())
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(pixels, .readOnly) }
        let bytes = Data(bytes: CVPixelBufferGetBaseAddress(pixels)!, count: CVPixelBufferGetBytesPerRow(pixels) * CVPixelBufferGetHeight(pixels))
        XCTAssertEqual(same.dataProvider?.data as Data?, bytes, "an uncompressed photo's image is its pixels")
        XCTAssertNil(try take(AVCapturePhotoSettings(), with: output).previewCGImageRepresentation(), "no preview unless asked for")
        let heic = try take(AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]), with: output)
        let decoded = try XCTUnwrap(heic.cgImageRepresentation(), "the HEIC decoded")
        XCTAssertEqual([decoded.width, decoded.height], [640, 480])
        /// The mean of an image's colour bytes (its alpha left out).
        func mean(_ image: CGImage) throws -> Double {
            let data = try XCTUnwrap(image.dataProvider?.data)
            let colours = data.enumerated().filter { $0.offset % 4 != 3 }.map { Double($0.element) }
            return colours.reduce(0, +) / Double(colours.count)
        }
        XCTAssertEqual(try mean(decoded), try mean(image), accuracy: 12, "the same scene through HEVC as through JPEG")
    }

    func testAnEmbeddedThumbnailGoesIntoTheEXIFOfAJPEGAndIntoAHEIC() throws {
        try XCTSkipUnless(ImageTools.hasExifTool && ImageTools.hasHeifInfo, "exiftool and heif-info read the thumbnails")
        let (_, output) = try photoSession()
        let jpegSettings = AVCapturePhotoSettings()
        XCTAssertEqual(jpegSettings.availableEmbeddedThumbnailPhotoCodecTypes, [.jpeg])
        jpegSettings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160, AVVideoHeightKey: 160]
        let jpeg = try take(jpegSettings, with: output)
        XCTAssertEqual(jpeg.resolvedSettings.embeddedThumbnailDimensions, CMVideoDimensions(width: 160, height: 120))
        let tags = try ImageTools.exif(of: try XCTUnwrap(jpeg.fileDataRepresentation()), fileExtension: "jpg")
        XCTAssertGreaterThan(tags["ThumbnailLength"] as? Int ?? 0, 500, "a JPEG thumbnail in IFD1")
        XCTAssertEqual(tags["ImageWidth"] as? Int, 640, "and the photo is still the photo")

        let heicSettings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        XCTAssertEqual(heicSettings.availableEmbeddedThumbnailPhotoCodecTypes, [.hevc])
        heicSettings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.hevc]
        heicSettings.photoQualityPrioritization = .speed
        let heic = try take(heicSettings, with: output)
        XCTAssertEqual(heic.resolvedSettings.embeddedThumbnailDimensions, CMVideoDimensions(width: 320, height: 240))
        let info = try XCTUnwrap(try ImageTools.heifInfo(of: try XCTUnwrap(heic.fileDataRepresentation())))
        XCTAssertTrue(info.contains("thumbnail"), info)
    }

    func testTheFlashLightsADarkSceneAndEXIFSaysItFired() throws {
        useManualClock()
        let (_, output) = try photoSession()
        backCamera.virtualScene!.goDark()
        defer { backCamera.virtualScene!.lightsOn() }
        pass(0.5)
        func photo(flash: AVCaptureDevice.FlashMode) throws -> (luma: Double, metadata: [String: Any]) {
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            settings.flashMode = flash
            let photo = try take(settings, with: output)
            return (PixelStatistics.measure(try XCTUnwrap(photo.pixelBuffer)).0, photo.metadata)
        }
        let dark = try photo(flash: .off)
        let lit = try photo(flash: .on)
        XCTAssertGreaterThan(lit.luma, dark.luma + 60, "the flash lights the scene: \(dark.luma) without, \(lit.luma) with")
        let flashTag = (lit.metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])?[kCGImagePropertyExifFlash as String] as? Int
        XCTAssertEqual(flashTag.map { $0 & 1 }, 1, "EXIF's Flash says it fired")
        pass(0.2)
        let after = try photo(flash: .off)
        XCTAssertLessThan(after.luma, dark.luma + 20, "and goes out again")
    }
}

/// Records the size of each frame a video data output delivers.
final class FrameSizeRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let sizes: Recorder<String>
    init(_ sizes: Recorder<String>) { self.sizes = sizes }
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        sizes.append("\(CVPixelBufferGetWidth(pixels))x\(CVPixelBufferGetHeight(pixels))")
    }
}

extension CaptureTestCase {
    /// A running 640x480 session from the virtual back camera to a photo output that has had its first frame.
    func makePhotoSession() throws -> (AVCaptureSession, AVCapturePhotoOutput) {
        let session = AVCaptureSession()
        sessions.append(session)
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        let output = AVCapturePhotoOutput()
        XCTAssertTrue(session.canAddOutput(output))
        session.addOutput(output)
        session.startRunning()
        let ready = { output.maxPhotoDimensions.width > 0 }
        XCTAssertTrue(backCamera.virtualScene!.clock.isManuallyAdvanced ? advanceUntil(ready) : waitUntil(ready))
        return (session, output)
    }
}
