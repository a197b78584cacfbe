import CaptureDevices
import Foundation
import MovieEngine
import Synchronization

/// Methods a file output calls as a recording starts, pauses, resumes and finishes.
public protocol AVCaptureFileOutputRecordingDelegate: NSObjectProtocol {
    /// The recording started: the file exists and holds its first frame.
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    /// The recording paused.
    func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    /// The recording resumed.
    func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    /// The recording will finish; no more samples will be written.
    func fileOutput(_ output: AVCaptureFileOutput, willFinishRecordingTo fileURL: URL, from connections: [AVCaptureConnection], error: Error?)
    /// The recording finished. Check the error's `AVErrorRecordingSuccessfullyFinishedKey`: a file may be complete despite an error.
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?)
}

extension AVCaptureFileOutputRecordingDelegate {
    /// Does nothing when a recording starts.
    public func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
    /// Does nothing when a recording pauses.
    public func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
    /// Does nothing when a recording resumes.
    public func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
    /// Does nothing when a recording is about to finish.
    public func fileOutput(_ output: AVCaptureFileOutput, willFinishRecordingTo fileURL: URL, from connections: [AVCaptureConnection], error: Error?) {}
}

/// An output that records what a session captures to a file.
///
/// Samples are encoded on a writer thread of the recording's own, never on a device's
/// thread. The delegate's methods run on a serial queue of the output's own, in order:
/// `didStartRecordingTo` (only if the file was started), then `didFinishRecordingTo`, once
/// each per recording. Limits (duration, file size, free disk space) end a recording by
/// themselves, with an error whose `AVErrorRecordingSuccessfullyFinishedKey` is true.
open class AVCaptureFileOutput: AVCaptureOutput, _KeyValueObservable, @unchecked Sendable {
    /// The observations of the output's recording state (`isRecording`, `isRecordingPaused`, `outputFileURL`).
    @_spi(Plumbing) public let _observations = KeyValueObservationRegistry()
    private let current = EncodingJobSlot<Recording>()
    private let limits = LockedValue(Limits())
    let delegateQueue = DispatchQueue(label: "AVCaptureFileOutput delegate")

    struct Limits {
        var maxRecordedDuration: CMTime = .invalid
        var maxRecordedFileSize: Int64 = 0
        var minFreeDiskSpaceLimit: Int64 = 0
    }

    override init() {
        super.init()
        FFmpegLibraries.loadSoon()
    }

    /// The URL of the file being recorded, or `nil`.
    open var outputFileURL: URL? { current.job?.url }
    /// Whether a recording is under way.
    open var isRecording: Bool { current.job != nil }
    /// Whether the recording is paused.
    open var isRecordingPaused: Bool { current.job?.isPaused ?? false }
    /// How much has been recorded.
    open var recordedDuration: CMTime { current.job?.recordedDuration ?? .zero }
    /// How many bytes have been recorded.
    open var recordedFileSize: Int64 { current.job?.recordedFileSize ?? 0 }

    /// The longest a recording may last; `.invalid` means no limit.
    open var maxRecordedDuration: CMTime {
        get { limits.withLock { $0.maxRecordedDuration } }
        set { limits.withLock { $0.maxRecordedDuration = newValue } }
    }
    /// The largest a recording's file may grow, in bytes; 0 means no limit.
    open var maxRecordedFileSize: Int64 {
        get { limits.withLock { $0.maxRecordedFileSize } }
        set { limits.withLock { $0.maxRecordedFileSize = newValue } }
    }
    /// The free disk space, in bytes, below which a recording stops; 0 means none.
    open var minFreeDiskSpaceLimit: Int64 {
        get { limits.withLock { $0.minFreeDiskSpaceLimit } }
        set { limits.withLock { $0.minFreeDiskSpaceLimit = newValue } }
    }

