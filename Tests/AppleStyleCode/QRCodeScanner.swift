// A QR and barcode scanner written as iOS scanner screens are: a session with the default
// camera, a metadata output whose delegate runs on the main queue, a preview layer that turns
// codes into its own coordinates, a scan area as the rect of interest, and a torch button.
import AVFoundation

/// A scanner in the style of the classic iOS QR reader.
public final class QRCodeScanner: NSObject, AVCaptureMetadataOutputObjectsDelegate {
    public let captureSession = AVCaptureSession()
    public private(set) var previewLayer: AVCaptureVideoPreviewLayer!
    /// Every code read, in order.
    public private(set) var scannedCodes: [String] = []
    /// Where the last code was in the preview, or zero when none is in view.
    public private(set) var highlightFrame: CGRect = .zero
    /// The last QR code's symbol version and error correction level, from its Core Image descriptor.
    public private(set) var lastQRSymbol: (version: Int, level: CIQRCodeDescriptor.ErrorCorrectionLevel)?

    public enum SetupError: Error { case noCamera, cannotAddInput, cannotAddOutput }

    /// Sets the scanner up for a view of `bounds`, reading only inside `scanArea` (in the view's coordinates).
    public func setup(viewBounds bounds: CGRect, scanArea: CGRect? = nil) throws {
        guard let videoCaptureDevice = AVCaptureDevice.default(for: .video) else { throw SetupError.noCamera }
        let videoInput: AVCaptureDeviceInput
        do {
            videoInput = try AVCaptureDeviceInput(device: videoCaptureDevice)
        } catch {
            throw error
        }
        if captureSession.canAddInput(videoInput) {
            captureSession.addInput(videoInput)
        } else {
            throw SetupError.cannotAddInput
        }
        let metadataOutput = AVCaptureMetadataOutput()
        if captureSession.canAddOutput(metadataOutput) {
            captureSession.addOutput(metadataOutput)
            metadataOutput.setMetadataObjectsDelegate(self, queue: DispatchQueue.main)
            metadataOutput.metadataObjectTypes = [.qr, .ean8, .ean13, .pdf417]
        } else {
            throw SetupError.cannotAddOutput
        }
        previewLayer = AVCaptureVideoPreviewLayer(session: captureSession)
        previewLayer.frame = bounds
        previewLayer.videoGravity = .resizeAspectFill
        if let scanArea {
            metadataOutput.rectOfInterest = previewLayer.metadataOutputRectConverted(fromLayerRect: scanArea)
        }
    }

    /// Starts scanning off the main thread, as Apple recommends.
    public func start() {
        DispatchQueue.global(qos: .userInitiated).async { [captureSession] in
            captureSession.startRunning()
        }
    }

    /// Stops scanning.
    public func stop() {
        if captureSession.isRunning { captureSession.stopRunning() }
    }

    /// Turns the torch on or off, where the camera has one.
    public func toggleTorch(on: Bool) {
        guard let device = AVCaptureDevice.default(for: .video), device.hasTorch else { return }
        do {
            try device.lockForConfiguration()
            device.torchMode = on ? .on : .off
            device.unlockForConfiguration()
        } catch {
            print("Torch could not be used")
        }
    }

    public func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        if metadataObjects.count == 0 {
            highlightFrame = CGRect.zero
            return
        }
        if let metadataObject = metadataObjects.first {
            guard let readableObject = metadataObject as? AVMetadataMachineReadableCodeObject else { return }
            guard let stringValue = readableObject.stringValue else { return }
            let barCodeObject = previewLayer?.transformedMetadataObject(for: metadataObject)
            highlightFrame = barCodeObject?.bounds ?? .zero
            if let descriptor = readableObject.descriptor as? CIQRCodeDescriptor {
                lastQRSymbol = (descriptor.symbolVersion, descriptor.errorCorrectionLevel)
            }
            if scannedCodes.last != stringValue { scannedCodes.append(stringValue) }
        }
    }
}
