import AVFoundation
import Foundation

/// Records a movie file output's delegate calls, in order, with the thread they came on.
public final class RecordingLog: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _calls: [String] = []
    private var _error: Error?
    private var _onMain: [Bool] = []
    public var calls: [String] { lock.withLock { _calls } }
    public var error: AVError? { lock.withLock { _error as? AVError } }
    public var anyOnMainThread: Bool { lock.withLock { _onMain.contains(true) } }
    public var finished: Bool { calls.contains("finish") }

    public func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        lock.withLock {
            _calls.append("start"); _onMain.append(Thread.isMainThread)
        }
    }
    public func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        lock.withLock { _calls.append("pause") }
    }
    public func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        lock.withLock { _calls.append("resume") }
    }
    public func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: Error?) {
        lock.withLock {
            _calls.append("finish"); _error = error; _onMain.append(Thread.isMainThread)
        }
    }
}

/// Records a photo capture's delegate calls.
public final class PhotoProcessor: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    public let calls = Recorder<String>()
    public let photos = Recorder<AVCapturePhoto>()
    public let errors = Recorder<Error>()
    public let queues = Recorder<String>()
    public var isFinished: Bool { calls.values.last == "didFinishCapture" }

    public func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        calls.append("willBeginCapture")
        queues.append(Thread.isMainThread ? "main" : "other")
    }
    public func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        calls.append("willCapturePhoto")
    }
    public func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        calls.append("didCapturePhoto")
    }
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        photos.append(photo)
        if let error { errors.append(error) }
        calls.append("didFinishProcessingPhoto")
    }
    public let proxies = Recorder<AVCaptureDeferredPhotoProxy>()
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?
    ) {
        if let deferredPhotoProxy { proxies.append(deferredPhotoProxy) }
        if let error { errors.append(error) }
        calls.append("didFinishCapturingDeferredPhotoProxy")
    }
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        calls.append("didFinishRecordingLivePhotoMovie")
    }
    public let movies = Recorder<(URL, CMTime, CMTime)>()
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {
        movies.append((outputFileURL, duration, photoDisplayTime))
        if let error { errors.append(error) }
        calls.append("didFinishProcessingLivePhotoToMovieFile")
    }
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        // A capture that failed before a photo was made says so here only.
        if let error, calls.values.isEmpty { errors.append(error) }
        calls.append("didFinishCapture")
    }
}
