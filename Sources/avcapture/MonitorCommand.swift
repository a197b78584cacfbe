import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture monitor`: runs a session with video and audio data outputs and prints a live line.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Capture video and audio and print frame rate, drops and audio level as they happen.")

    @Option(help: "How long to capture, in seconds.", transform: DurationOption.positiveSeconds) var seconds: Double = 5
    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var device: String?
    @Option(help: "The unique ID of the microphone.") var audioDevice: String?
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@60.") var format: String?
    @Option(help: "A session preset, such as high, medium, 640x480, 1280x720.") var preset: String?
    @Option(help: "The pixel format to deliver: 420v, 420f, BGRA, 2vuy or yuvs.") var pixelFormat: String?
    @Flag(help: "Capture no audio.") var noAudio = false
    @Option(help: "Time the delegate spends on each frame, in milliseconds, to see drops.") var work: Double = 0
    @Option(help: "Write the last frame to this file as a binary PPM image.") var saveFrame: String?

    func validate() throws {
        guard work.isFinite, (0...10_000).contains(work) else { throw ValidationError("--work is 0 to 10000 milliseconds, not \(work).") }
    }

    func run() throws {
        if let saveFrame { try RecordingRequest.checkNewFile(URL(fileURLWithPath: saveFrame)) }
        let session = AVCaptureSession()
        let stats = MonitorStatistics(workMilliseconds: work, keepsLastFrame: saveFrame != nil)
        session.beginConfiguration()
        let video = AVCaptureVideoDataOutput()
        var wanted: OSType?
        if let pixelFormat {
            guard let code = FormatChoice.pixelFormats[pixelFormat], video.availableVideoPixelFormatTypes.contains(code) else {
                throw CommandFailure("Unsupported pixel format \(pixelFormat); use one of \(FormatChoice.pixelFormats.keys.sorted().joined(separator: ", ")).")
            }
            wanted = code
        }
        let camera = try CameraChoice.addCamera(device, preset: preset, format: format, to: session, preferring: wanted.map { [$0] } ?? [])
        if let wanted { video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: wanted] }
        video.setSampleBufferDelegate(stats, queue: DispatchQueue(label: "avcapture.video"))
        session.addOutput(video)
        let audio = AVCaptureAudioDataOutput()
        if !noAudio, let microphone = audioDevice.map({ AVCaptureDevice(uniqueID: $0) }) ?? AVCaptureDevice.default(for: .audio) {
            let microphoneInput = try AVCaptureDeviceInput(device: microphone)
            session.addInput(microphoneInput)
            audio.setSampleBufferDelegate(stats, queue: DispatchQueue(label: "avcapture.audio"))
            session.addOutput(audio)
        }
        session.commitConfiguration()

        let failure = LockedFlag()
        let observer = NotificationCenter.default.addObserver(forName: .AVCaptureSessionRuntimeError, object: session, queue: nil) { note in
            let error = note.userInfo?[AVCaptureSessionErrorKey] as? AVError
            failure.set("runtime error: \(error?.localizedDescription ?? "unknown")")
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let dims = video.videoSettings?[kCVPixelBufferWidthKey as String].map { "\($0)x\(video.videoSettings![kCVPixelBufferHeightKey as String]!)" } ?? "?"
        let cameraFormat = camera.activeFormat.formatDescription
        print(
            "Capturing from \(camera.localizedName) at \(dims), \(String(format: "%.2f", 1 / camera.activeVideoMinFrameDuration.seconds)) fps for \(seconds) s"
                + " (the camera's format: '\(cameraFormat.mediaSubType.rawValue.fourCharacterString)' \(cameraFormat.dimensions.width)x\(cameraFormat.dimensions.height)); Ctrl-C to stop."
        )
        session.startRunning()
        let start = Date()
        var last = stats.snapshot()
        let interactive = isatty(STDOUT_FILENO) != 0
        while Date().timeIntervalSince(start) < seconds, failure.message == nil {
            RunLoop.main.run(until: Date().addingTimeInterval(0.5))
            let now = stats.snapshot()
            let channel = audio.connections.first?.audioChannels.first
            let line = now.line(since: last, elapsed: Date().timeIntervalSince(start), average: channel?.averagePowerLevel, peak: channel?.peakHoldLevel)
            if interactive { StandardStreams.out("\r\(line)") } else { print(line) }
            last = now
        }
        session.stopRunning()
        if interactive { print("") }
        let total = stats.snapshot()
        print(
            String(
                format: "Done: %d frames in %.2f s (%.2f fps), dropped %d late, %d out of buffers; %d audio buffers.",
                total.frames, Date().timeIntervalSince(start), Double(total.frames) / max(0.001, Date().timeIntervalSince(start)),
                total.late, total.outOfBuffers, total.audioBuffers))
        if let saveFrame, let frame = stats.lastFrame {
            try FrameFile.writePPM(frame, to: saveFrame)
            print("Saved the last frame to \(saveFrame).")
        }
        if let message = failure.message { throw CommandFailure(message) }
    }
}

/// Counts what the outputs deliver.
final class MonitorStatistics: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Snapshot {
        var frames = 0, late = 0, outOfBuffers = 0, audioBuffers = 0
        func line(since last: Snapshot, elapsed: Double, average: Float?, peak: Float?) -> String {
            let fps = Double(frames - last.frames) / 0.5
            var text = String(format: "%7.1fs  video %6.2f fps  frames %6d  dropped late %4d  out-of-buffers %4d", elapsed, fps, frames, late, outOfBuffers)
            if let average, let peak {
                let bars = max(0, min(30, Int((Double(average) + 60) / 2)))
                text += String(
                    format: "  audio %6.1f dBFS peak %6.1f [%@%@]", average, peak,
                    String(repeating: "#", count: bars), String(repeating: " ", count: 30 - bars))
            }
            return text
        }
    }
    private let counts = LockedValue(Snapshot())
    private let work: Double
    private let keepsLastFrame: Bool
    private let last = LockedValue<CVPixelBuffer?>(nil)

    init(workMilliseconds: Double, keepsLastFrame: Bool) {
        work = workMilliseconds
        self.keepsLastFrame = keepsLastFrame
    }

    /// A copy of the last frame, in BGRA, if asked to keep it.
    var lastFrame: CVPixelBuffer? { last.withLock { $0 } }

    func snapshot() -> Snapshot { counts.withLock { $0 } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        counts.withLock { counts in
            if output is AVCaptureVideoDataOutput { counts.frames += 1 } else { counts.audioBuffers += 1 }
        }
        if keepsLastFrame, output is AVCaptureVideoDataOutput, let image = sampleBuffer.imageBuffer, let copy = FrameFile.copyAsBGRA(image) {
            last.withLock { $0 = copy }
        }
        if work > 0, output is AVCaptureVideoDataOutput { usleep(UInt32(work * 1000)) }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String
        counts.withLock { counts in
            if reason == kCMSampleBufferDroppedFrameReason_OutOfBuffers as String {
                counts.outOfBuffers += sampleBuffer.numSamples
            } else {
                counts.late += sampleBuffer.numSamples
            }
        }
    }
}

/// A message set from any thread.
final class LockedFlag: @unchecked Sendable {
    private let value = LockedValue<String?>(nil)
    var message: String? { value.withLock { $0 } }
    func set(_ message: String) { value.withLock { $0 = message } }
}

/// Parsing `WIDTHxHEIGHT@FPS` and pixel format names.
enum FormatChoice {
    static let pixelFormats: [String: OSType] = [
        "420v": kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, "420f": kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        "BGRA": kCVPixelFormatType_32BGRA, "bgra": kCVPixelFormatType_32BGRA,
        "2vuy": kCVPixelFormatType_422YpCbCr8, "uyvy": kCVPixelFormatType_422YpCbCr8,
        "yuvs": kCVPixelFormatType_422YpCbCr8_yuvs, "yuyv": kCVPixelFormatType_422YpCbCr8_yuvs,
    ]

    /// The pixel formats the encoders take as they are, then the packed 4:2:2 ones they take for a
    /// plane shuffle: recording, streaming and the live view's JPEG prefer them, in that order.
    static let encoderPixelFormats: [OSType] = [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_422YpCbCr8_yuvs,
    ]

    /// Makes the device's format the one `text` (`WIDTHxHEIGHT` or `WIDTHxHEIGHT@FPS`) names.
    /// Among the formats of that size and rate, the first whose pixel format comes earliest in
    /// `preferred` wins, so that a camera that offers what the command needs is not made to
    /// convert; the device's own order decides the rest.
    static func apply(_ text: String, to device: AVCaptureDevice, preferring preferred: [OSType] = []) throws {
        // Empty parts are kept, so that `640x480@` and `x480` are refused rather than read as something else.
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "@" })
        let dimensions = parts.prefix(2).compactMap { Int32($0) }
        let rate = parts.count > 2 ? Double(parts[2]) : nil
        guard parts.count == 2 || parts.count == 3, dimensions.count == 2, dimensions.allSatisfy({ (1...16384).contains($0) }),
            parts.count == 2 || rate.map({ $0.isFinite && $0 > 0 && $0 <= 1000 }) == true
        else {
            throw CommandFailure("A format is WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, such as 1280x720@60; got \(text).")
        }
        let (width, height) = (dimensions[0], dimensions[1])
        let candidates = device.formats.filter {
            $0.formatDescription.dimensions.width == width && $0.formatDescription.dimensions.height == height
                && (rate == nil || $0.videoSupportedFrameRateRanges.contains { $0.minFrameRate <= rate! && rate! <= $0.maxFrameRate })
        }
        let rank = { (format: AVCaptureDevice.Format) in preferred.firstIndex(of: format.formatDescription.mediaSubType.rawValue) ?? preferred.count }
        guard let format = candidates.enumerated().min(by: { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) })?.element else {
            throw CommandFailure("\(device.localizedName) has no \(text) format; see `avcapture devices`.")
        }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        device.activeFormat = format
        if let rate {
            let duration = CMTime(value: 1000, timescale: Int32((rate * 1000).rounded()))
            device.activeVideoMinFrameDuration = duration
            device.activeVideoMaxFrameDuration = duration
        }
    }
}
