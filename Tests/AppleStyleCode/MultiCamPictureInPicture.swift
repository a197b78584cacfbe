import AVFoundation

/// A picture-in-picture camera as iOS apps set up a multi-camera session: the back and front
/// cameras added without connections, each joined by hand to its own preview layer and video
/// data output, and the cameras' formats lowered while the session's hardware cost is over budget.
public final class MultiCamPictureInPicture: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    public let session = AVCaptureMultiCamSession()
    public let backPreviewLayer = AVCaptureVideoPreviewLayer()
    public let frontPreviewLayer = AVCaptureVideoPreviewLayer()
    private let backOutput = AVCaptureVideoDataOutput()
    private let frontOutput = AVCaptureVideoDataOutput()
    private let queue = DispatchQueue(label: "multi-cam frames")
    private let lock = NSLock()
    private var counts: [AVCaptureDevice.Position: Int] = [:]
    private var sizes: [AVCaptureDevice.Position: CGSize] = [:]

    public override init() { super.init() }

    /// Frames each camera has delivered, and their size, by position.
    public var framesByPosition: [AVCaptureDevice.Position: (count: Int, size: CGSize)] {
        lock.lock()
        defer { lock.unlock() }
        return counts.reduce(into: [:]) { $0[$1.key] = ($1.value, sizes[$1.key] ?? .zero) }
    }

    public enum SetupError: Error { case multiCamUnsupported, noCamera(AVCaptureDevice.Position), cannotConnect(String) }

    public func configure() throws {
        guard AVCaptureMultiCamSession.isMultiCamSupported else { throw SetupError.multiCamUnsupported }
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        try addCamera(.back, output: backOutput, previewLayer: backPreviewLayer)
        try addCamera(.front, output: frontOutput, previewLayer: frontPreviewLayer)
        // Over budget: take each camera down a format until the session can run.
        while session.hardwareCost > 1.0 {
            guard reduceResolution(for: .back) || reduceResolution(for: .front) else { break }
        }
    }

    private func addCamera(_ position: AVCaptureDevice.Position, output: AVCaptureVideoDataOutput, previewLayer: AVCaptureVideoPreviewLayer) throws {
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: position) else { throw SetupError.noCamera(position) }
        let input = try AVCaptureDeviceInput(device: camera)
        guard session.canAddInput(input) else { throw SetupError.cannotConnect("input") }
        session.addInputWithNoConnections(input)
        guard let port = input.ports(for: .video, sourceDeviceType: camera.deviceType, sourceDevicePosition: camera.position).first else {
            throw SetupError.cannotConnect("port")
        }
        guard session.canAddOutput(output) else { throw SetupError.cannotConnect("output") }
        session.addOutputWithNoConnections(output)
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
        output.setSampleBufferDelegate(self, queue: queue)
        let outputConnection = AVCaptureConnection(inputPorts: [port], output: output)
        guard session.canAddConnection(outputConnection) else { throw SetupError.cannotConnect("output connection") }
        session.addConnection(outputConnection)
        previewLayer.setSessionWithNoConnection(session)
        let previewConnection = AVCaptureConnection(inputPort: port, videoPreviewLayer: previewLayer)
        guard session.canAddConnection(previewConnection) else { throw SetupError.cannotConnect("preview connection") }
        session.addConnection(previewConnection)
        if position == .front { previewConnection.automaticallyAdjustsVideoMirroring = false; previewConnection.isVideoMirrored = true }
        // The largest multi-camera format to start with.
        let formats = camera.formats.filter(\.isMultiCamSupported)
        if let largest = formats.max(by: { $0.formatDescription.dimensions.width < $1.formatDescription.dimensions.width }) {
            try camera.lockForConfiguration()
            camera.activeFormat = largest
            camera.unlockForConfiguration()
        }
    }

    /// Moves the camera at `position` to the next smaller multi-camera format; false when there is none.
    private func reduceResolution(for position: AVCaptureDevice.Position) -> Bool {
        guard
            let input = session.inputs.compactMap({ $0 as? AVCaptureDeviceInput }).first(where: { $0.device.position == position })
        else { return false }
        let device = input.device
        let width = device.activeFormat.formatDescription.dimensions.width
        let smaller = device.formats.filter { $0.isMultiCamSupported && $0.formatDescription.dimensions.width < width }
        guard let next = smaller.max(by: { $0.formatDescription.dimensions.width < $1.formatDescription.dimensions.width }) else { return false }
        do {
            try device.lockForConfiguration()
            device.activeFormat = next
            device.unlockForConfiguration()
            return true
        } catch {
            return false
        }
    }

    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let position: AVCaptureDevice.Position = output === backOutput ? .back : .front
        guard let image = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        lock.lock()
        counts[position, default: 0] += 1
        sizes[position] = CGSize(width: CVPixelBufferGetWidth(image), height: CVPixelBufferGetHeight(image))
        lock.unlock()
    }
}