    /// Starts recording to a file URL; the file must not exist and its folder must be writable.
    open func startRecording(to outputFileURL: URL, recordingDelegate delegate: AVCaptureFileOutputRecordingDelegate) {
        guard outputFileURL.isFileURL else {
            ProgrammingError.invalidArgument(
                "-[AVCaptureFileOutput startRecordingToOutputFileURL:recordingDelegate:] Cannot record to URL \(outputFileURL) because it is not a file URL.")
        }
        let connections = self.connections
        let client = UncheckedSendable((delegate, connections))
        let refuse = { [self] (error: AVError) in
            delegateQueue.async { [self] in
                client.value.0.fileOutput(self, didFinishRecordingTo: outputFileURL, from: client.value.1, error: error)
            }
        }
        let path = outputFileURL.path
        if FileSystemEntry.exists(atPath: path) {
            // The movie file output does not overwrite existing resources (WWDC 2010 session 409).
            refuse(
                AVError(
                    .fileAlreadyExists,
                    userInfo: [
                        AVErrorRecordingSuccessfullyFinishedKey: false, NSURLErrorKey: outputFileURL,
                        NSLocalizedDescriptionKey: "Cannot record to \(path): a file already exists there.",
                    ]))
            return
        }
        let folder = outputFileURL.deletingLastPathComponent().path
        if let (reason, code) = FolderCheck.whyUnwritable(folder) {
            refuse(
                AVError(
                    .unknown,
                    userInfo: [
                        AVErrorRecordingSuccessfullyFinishedKey: false, NSURLErrorKey: outputFileURL,
                        NSLocalizedDescriptionKey: "Cannot record to \(path): the folder \(folder) cannot be written (\(reason)).",
                        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
                    ]))
            return
        }
        guard session?.isRunning ?? false else {
            refuse(
                AVError(
                    .sessionNotRunning,
                    userInfo: [
                        AVErrorRecordingSuccessfullyFinishedKey: false, NSURLErrorKey: outputFileURL,
                        NSLocalizedDescriptionKey: "Cannot record: the session is not running.",
                    ]))
            return
        }
        // Starting a new recording ends the current one first, as on Apple platforms.
        current.end(reason: nil)
        // The first samples must not wait for FFmpeg to load: it is loaded before the recording starts.
        FFmpegLibraries.load()
        let recording = Recording(
            output: self, url: outputFileURL, delegate: delegate, connections: connections,
            limits: limits.withLock { $0 }, plan: recordingPlan(for: outputFileURL))
        current.start(recording)
        notify([\.isRecording, \.outputFileURL])
    }

    /// How many samples of the recording wait to be written.
    var samplesWaitingToBeWritten: Int { current.job?.samplesWaiting ?? 0 }

    /// Stops the recording; the delegate hears when the file is finished.
    open func stopRecording() {
        current.end(reason: nil)
    }

    /// Pauses the recording: samples are not written until it resumes, and the file has no gap.
    open func pauseRecording() {
        current.job?.pause()
        notify([\.isRecordingPaused])
    }

    /// Resumes a paused recording.
    open func resumeRecording() {
        current.job?.resume()
        notify([\.isRecordingPaused])
    }

    // MARK: Subclass hooks

    /// What a recording to a URL writes: its container, encoders and fragment interval.
    func recordingPlan(for url: URL) -> RecordingPlan {
        RecordingPlan(fileType: AVFileType.forPathExtension(url.pathExtension), videoCodec: .h264, fragmentInterval: .invalid, metadata: { [] })
    }

    // MARK: Session hooks

    override var demand: OutputDemand { OutputDemand(video: 1, audio: 1) }

    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if isAttached { current.receive(sampleBuffer, from: connection) }
    }

    override func sessionWillStop(because error: AVError?) { current.sessionWillStop(because: error) }

    override func sessionWasInterrupted() { current.sessionWasInterrupted() }

    override func didDetach() { current.didDetach() }

    /// The recording finished; forget it unless another has started.
    func recordingDidFinish(_ recording: Recording) {
        current.finished(recording)
        notify([\.isRecording, \.isRecordingPaused, \.outputFileURL])
    }

    // MARK: Key-value observing

    /// Tells observers of these properties, spelled from this class or the movie file output, that they changed.
    private func notify(_ keyPaths: [PartialKeyPath<AVCaptureFileOutput>]) {
        _observations.didChange(keyPaths + keyPaths.compactMap(Self.movieFileOutputKeyPath))
    }

    /// The movie file output's spelling of a property's key path, which its observers use.
    private static func movieFileOutputKeyPath(_ keyPath: PartialKeyPath<AVCaptureFileOutput>) -> AnyKeyPath? {
        switch keyPath {
        case \AVCaptureFileOutput.isRecording: \AVCaptureMovieFileOutput.isRecording
        case \AVCaptureFileOutput.isRecordingPaused: \AVCaptureMovieFileOutput.isRecordingPaused
        case \AVCaptureFileOutput.outputFileURL: \AVCaptureMovieFileOutput.outputFileURL
        default: nil
        }
    }
}

/// What a recording writes.
struct RecordingPlan: Sendable {
    var fileType: AVFileType
    var videoCodec: AVVideoCodecType
    /// The compression properties the client set; nil members are the output's own choices.
    var compression = ValidatedSettings.Compression()
    var fragmentInterval: CMTime
    /// The metadata at the time it is asked for, so that items set during recording land in the file.
    var metadata: @Sendable () -> [AVMetadataItem]
}
