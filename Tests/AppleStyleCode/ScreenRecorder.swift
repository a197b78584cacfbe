import AVFoundation

/// A screen recorder as macOS apps wrote one before ScreenCaptureKit: a session with the main
/// display's screen input, cropped and throttled, recording to a movie file output.
public final class ScreenRecorder: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    public let session = AVCaptureSession()
    private let movieOutput = AVCaptureMovieFileOutput()
    private let finished = DispatchSemaphore(value: 0)
    public private(set) var recordingError: Error?

    /// Sets up the session; false when the main display cannot be captured.
    public func configure(cropRect: CGRect?, framesPerSecond: Int32) -> Bool {
        guard let input = AVCaptureScreenInput(displayID: CGMainDisplayID()) else { return false }
        input.minFrameDuration = CMTimeMake(value: 1, timescale: framesPerSecond)
        if let cropRect { input.cropRect = cropRect }
        input.capturesMouseClicks = true
        session.beginConfiguration()
        guard session.canAddInput(input), session.canAddOutput(movieOutput) else {
            session.commitConfiguration()
            return false
        }
        session.addInput(input)
        session.addOutput(movieOutput)
        session.commitConfiguration()
        return true
    }

    /// Records `seconds` of the screen into `url` and waits for the file to be finished.
    public func record(to url: URL, seconds: Double) {
        session.startRunning()
        movieOutput.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 600)
        movieOutput.startRecording(to: url, recordingDelegate: self)
        _ = finished.wait(timeout: .now() + seconds + 10)
        session.stopRunning()
    }

    public func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
        // Reaching the duration limit is a successful end.
        if let error = error as NSError?, (error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool) != true { recordingError = error }
        finished.signal()
    }
}
