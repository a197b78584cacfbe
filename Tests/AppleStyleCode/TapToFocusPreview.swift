import AVFoundation

/// A camera screen's preview with tap to focus, as iOS apps write it: the tap's point in the
/// preview layer becomes a point of interest through the layer, then focus and exposure go there.
public final class TapToFocusPreview: @unchecked Sendable {
    public let session = AVCaptureSession()
    public let previewLayer: AVCaptureVideoPreviewLayer
    public private(set) var device: AVCaptureDevice?

    public init() {
        previewLayer = AVCaptureVideoPreviewLayer(session: session)
        previewLayer.videoGravity = .resizeAspectFill
    }

    public func configure(position: AVCaptureDevice.Position, viewSize: CGSize) throws {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .high
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: position) else { throw AVError(.deviceNotConnected) }
        let input = try AVCaptureDeviceInput(device: camera)
        guard session.canAddInput(input) else { throw AVError(.unknown) }
        session.addInput(input)
        device = camera
        previewLayer.frame = CGRect(origin: .zero, size: viewSize)
        if let connection = previewLayer.connection, connection.isVideoRotationAngleSupported(90) {
            connection.videoRotationAngle = 90  // a phone held upright
        }
    }

    /// What a tap gesture recognizer's handler does with the tap's location in the view.
    public func tapped(at location: CGPoint) throws {
        guard let device else { return }
        let point = previewLayer.captureDevicePointConverted(fromLayerPoint: location)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        if device.isFocusPointOfInterestSupported && device.isFocusModeSupported(.autoFocus) {
            device.focusPointOfInterest = point
            device.focusMode = .autoFocus
        }
        if device.isExposurePointOfInterestSupported && device.isExposureModeSupported(.continuousAutoExposure) {
            device.exposurePointOfInterest = point
            device.exposureMode = .continuousAutoExposure
        }
    }
}
