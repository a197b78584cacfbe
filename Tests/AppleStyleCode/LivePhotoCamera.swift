import AVFoundation
import Photos

/// A camera that takes Live Photos the way iOS camera apps do: the photo preset, HEIF when the
/// output offers it, depth when the camera has it, and the result saved with PhotoKit.
public final class LivePhotoCamera: NSObject, @unchecked Sendable {
    public let session = AVCaptureSession()
    public let photoOutput = AVCapturePhotoOutput()
    private let sessionQueue = DispatchQueue(label: "session queue")
    private var inProgress: [Int64: LivePhotoProcessor] = [:]
    private let lock = NSLock()

    public override init() { super.init() }

    public func configure() throws {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .photo
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else { throw AVError(.deviceNotConnected) }
        let cameraInput = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(cameraInput) { session.addInput(cameraInput) }
        if let microphone = AVCaptureDevice.default(for: .audio) {
            let microphoneInput = try AVCaptureDeviceInput(device: microphone)
            if session.canAddInput(microphoneInput) { session.addInput(microphoneInput) }
        }
        guard session.canAddOutput(photoOutput) else { throw AVError(.unknown) }
        session.addOutput(photoOutput)
        photoOutput.isLivePhotoCaptureEnabled = photoOutput.isLivePhotoCaptureSupported
        photoOutput.isDepthDataDeliveryEnabled = photoOutput.isDepthDataDeliverySupported
        photoOutput.isPortraitEffectsMatteDeliveryEnabled = photoOutput.isPortraitEffectsMatteDeliverySupported
        photoOutput.enabledSemanticSegmentationMatteTypes = photoOutput.availableSemanticSegmentationMatteTypes
        photoOutput.maxPhotoQualityPrioritization = .quality
        photoOutput.isHighResolutionCaptureEnabled = true
    }

    /// Takes a Live Photo and saves it; `completion` gets the PhotoKit error, if any, and what the capture delivered.
    public func takeLivePhoto(completion: @escaping @Sendable (LivePhotoResult) -> Void) {
        sessionQueue.async { [self] in
            var settings = AVCapturePhotoSettings()
            if photoOutput.availablePhotoCodecTypes.contains(.hevc) {
                settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            }
            if let previewFormat = settings.__availablePreviewPhotoPixelFormatTypes.first {
                settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: previewFormat]
            }
            if photoOutput.isLivePhotoCaptureEnabled {
                let name = NSUUID().uuidString
                settings.livePhotoMovieFileURL = URL(
                    fileURLWithPath: (NSTemporaryDirectory() as NSString).appendingPathComponent((name as NSString).appendingPathExtension("mov")!))
            }
            settings.isDepthDataDeliveryEnabled = photoOutput.isDepthDataDeliveryEnabled
            settings.isHighResolutionPhotoEnabled = true
            settings.photoQualityPrioritization = .speed
            let uniqueID = settings.uniqueID
            let processor = LivePhotoProcessor(settings: settings) { [self] result in
                lock.withLock { inProgress[uniqueID] = nil }
                completion(result)
            }
            lock.withLock { inProgress[settings.uniqueID] = processor }
            photoOutput.capturePhoto(with: settings, delegate: processor)
        }
    }
}

/// What one Live Photo capture delivered.
public struct LivePhotoResult: Sendable {
    public var saveError: String?
    public var orientation: CGImagePropertyOrientation?
    public var hadDepth = false
    public var movieDuration: Double = 0
    public var photoDisplayTime: Double = 0
    public var callbacks: [String] = []
}

final class LivePhotoProcessor: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let settings: AVCapturePhotoSettings
    private let done: @Sendable (LivePhotoResult) -> Void
    private var photoData: Data?
    private var movieURL: URL?
    private var result = LivePhotoResult()

    init(settings: AVCapturePhotoSettings, done: @escaping @Sendable (LivePhotoResult) -> Void) {
        self.settings = settings
        self.done = done
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        result.callbacks.append("willBegin")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        result.callbacks.append("photo")
        guard error == nil else { return }
        photoData = photo.fileDataRepresentation()
        if let value = photo.metadata[String(kCGImagePropertyOrientation)] as? UInt32 {
            result.orientation = CGImagePropertyOrientation(rawValue: value)
        }
        result.hadDepth = photo.depthData != nil
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL, resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        result.callbacks.append("movieRecorded")
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime, photoDisplayTime: CMTime,
        resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?
    ) {
        result.callbacks.append("movieWritten")
        guard error == nil else { return }
        movieURL = outputFileURL
        result.movieDuration = CMTimeGetSeconds(duration)
        result.photoDisplayTime = CMTimeGetSeconds(photoDisplayTime)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        result.callbacks.append("finished")
        guard let photoData else {
            result.saveError = "no photo"
            done(result)
            return
        }
        let movieURL = self.movieURL
        PHPhotoLibrary.requestAuthorization { [self] status in
            guard status == .authorized else {
                result.saveError = "not authorized"
                done(result)
                return
            }
            PHPhotoLibrary.shared().performChanges(
                {
                    let options = PHAssetResourceCreationOptions()
                    let creationRequest = PHAssetCreationRequest.forAsset()
                    options.uniformTypeIdentifier = "public.heic"
                    creationRequest.addResource(with: .photo, data: photoData, options: options)
                    if let movieURL {
                        let movieOptions = PHAssetResourceCreationOptions()
                        movieOptions.shouldMoveFile = true
                        creationRequest.addResource(with: .pairedVideo, fileURL: movieURL, options: movieOptions)
                    }
                },
                completionHandler: { [self] _, error in
                    if let error { result.saveError = error.localizedDescription }
                    done(result)
                })
        }
    }
}
