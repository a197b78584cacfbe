import Foundation

/// Methods for monitoring progress and receiving results from a photo capture output.
///
/// For each capture, in this order: `willBeginCaptureFor`, `willCapturePhotoFor`,
/// `didCapturePhotoFor`, `didFinishProcessingPhoto`, `didFinishCaptureFor`; each on a serial
/// queue of the output's own, so overlapping captures each keep their order.
public protocol AVCapturePhotoCaptureDelegate: NSObjectProtocol {
    /// The capture has begun, with the settings it resolved to.
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The photo is about to be taken (when the shutter sound plays).
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The photo has been taken.
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The photo is ready, or could not be made.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?)
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
    /// Does nothing when the request is complete.
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {}
}
