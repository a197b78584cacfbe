import AVFoundation
import Photos

/// A camera that takes its best photos with deferred delivery, as iOS 17 camera apps do: the
/// output delivers a proxy at once, the app saves it to the library as a `.photoProxy` resource,
/// and the library finishes the photo later.
public final class DeferredPhotoCamera: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    public let session = AVCaptureSession()
    public let photoOutput = AVCapturePhotoOutput()
    private let lock = NSLock()
    private var completion: (@Sendable (Result<TimeInterval, Error>) -> Void)?
    private var asked = Date()

    public func configure() throws {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .photo
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else { throw AVError(.deviceNotConnected) }
        session.addInput(try AVCaptureDeviceInput(device: camera))
        guard session.canAddOutput(photoOutput) else { throw AVError(.unknown) }
        session.addOutput(photoOutput)
        photoOutput.maxPhotoQualityPrioritization = .quality
        photoOutput.isResponsiveCaptureEnabled = photoOutput.isResponsiveCaptureSupported
        photoOutput.isFastCapturePrioritizationEnabled = photoOutput.isFastCapturePrioritizationSupported
        photoOutput.isAutoDeferredPhotoDeliveryEnabled = photoOutput.isAutoDeferredPhotoDeliverySupported
    }

    /// Takes a photo at the best quality in HEIF and saves its proxy; `completion` gets the seconds
    /// from asking to the proxy's arrival, or the error.
    public func takePhoto(completion: @escaping @Sendable (Result<TimeInterval, Error>) -> Void) {
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        settings.photoQualityPrioritization = .quality
        lock.withLock {
            self.completion = completion
            asked = Date()
        }
        photoOutput.capturePhoto(with: settings, delegate: self)
    }

    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?
    ) {
        let (completion, asked) = lock.withLock { (self.completion, self.asked) }
        let elapsed = Date().timeIntervalSince(asked)
        guard let data = deferredPhotoProxy?.fileDataRepresentation() else {
            completion?(.failure(error ?? AVError(.unknown)))
            return
        }
        PHPhotoLibrary.shared().performChanges {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photoProxy, data: data, options: nil)
        } completionHandler: { success, error in
            completion?(success ? .success(elapsed) : .failure(error ?? AVError(.unknown)))
        }
    }
}
