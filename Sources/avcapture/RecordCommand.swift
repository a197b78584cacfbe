import ArgumentParser
import AVFoundation
import Foundation
import VideoToolbox

/// `avcapture record`: records a movie from a camera and a microphone.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a QuickTime (.mov) or MPEG-4 (.mp4, .m4v) movie; Ctrl-C stops with a playable file.")

    @Argument(help: "The movie to write; it must not exist. With --library it may be left out.") var output: String?
    @Option(help: "How long to record, in seconds; without it, until Ctrl-C.", transform: DurationOption.positiveSeconds) var seconds: Double?
    @Option(help: "The largest the file may grow, in bytes.") var maxSize: Int64?
    @Option(help: "The unique ID of a camera (see `avcapture devices`); name several to record each to its own file, MOVIE-1.mov, MOVIE-2.mov, ...")
    var video: [String] = []
    @Option(help: "The unique ID of the microphone (recorded with the first camera).") var audio: String?
    @Flag(help: "Record no audio.") var noAudio = false
    @Flag(help: "Record the X11 screen $DISPLAY names (with the cursor) instead of a camera; --format's @FPS sets its rate.") var screen = false
    @Option(help: "A session preset, such as high, medium, 640x480, 1280x720.") var preset: String?
    @Option(help: "A format as WIDTHxHEIGHT@FPS, such as 1280x720@60.") var format: String?
    @Option(help: "The video codec: h264 or hevc.") var codec: String = "h264"
    @Flag(help: "Encode with the codec's fastest preset: more cameras on fewer cores, larger files for the same quality.") var fast = false
    @Option(help: "Seconds between fragments written while recording.", transform: DurationOption.positiveSeconds) var fragmentInterval: Double = 10
    @Option(help: "A title for the movie's metadata.") var title: String?
    @Option(help: "A location for the movie's metadata, in ISO 6709, such as +48.8584+002.2945/.") var location: String?
    @Flag(help: "Move the finished movie into the photo library (the Videos folder).") var library = false

    /// One camera's session and the movie it records.
    private struct Recorder {
        let session: AVCaptureSession
        let movie: AVCaptureMovieFileOutput
        let url: URL
        let progress = RecordingProgress()
    }

    func run() throws {
        guard output != nil || library else { throw CommandFailure("Name the movie to write, or pass --library to save it into the Videos folder.") }
        if screen, !video.isEmpty { throw CommandFailure("--screen records the screen instead of a camera: leave out --video.") }
        if let maxSize, maxSize <= 0 { throw CommandFailure("--max-size is a number of bytes, more than 0; got \(maxSize).") }
        let base =
            output.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avcapture-\(getpid())-\(Int(Date().timeIntervalSince1970)).mov")
        let cameras: [String?] = video.isEmpty ? [nil] : video
        let stem = base.deletingPathExtension().lastPathComponent, suffix = base.pathExtension.isEmpty ? "" : "." + base.pathExtension
        let urls = cameras.count == 1 ? [base] : cameras.indices.map { base.deletingLastPathComponent().appendingPathComponent("\(stem)-\($0 + 1)\(suffix)") }
        // Everything that can be refused is refused before a device starts.
        for url in urls { try RecordingRequest.checkDestination(url) }
        if let location { try RecordingRequest.checkLocation(location) }
        var recorders: [Recorder] = []
        for (index, camera) in cameras.enumerated() {
            recorders.append(try recorder(camera: camera, withAudio: index == 0 && !noAudio, to: urls[index]))
        }

        let movies = recorders.map(\.movie)
        let stopSignals = StopSignals.handle(on: .main) { for movie in movies { movie.stopRecording() } }
        defer { withExtendedLifetime(stopSignals) {} }

        for recorder in recorders {
            recorder.session.startRunning()
            guard recorder.session.isRunning else { throw CommandFailure("The session could not start.") }
        }
        for recorder in recorders { recorder.movie.startRecording(to: recorder.url, recordingDelegate: recorder.progress) }
        let start = Date()
        let interactive = isatty(STDOUT_FILENO) != 0
        while !recorders.allSatisfy(\.progress.isFinished) {
            RunLoop.main.run(until: Date().addingTimeInterval(0.5))
            guard recorders.contains(where: { $0.progress.hasStarted && !$0.progress.isFinished }) else { continue }
            let elapsed = recorders.map(\.movie.recordedDuration.seconds).filter(\.isFinite).max()
            let bytes = recorders.reduce(Int64(0)) { $0 + $1.movie.recordedFileSize }
            let line = String(
                format: "%7.1fs  %9.2f MB  %@", elapsed ?? Date().timeIntervalSince(start), Double(bytes) / 1_000_000,
                recorders.count == 1 ? "recording" : "recording \(recorders.count) cameras")
            if interactive {
                StandardStreams.out("\r\(line)")
            } else {
                // A line at a time, so a pipe or a log sees the progress as it is made.
                print(line)
                fflush(nil)
            }
        }
        for recorder in recorders { recorder.session.stopRunning() }
        if interactive { print("") }
        var failures: [String] = []
        for recorder in recorders {
            let url = recorder.url
            if let error = recorder.progress.error as? AVError, error.recordingSuccessfullyFinished != true {
                failures.append(recorders.count == 1 ? error.localizedDescription : "\(url.lastPathComponent): \(error.localizedDescription)")
                continue
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0
            var reason = ""
            if let error = recorder.progress.error as? AVError {
                reason =
                    " (\(error.code == .maximumDurationReached ? "duration limit" : error.code == .maximumFileSizeReached ? "size limit" : error.localizedDescription))"
            }
            var saved = url.path
            if library { saved = try Library.saveVideo(movingFileAt: url) }
            print(String(format: "Recorded %@: %.2f MB%@.", saved, Double(size) / 1_000_000, reason))
        }
        if !failures.isEmpty { throw CommandFailure("Recording failed: \(failures.joined(separator: "; "))") }
    }

    /// A session recording one camera (and the microphone, if asked) to `url`, configured but not started.
    private func recorder(camera: String?, withAudio: Bool, to url: URL) throws -> Recorder {
        let session = AVCaptureSession()
        session.beginConfiguration()
        if screen {
            try addScreen(to: session)
        } else {
            _ = try CameraChoice.addCamera(camera, preset: preset, format: format, to: session, preferring: FormatChoice.encoderPixelFormats)
        }
        if withAudio {
            if let audio {
                guard let microphone = AVCaptureDevice(uniqueID: audio), microphone.hasMediaType(.audio) else {
                    throw CommandFailure("No microphone \(audio) found; see `avcapture devices`.")
                }
                session.addInput(try AVCaptureDeviceInput(device: microphone))
            } else if let microphone = AVCaptureDevice.default(for: .audio) {
                session.addInput(try AVCaptureDeviceInput(device: microphone))
            }
        }
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        let codecType = AVVideoCodecType(rawValue: codec == "hevc" ? "hvc1" : codec == "h264" ? "avc1" : codec)
        guard movie.availableVideoCodecTypes.contains(codecType) else {
            if let problem = AVCaptureMovieFileOutput.encodingLibrariesProblem { throw CommandFailure("Cannot record: \(problem).") }
            throw CommandFailure("Cannot encode \(codec) here; available: \(movie.availableVideoCodecTypes.map(\.rawValue).joined(separator: ", ")).")
        }
        if let connection = movie.connection(with: .video) {
            var settings: [String: Any] = [AVVideoCodecKey: codecType]
            if fast { settings[AVVideoCompressionPropertiesKey] = [kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality as String: true] }
            movie.setOutputSettings(settings, for: connection)
        }
        movie.movieFragmentInterval = CMTime(seconds: fragmentInterval, preferredTimescale: 1000)
        if let maxSize { movie.maxRecordedFileSize = maxSize }
        if let seconds { movie.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 1000) }
        var items: [AVMetadataItem] = []
        if let title { items.append(Self.item(.commonKeyTitle, title)) }
        if let location { items.append(Self.item(.commonKeyLocation, location)) }
        items.append(Self.item(.commonKeySoftware, "avcapture"))
        // A UTC timestamp written with the C library: Foundation's formatters would load ICU's
        // calendar and time zone data for one date.
        items.append(Self.item(.commonKeyCreationDate, ISO8601Timestamp.string(from: Date())))
        movie.metadata = items
        session.commitConfiguration()
        return Recorder(session: session, movie: movie, url: url)
    }

    /// Adds the main display's screen input, at the rate `--format`'s @FPS names (30 by default).
    private func addScreen(to session: AVCaptureSession) throws {
        guard let input = AVCaptureScreenInput(displayID: CGMainDisplayID()) else {
            let display = ProcessInfo.processInfo.environment["DISPLAY"].map { "the X11 display \($0)" } ?? "an X11 display ($DISPLAY is not set)"
            throw CommandFailure("Cannot capture \(display): is an X server running there, with the MIT-SHM extension?")
        }
        var rate = 30.0
        if let format, let at = format.firstIndex(of: "@") {
            guard format[..<at].isEmpty || format[..<at].split(separator: "x", omittingEmptySubsequences: false).count == 2 else {
                throw CommandFailure("--format for the screen is @FPS or WIDTHxHEIGHT@FPS; got \(format).")
            }
            guard let fps = Double(format[format.index(after: at)...]), fps.isFinite, fps >= 1, fps <= 60 else {
                throw CommandFailure("--format's @FPS for the screen must be from 1 to 60.")
            }
            rate = fps
        }
        input.minFrameDuration = CMTime(seconds: 1 / rate, preferredTimescale: 600_000)
        guard session.canAddInput(input) else { throw CommandFailure("The screen cannot be added to the session.") }
        session.addInput(input)
    }

    static func item(_ key: AVMetadataKey, _ value: String) -> AVMetadataItem {
        let item = AVMutableMetadataItem()
        item.keySpace = .common
        item.key = key.rawValue as NSString
        item.value = value as NSString
        return item
    }
}

/// Follows a recording's delegate callbacks.
final class RecordingProgress: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let state = LockedValue<(started: Bool, finished: Bool, failure: Error?)>((false, false, nil))

    var hasStarted: Bool { state.withLock { $0.started } }
    var isFinished: Bool { state.withLock { $0.finished } }
    var error: Error? { state.withLock { $0.failure } }
    var summary: String { "recording" }

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        state.withLock { $0.started = true }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
        state.withLock {
            $0.finished = true; $0.failure = error
        }
    }
}
