import CaptureTestSupport
import XCTest
@testable import AVFoundation
import CaptureDevices
import TestSupport

/// The AV Foundation Programming Guide, "Saving to a Movie File" to "Adding Metadata to a File"; WWDC 2010 session 409's writing policy,
/// limits and early termination; WWDC 2013 session 610's high-frame-rate recording.
final class MovieFileOutputTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffprobe is needed: apt-get install ffmpeg")
    }

    private func recordingSession(preset: AVCaptureSession.Preset = .vga640x480, audio: Bool = true, camera: AVCaptureDevice? = nil)
        throws -> (AVCaptureSession, AVCaptureMovieFileOutput)
    {
        let session = AVCaptureSession()
        sessions.append(session)
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: camera ?? backCamera))
        if audio { session.addInput(try AVCaptureDeviceInput(device: microphone)) }
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        session.commitConfiguration()
        // The recording drops frames while its writer is behind, as on a camera; the tests' time waits for it.
        outputsCaughtUp = { movie.samplesWaitingToBeWritten == 0 }
        return (session, movie)
    }

    /// Starts a recording on the manual clock and moves the clock a frame at a time until the delegate hears it started.
    private func start(_ movie: AVCaptureMovieFileOutput, to url: URL, log: RecordingLog, frame: CMTime = CMTime(value: 1, timescale: 30)) {
        movie.startRecording(to: url, recordingDelegate: log)
        XCTAssertTrue(movie.isRecording)
        for _ in 0..<30 where !log.calls.contains("start") {
            manualClock.advance(by: frame)
            _ = waitUntil(timeout: 2) { log.calls.contains("start") || movie.recordedDuration > .zero }
        }
        XCTAssertTrue(waitUntil { log.calls.contains("start") })
    }

    /// Records `seconds` of the manual clock's time into `url`.
    private func record(
        _ movie: AVCaptureMovieFileOutput, to url: URL, for seconds: TimeInterval, frame: CMTime = CMTime(value: 1, timescale: 30),
        log: RecordingLog = RecordingLog()
    ) -> RecordingLog {
        start(movie, to: url, log: log, frame: frame)
        pass(seconds, frame: frame)
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 15) { log.finished })
        return log
    }

    func testARecordingIsAnOrdinaryH264AndAACMovieWithBothStreamsStartingTogether() throws {
        useManualClock()
        let (session, movie) = try recordingSession()
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("movie.mov")
        let log = record(movie, to: url, for: 2)
        XCTAssertEqual(log.calls, ["start", "finish"], "each delegate method once, in order")
        XCTAssertFalse(log.anyOnMainThread, "the delegate runs on the output's own queue")
        XCTAssertNil(log.error)
        XCTAssertFalse(movie.isRecording)
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertTrue(probe.formatName.contains("mov"))
        XCTAssertEqual(probe.video?.codec, "h264")
        XCTAssertEqual(probe.video?.width, 640)
        XCTAssertEqual(probe.video?.height, 480)
        XCTAssertEqual(probe.audio?.codec, "aac")
        XCTAssertEqual(probe.video?.frames, 60, "every frame of the two seconds the camera's clock passed")
        XCTAssertEqual(probe.duration, 2, accuracy: 0.05)
        // Audio and video come from one clock: their starts differ by less than a frame.
        XCTAssertLessThan(abs(probe.video!.startTime - probe.audio!.startTime), 1.0 / 30)
        let boxes = MediaProbe.topLevelBoxes(url)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "moov")), try XCTUnwrap(boxes.firstIndex(of: "mdat")), "fast start: the index comes first: \(boxes)")
        XCTAssertFalse(boxes.contains("moof"), "a finished recording is not fragmented")
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    func testMPEG4FilesAndHighFrameRateTiming() throws {
        useManualClock()
        let (session, movie) = try recordingSession(audio: false)
        let format = try XCTUnwrap(backCamera.formats.first { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
        try backCamera.lockForConfiguration()
        backCamera.activeFormat = format
        backCamera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 60)
        backCamera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 60)
        backCamera.unlockForConfiguration()
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("sixty.mp4")
        _ = record(movie, to: url, for: 2, frame: CMTime(value: 1, timescale: 60))
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertTrue(probe.formatName.contains("mp4"))
        XCTAssertEqual(probe.video?.width, 1280)
        XCTAssertEqual(probe.video?.frames, 120, "720p60 is recorded with its real timing")
        XCTAssertEqual(probe.duration, 2, accuracy: 1.5 / 60)
        XCTAssertNil(probe.audio)
    }

    func testAnExistingFileIsNeverOverwritten() throws {
        let (session, movie) = try recordingSession()
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("exists.mov")
        let original = Data("precious".utf8)
        try original.write(to: url)
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        XCTAssertTrue(waitUntil { log.finished })
        XCTAssertEqual(log.calls, ["finish"], "no recording started")
        XCTAssertEqual(log.error?.code, .fileAlreadyExists)
        XCTAssertEqual(log.error?.recordingSuccessfullyFinished, false)
        XCTAssertEqual(try Data(contentsOf: url), original, "the file is untouched")
        XCTAssertFalse(movie.isRecording)
    }

    func testAFolderThatCannotBeWrittenGivesAClearError() throws {
        let (session, movie) = try recordingSession()
        session.startRunning()
        let missing = makeScratchFolder().appendingPathComponent("no/such/folder/movie.mov")
        let log = RecordingLog()
        movie.startRecording(to: missing, recordingDelegate: log)
        XCTAssertTrue(waitUntil { log.finished })
        XCTAssertEqual(log.calls, ["finish"])
        let description = (log.error.map { $0 as NSError })?.localizedDescription ?? ""
        XCTAssertTrue(description.contains("cannot be written"), description)
        if getuid() == 0 {
            // Root writes anywhere a permission would stop others; a read-only mount stops root too.
            let folder = makeScratchFolder()
            guard TestMounts.mount(["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", folder.path]) else { return }
            defer { TestMounts.unmount(folder.path) }
            let readOnly = RecordingLog()
            movie.startRecording(to: folder.appendingPathComponent("movie.mov"), recordingDelegate: readOnly)
            XCTAssertTrue(waitUntil { readOnly.finished })
            XCTAssertEqual(readOnly.calls, ["finish"])
            XCTAssertTrue(
                ((readOnly.error.map { $0 as NSError })?.localizedDescription ?? "").contains("read-only file system"), "\(String(describing: readOnly.error))")
        }
    }

    func testMaximumDurationStopsTheRecordingWithAPlayableFile() throws {
        useManualClock()
        let (session, movie) = try recordingSession()
        movie.maxRecordedDuration = CMTime(value: 3, timescale: 2)
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("limited.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log)
        pass(2)
        XCTAssertTrue(waitUntil(timeout: 10) { log.finished }, "the recording stops by itself")
        XCTAssertEqual(log.calls, ["start", "finish"])
        XCTAssertEqual(log.error?.code, .maximumDurationReached)
        XCTAssertEqual((log.error! as NSError).userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool, true)
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertEqual(probe.duration, 1.5, accuracy: 1.0 / 30 + 0.01)
        XCTAssertEqual(probe.video?.frames, 45)
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    /// Sound lost just before the limit (an overrun of a busy machine's sound card, seen in the VM)
    /// left a file of sound alone 0.73 s long for a limit of 1 s: it lasts as long as its limit.
    func testARecordingOfSoundAloneLastsItsDurationLimitWhenSoundBeforeItWasLost() throws {
        useManualClock()
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        movie.maxRecordedDuration = CMTime(value: 1, timescale: 1)
        outputsCaughtUp = { movie.samplesWaitingToBeWritten == 0 }
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("sound.mov")
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        for _ in 0..<60 where !log.calls.contains("start") { passTime(1.0 / 30) }
        XCTAssertTrue(waitUntil { log.calls.contains("start") })
        passTime(0.5)
        let virtual = try XCTUnwrap(microphone.backend as? VirtualMicrophone)
        virtual.loseSound(seconds: 0.8)
        passTime(1.2)
        XCTAssertTrue(waitUntil(timeout: 10) { log.finished }, "the limit ends it")
        XCTAssertEqual(log.error?.code, .maximumDurationReached)
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertNil(probe.video)
        XCTAssertEqual(probe.duration, 1, accuracy: 0.05, "as long as the limit, silent where the sound was lost")
    }

    func testMaximumFileSizeStopsTheRecordingBelowTheLimit() throws {
        useManualClock()
        let (session, movie) = try recordingSession(preset: .hd1280x720)
        movie.maxRecordedFileSize = 400_000
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("small.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log)
        for _ in 0..<40 where !log.finished { pass(0.5) }
        XCTAssertTrue(waitUntil(timeout: 20) { log.finished })
        XCTAssertEqual(log.error?.code, .maximumFileSizeReached)
        XCTAssertEqual(log.error?.recordingSuccessfullyFinished, true)
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertLessThanOrEqual(probe.size, 400_000)
        XCTAssertGreaterThan(probe.size, 250_000, "the limit is used, not wasted")
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    func testTooLittleFreeSpaceStopsTheRecordingAsDiskFull() throws {
        useManualClock()
        let (session, movie) = try recordingSession()
        movie.minFreeDiskSpaceLimit = Int64.max / 2
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("nospace.mov")
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        for _ in 0..<10 where !log.finished { pass(0.5) }
        XCTAssertTrue(waitUntil(timeout: 10) { log.finished })
        XCTAssertEqual(log.error?.code, .diskFull)
        XCTAssertEqual(log.error?.recordingSuccessfullyFinished, true)
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    func testADiskThatFillsUpEndsTheRecordingWithTheFileReadable() throws {
        useManualClock()
        try XCTSkipUnless(getuid() == 0, "filling a small tmpfs needs root to mount it")
        let folder = makeScratchFolder()
        try XCTSkipUnless(TestMounts.mount(["-t", "tmpfs", "-o", "size=600k", "tmpfs", folder.path]), "mount failed")
        defer { TestMounts.unmount(folder.path) }
        let (session, movie) = try recordingSession(preset: .hd1280x720)
        movie.movieFragmentInterval = CMTime(value: 1, timescale: 2)
        session.startRunning()
        backCamera.virtualScene!.moveSubject()
        let url = folder.appendingPathComponent("full.mov")
        let log = RecordingLog()
        movie.startRecording(to: url, recordingDelegate: log)
        for _ in 0..<60 where !log.finished { pass(0.5) }
        XCTAssertTrue(waitUntil(timeout: 30) { log.finished }, "the recording ends when the disk is full")
        XCTAssertEqual(log.error?.code, .diskFull, "\(String(describing: log.error))")
        XCTAssertEqual(log.error?.recordingSuccessfullyFinished, true, "fragments written before the disk filled are kept")
        let probe = try XCTUnwrap(MediaProbe.probe(url), "the file is readable")
        XCTAssertGreaterThan(probe.duration, 0.4)
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
        XCTAssertTrue(session.isRunning, "the session keeps running")
    }

    /// The muxer keeps a fragment's samples in memory until the fragment is cut, so a recording at
    /// the default 10 s interval cuts one early once its samples reach a bound: what is not yet in the
    /// file stays under the bound and a keyframe interval's worth or two, whatever the bit rate.
    func testARecordingKeepsNoMoreThanABoundOfItsSamplesOutOfTheFile() throws {
        useManualClock()
        let (session, movie) = try recordingSession(preset: .hd1280x720, audio: false)
        XCTAssertEqual(movie.movieFragmentInterval, CMTime(value: 10, timescale: 1))
        // A picture of noise: each keyframe takes many bits, as a detailed scene does.
        var noise: CVPixelBuffer?
        XCTAssertEqual(CVPixelBufferCreate(nil, 1280, 720, kCVPixelFormatType_32BGRA, nil, &noise), kCVReturnSuccess)
        CVPixelBufferLockBaseAddress(noise!, [])
        let base = CVPixelBufferGetBaseAddress(noise!)!.assumingMemoryBound(to: UInt32.self)
        var state: UInt32 = 12345
        for index in 0..<(CVPixelBufferGetBytesPerRow(noise!) / 4 * 720) {
            state = state &* 1_664_525 &+ 1_013_904_223
            base[index] = state | 0xFF00_0000
        }
        CVPixelBufferUnlockBaseAddress(noise!, [])
        backCamera.virtualScene!.showImage(noise)
        defer { backCamera.virtualScene!.showGeneratedScene() }
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("bounded.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log)
        let seconds = 6.0
        pass(seconds)
        // Every frame the clock passed is muxed; the file holds what the fragments cut so far.
        let muxed = movie.recordedFileSize
        let onDisk = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64)
        let bound = Recording.maximumFragmentBytes
        XCTAssertGreaterThan(muxed, 2 * bound, "the recording gathers more than the bound between two intervals")
        // A cut waits for the next keyframe (a second apart), and the frame that reaches the bound may be one.
        let aKeyframeInterval = Int64(Double(muxed) / seconds)
        XCTAssertGreaterThanOrEqual(onDisk, muxed - bound - 2 * aKeyframeInterval, "at most the bound and a keyframe interval or two wait in memory")
        XCTAssertGreaterThanOrEqual(MediaProbe.topLevelBoxes(url).filter { $0 == "moof" }.count, 3, "fragments before the interval")
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 15) { log.finished })
        XCTAssertNil(log.error)
        XCTAssertFalse(MediaProbe.topLevelBoxes(url).contains("moof"), "the finished movie is an ordinary one still")
        XCTAssertEqual(try XCTUnwrap(MediaProbe.probe(url)).video?.frames, Int(seconds * 30))
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    func testADeviceThatDisconnectsEndsTheRecordingWithAPlayableFile() throws {
        useManualClock()
        let (session, movie) = try recordingSession()
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("unplugged.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log)
        pass(1)
        backCamera.virtualScene!.disconnect()
        XCTAssertTrue(waitUntil(timeout: 10) { log.finished })
        XCTAssertEqual(log.error?.code, .deviceWasDisconnected)
        XCTAssertEqual(log.error?.recordingSuccessfullyFinished, true)
        XCTAssertEqual(try XCTUnwrap(MediaProbe.probe(url)).duration, 1, accuracy: 0.05)
        XCTAssertTrue(MediaProbe.decodesCleanly(url))
    }

    /// The camera swapped in one configuration right after `startRecording`: the writer thread
    /// reads the recording's connection while the old input is gone (this aborted every run).
    func testSwappingTheCameraRightAfterStartingARecordingKeepsTheProcessAndTheFile() throws {
        useManualClock()
        let (session, movie) = try recordingSession(audio: false)
        session.startRunning()
        let folder = makeScratchFolder()
        for round in 0..<3 {
            let url = folder.appendingPathComponent("swapped-\(round).mov")
            let log = RecordingLog()
            movie.startRecording(to: url, recordingDelegate: log)
            try swapCamera(of: session)
            pass(1, camera: (session.inputs.first as? AVCaptureDeviceInput)?.device)
            if movie.isRecording { movie.stopRecording() }
            XCTAssertTrue(waitUntil(timeout: 15) { log.finished }, "round \(round)")
            if FileManager.default.fileExists(atPath: url.path) {
                XCTAssertTrue(MediaProbe.decodesCleanly(url), "round \(round): a file left is playable")
            }
        }
        XCTAssertTrue(session.isRunning)
    }

    /// Swaps the session's camera for the other in one configuration; the old input is released
    /// when this returns, as an app that keeps no reference to it releases it.
    private func swapCamera(of session: AVCaptureSession) throws {
        session.beginConfiguration()
        let old = try XCTUnwrap(session.inputs.first as? AVCaptureDeviceInput)
        let next = old.device == backCamera ? frontCamera : backCamera
        session.removeInput(old)
        session.addInput(try AVCaptureDeviceInput(device: next))
        session.commitConfiguration()
    }

    func testAnInterruptionOrAStoppedSessionEndsTheRecording() throws {
        useManualClock()
        let (session, movie) = try recordingSession()
        session.startRunning()
        let folder = makeScratchFolder()
        let interrupted = RecordingLog()
        start(movie, to: folder.appendingPathComponent("interrupted.mov"), log: interrupted)
        pass(0.5)
        backCamera.virtualScene!.interrupt()
        XCTAssertTrue(waitUntil(timeout: 10) { interrupted.finished })
        XCTAssertEqual(interrupted.error?.code, .sessionWasInterrupted)
        XCTAssertEqual(interrupted.error?.recordingSuccessfullyFinished, true)
        backCamera.virtualScene!.endInterruption()

        let stopped = RecordingLog()
        start(movie, to: folder.appendingPathComponent("stopped.mov"), log: stopped)
        pass(0.5)
        session.stopRunning()
        XCTAssertTrue(waitUntil(timeout: 10) { stopped.finished })
        XCTAssertEqual(stopped.error?.code, .sessionNotRunning)
        XCTAssertEqual(stopped.error?.recordingSuccessfullyFinished, true)
        for name in ["interrupted.mov", "stopped.mov"] { XCTAssertTrue(MediaProbe.decodesCleanly(folder.appendingPathComponent(name)), name) }
    }

    func testPausingLeavesNoGap() throws {
        useManualClock()
        let (session, movie) = try recordingSession(audio: false)
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("paused.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log)
        pass(1)
        movie.pauseRecording()
        XCTAssertTrue(movie.isRecordingPaused)
        pass(1)
        movie.resumeRecording()
        pass(1)
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 10) { log.finished })
        XCTAssertEqual(log.calls, ["start", "pause", "resume", "finish"])
        let probe = try XCTUnwrap(MediaProbe.probe(url))
        XCTAssertEqual(probe.duration, 2, accuracy: 1.5 / 30, "the paused second is not in the movie")
        XCTAssertEqual(probe.video?.frames, 60, "no gap: frames are evenly spaced")
    }

    func testMetadataSetDuringRecordingLandsInTheFile() throws {
        useManualClock()
        // WWDC 2010 session 409: "at any time while it's recording, you can update the metadata array".
        let (session, movie) = try recordingSession()
        let title = AVMutableMetadataItem()
        title.identifier = .commonIdentifierTitle
        title.value = "A walk" as NSString
        let created = AVMutableMetadataItem()
        created.identifier = .commonIdentifierCreationDate
        created.value = Date(timeIntervalSince1970: 1_764_571_920) as NSDate
        movie.metadata = [title, created]
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("tagged.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log)
        pass(0.5)
        let location = AVMutableMetadataItem()
        location.keySpace = .common
        location.key = AVMetadataKey.commonKeyLocation.rawValue as NSString
        location.value = String(format: "%+08.4lf%+09.4lf/", 48.8584, 2.2945) as NSString
        movie.metadata = (movie.metadata ?? []) + [location]
        pass(0.5)
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 10) { log.finished })
        let tags = try XCTUnwrap(MediaProbe.probe(url)).tags
        XCTAssertEqual(tags["com.apple.quicktime.title"], "A walk")
        XCTAssertEqual(tags["com.apple.quicktime.location.ISO6709"], "+48.8584+002.2945/", "location in ISO 6709, set while recording")
        XCTAssertEqual(tags["com.apple.quicktime.creationdate"], "2025-12-01T06:52:00Z", "the creation date in ISO 8601")
        XCTAssertTrue(tags["creation_time"]?.hasPrefix("2025-12-01T06:52:00") == true, "and as the movie's creation time: \(tags)")
    }

    func testOrientationIsWrittenAsRotationNotPixels() throws {
        useManualClock()
        let (session, movie) = try recordingSession(audio: false)
        let connection = try XCTUnwrap(movie.connection(with: .video))
        XCTAssertTrue(connection.isVideoOrientationSupported)
        connection.videoOrientation = .portrait
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("portrait.mov")
        _ = record(movie, to: url, for: 0.5)
        let video = try XCTUnwrap(MediaProbe.probe(url)?.video)
        XCTAssertEqual(video.width, 640, "pixels stay landscape")
        XCTAssertEqual(video.height, 480)
        XCTAssertEqual(video.rotation, -90, "portrait is a quarter turn clockwise on display")
        // Current SDKs spell it as an angle: 270 degrees clockwise is the other portrait.
        connection.videoRotationAngle = 270
        XCTAssertEqual(connection.videoOrientation, .portraitUpsideDown)
        let upsideDown = makeScratchFolder().appendingPathComponent("upside-down.mov")
        _ = record(movie, to: upsideDown, for: 0.5)
        let turned = try XCTUnwrap(MediaProbe.probe(upsideDown)?.video)
        XCTAssertEqual(turned.width, 640, "pixels stay landscape")
        XCTAssertEqual(turned.rotation, 90)
    }

    func testVideoDataOutputKeepsReceivingFramesWhileRecording() throws {
        useManualClock()
        let (session, movie) = try recordingSession(audio: false)
        let collector = FrameCollector()
        let frames = AVCaptureVideoDataOutput()
        frames.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(frames)
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("both.mov")
        let before = collector.frames.count
        _ = record(movie, to: url, for: 1)
        XCTAssertGreaterThan(collector.frames.count - before, 25)
        XCTAssertGreaterThan(try XCTUnwrap(MediaProbe.probe(url)?.video?.frames), 25)
    }

    func testAvailableCodecsTellTheTruthAndHEVCRecordsWhereAvailable() throws {
        useManualClock()
        let movie = AVCaptureMovieFileOutput()
        XCTAssertTrue(movie.availableVideoCodecTypes.contains(.h264))
        let hasX265 =
            FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libx265.so.199")
            || (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/x86_64-linux-gnu").contains { $0.hasPrefix("libx265.so") }) == true
        XCTAssertEqual(movie.availableVideoCodecTypes.contains(.hevc), hasX265)
        guard movie.availableVideoCodecTypes.contains(.hevc) else { return }
        let (session, recorder) = try recordingSession(preset: .cif352x288, audio: false)
        recorder.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.hevc], for: recorder.connection(with: .video)!)
        XCTAssertEqual(recorder.outputSettings(for: recorder.connection(with: .video)!)[AVVideoCodecKey] as? String, "hvc1")
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("hevc.mov")
        _ = record(recorder, to: url, for: 0.5)
        XCTAssertEqual(MediaProbe.probe(url)?.video?.codec, "hevc")
    }

    /// The x264 option string the encoder writes into the stream, which names its preset's choices.
    private func encoderOptions(_ url: URL) throws -> String {
        let data = try Data(contentsOf: url)
        guard let start = data.range(of: Data("options: ".utf8)) else { return "" }
        return String(decoding: data[start.upperBound..<min(data.endIndex, start.upperBound + 600)], as: UTF8.self)
    }

    func testSpeedBeforeQualityRecordsWithTheFastestPreset() throws {
        useManualClock()
        let (session, movie) = try recordingSession(preset: .cif352x288, audio: false)
        let connection = try XCTUnwrap(movie.connection(with: .video))
        session.startRunning()
        let standard = makeScratchFolder().appendingPathComponent("standard.mov")
        _ = record(movie, to: standard, for: 0.3)
        XCTAssertTrue(try encoderOptions(standard).contains(" subme=2 "), "veryfast by default")

        movie.setOutputSettings(
            [
                AVVideoCodecKey: AVVideoCodecType.h264,
                AVVideoCompressionPropertiesKey: ["PrioritizeEncodingSpeedOverQuality": true, AVVideoAverageBitRateKey: 400_000],
            ],
            for: connection)
        let compression = try XCTUnwrap(movie.outputSettings(for: connection)[AVVideoCompressionPropertiesKey] as? [String: Any])
        XCTAssertEqual(attributeBool(compression["PrioritizeEncodingSpeedOverQuality"]), true)
        XCTAssertEqual(attributeInt(compression[AVVideoAverageBitRateKey]), 400_000, "the bit rate asked for is the one reported")
        let fast = makeScratchFolder().appendingPathComponent("fast.mov")
        _ = record(movie, to: fast, for: 0.3)
        let options = try encoderOptions(fast)
        XCTAssertTrue(options.contains(" subme=0 ") && options.contains("cabac=0"), "ultrafast: \(options.prefix(80))")
        XCTAssertTrue(options.contains("bitrate=400 "), "the bit rate asked for is the one encoded: \(options.prefix(400))")

        movie.setOutputSettings(nil, for: connection)
        XCTAssertNil((movie.outputSettings(for: connection)[AVVideoCompressionPropertiesKey] as? [String: Any])?["PrioritizeEncodingSpeedOverQuality"])
    }

    func testARecordingStoppedBeforeItsFirstFrameLeavesNoFileAndSaysNoDataWasCaptured() throws {
        useManualClock()
        // At one frame a second, the file opens with the first frame and the recording's first
        // frame is the next one, a second later: stopping in between records nothing.
        let (session, movie) = try recordingSession(audio: false)
        try backCamera.lockForConfiguration()
        backCamera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 1)
        backCamera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 1)
        backCamera.unlockForConfiguration()
        session.startRunning()
        let url = makeScratchFolder().appendingPathComponent("empty.mov")
        let log = RecordingLog()
        start(movie, to: url, log: log, frame: CMTime(value: 1, timescale: 1))
        XCTAssertEqual(movie.recordedDuration, .zero, "the file opens with the first frame, which is not recorded")
        movie.stopRecording()
        XCTAssertTrue(waitUntil(timeout: 5) { log.finished })
        XCTAssertEqual(log.error?.code, .noDataCaptured)
        XCTAssertEqual((log.error! as NSError).userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool, false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "no empty movie is left behind")
    }

    func testOutputSettingsFollowTheActiveFormat() throws {
        let (_, movie) = try recordingSession(preset: .hd1280x720)
        let settings = movie.outputSettings(for: try XCTUnwrap(movie.connection(with: .video)))
        XCTAssertEqual(settings[AVVideoCodecKey] as? String, AVVideoCodecType.h264.rawValue)
        XCTAssertEqual(attributeInt(settings[AVVideoWidthKey]), 1280)
        let compression = try XCTUnwrap(settings[AVVideoCompressionPropertiesKey] as? [String: Any])
        XCTAssertEqual(
            Double(attributeInt(compression[AVVideoAverageBitRateKey]) ?? 0), 10_500_000, accuracy: 100_000, "WWDC 2010 session 409: 720p at 10.5 Mbit/s")
        let audio = movie.outputSettings(for: try XCTUnwrap(movie.connection(with: .audio)))
        XCTAssertEqual(attributeInt(audio[AVFormatIDKey]).map { UInt32($0) }, kAudioFormatMPEG4AAC)
    }
}
