import Foundation

/// Methods for monitoring progress and receiving results from a photo capture output.
///
/// For each capture, in this order: `willBeginCaptureFor`, `willCapturePhotoFor`,
/// `didCapturePhotoFor`, `didFinishProcessingPhoto`, for a Live Photo
/// `didFinishRecordingLivePhotoMovieForEventualFileAt` and
/// `didFinishProcessingLivePhotoToMovieFileAt`, then `didFinishCaptureFor`; on serial queues of
/// the output's own, so overlapping captures each keep their order.
public protocol AVCapturePhotoCaptureDelegate: NSObjectProtocol {
    /// The capture has begun, with the settings it resolved to.
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The photo is about to be taken (when the shutter sound plays).
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The photo has been taken.
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The photo is ready, or could not be made.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?)
    /// A proxy of the photo is ready, to be saved to the photo library, which finishes the photo later.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?)
    /// The Live Photo's movie has all its frames; the file is still being written.
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The Live Photo's movie file is written, or could not be.
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?)
    /// The capture request is complete.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?)
}

extension AVCapturePhotoCaptureDelegate {
    /// Does nothing when the capture begins.
    public func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    /// Does nothing before the photo is taken.
    public func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    /// Does nothing after the photo is taken.
    public func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    /// Does nothing with the photo.
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {}
    /// Does nothing with the proxy.
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?
    ) {}
    /// Does nothing when the Live Photo's movie has its frames.
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {}
    /// Does nothing with the Live Photo's movie.
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {}
    /// Does nothing when the request is complete.
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {}
}
