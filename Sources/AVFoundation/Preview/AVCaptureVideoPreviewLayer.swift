import CaptureDevices
import Foundation

/// A layer that displays video from a camera device.
///
/// Linux has no compositor to draw into, so the layer is what Apple's is to an app's code (its
/// session, connection, gravity, geometry and coordinate conversions) plus a Linux companion that
/// hands the newest frame, turned, mirrored and scaled for the layer's bounds and gravity, to
/// whoever draws it (`linuxPreviewFrames`, `setLinuxPreviewFrameHandler(_:queue:)`). A slow drawer misses
/// frames; it never slows the session or its other outputs.
open class AVCaptureVideoPreviewLayer: CALayer, @unchecked Sendable {
    private struct State {
        var session: AVCaptureSession?
        var gravity: AVLayerVideoGravity = .resizeAspect
    }
    private let state = LockedValue(State())
    private let drawers = LayerFrameDrawers()
    let previewOutput = PreviewLayerOutput()
    /// A camera frame to be turned and scaled for drawing, with what it is drawn for.
    private struct Unrendered {
        let layer: AVCaptureVideoPreviewLayer
        let frame: CVPixelBuffer
        let geometry: PreviewGeometry
        let time: CMTime
        let drawing: LayerFrameDrawers.Drawing
    }
    /// Where frames are turned and scaled for drawing, one at a time (the drawers allow one), handed
    /// over without an allocation a frame.
    private let rendering = SerialHandoff<Unrendered>(queue: DispatchQueue(label: "AVCaptureVideoPreviewLayer")) { $0.layer.render($0) }
    private let renderer = PreviewFrameRenderer()

    /// Creates a layer that previews the session's camera, connected to it.
    public init(session: AVCaptureSession) {
        super.init()
        previewOutput.layer = self
        attach(to: session, connecting: true)
    }

    /// Creates a layer for a session without connecting it; connect it with `AVCaptureConnection(inputPort:videoPreviewLayer:)`.
    public init(sessionWithNoConnection session: AVCaptureSession) {
        super.init()
        previewOutput.layer = self
        attach(to: session, connecting: false)
    }

    /// Creates a layer with no session.
    public override init() {
        super.init()
        previewOutput.layer = self
    }

    /// Creates a copy of a layer's geometry.
    public override init(layer: Any) {
        super.init(layer: layer)
        previewOutput.layer = self
    }

    /// The session the layer previews, held strongly; setting it connects the layer to the session's camera.
    open var session: AVCaptureSession? {
        get { state.withLock { $0.session } }
        set {
            detach()
            if let newValue { attach(to: newValue, connecting: true) }
        }
    }

    /// Sets the session without connecting the layer to it.
    open func setSessionWithNoConnection(_ session: AVCaptureSession) {
        detach()
        attach(to: session, connecting: false)
    }

    private func attach(to session: AVCaptureSession, connecting: Bool) {
        state.withLock { $0.session = session }
        if connecting { session.addOutput(previewOutput) } else { session.addOutputWithNoConnections(previewOutput) }
    }

    private func detach() {
        let old = state.withLock { state -> AVCaptureSession? in
            defer { state.session = nil }
            return state.session
        }
        old?.removeOutput(previewOutput)
    }

    /// The connection from the session's camera to the layer.
    open var connection: AVCaptureConnection? { previewOutput.connections.first }

    /// How the video is displayed within the layer's bounds.
    open var videoGravity: AVLayerVideoGravity {
        get { state.withLock { $0.gravity } }
        set { state.withLock { $0.gravity = newValue } }
    }

    /// Whether the layer is showing video: its session runs and its connection is active.
    open var isPreviewing: Bool {
        guard let session, session.isRunning, let connection else { return false }
        return connection.isEnabled && connection.isActive
    }

    // MARK: Coordinate conversions

    /// The geometry of the picture in the layer now, for the camera's active format.
    var geometry: PreviewGeometry {
        let dimensions = connection?.sourceDevice?.activeFormat.formatDescription.dimensions ?? CMVideoDimensions(width: 4, height: 3)
        return geometry(sensorSize: CGSize(width: CGFloat(dimensions.width), height: CGFloat(dimensions.height)))
    }

    /// The geometry of a picture of `sensorSize` in the layer now.
    func geometry(sensorSize: CGSize) -> PreviewGeometry {
        let connection = self.connection
        let rotation = Int(connection?.videoRotationAngle ?? 0)
        let mirrored = (connection?.isVideoMirroringSupported ?? false) && (connection?.isVideoMirrored ?? false)
        return PreviewGeometry(
            sensorSize: sensorSize, rotationDegrees: rotation,
            mirrored: mirrored, gravity: videoGravity, bounds: bounds)
    }

    /// Converts a point in the layer's coordinates to a point of interest in device coordinates.
    open func captureDevicePointConverted(fromLayerPoint pointInLayer: CGPoint) -> CGPoint {
        geometry.devicePoint(fromLayerPoint: pointInLayer)
    }

    /// Converts a point of interest in device coordinates to a point in the layer's coordinates.
    open func layerPointConverted(fromCaptureDevicePoint captureDevicePointOfInterest: CGPoint) -> CGPoint {
        geometry.layerPoint(fromDevicePoint: captureDevicePointOfInterest)
    }

    /// Converts a rectangle in the layer's coordinates to one in metadata output coordinates.
    open func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect {
        geometry.deviceRect(fromLayerRect: rectInLayerCoordinates)
    }

    /// Converts a rectangle in metadata output coordinates to one in the layer's coordinates.
    open func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        geometry.layerRect(fromDeviceRect: rectInMetadataOutputCoordinates)
    }

    /// A copy of a metadata object with its geometry in the layer's coordinates, or nil when the object has none to convert.
    open func transformedMetadataObject(for metadataObject: AVMetadataObject) -> AVMetadataObject? {
        let geometry = self.geometry
        return metadataObject.transformed(rect: geometry.layerRect(fromDeviceRect:), point: geometry.layerPoint(fromDevicePoint:))
    }

    // MARK: Frames for drawing (Linux)

    /// Calls `handler` on `queue` with each new frame as the layer shows it (BGRA, turned, mirrored
    /// and scaled for the bounds and gravity, its capture time on the host clock attached under
    /// `kCVBufferTimeValueKey` and `kCVBufferTimeScaleKey`); a frame arriving while the last is
    /// still being handled is skipped. Pass nil to stop.
    public func setLinuxPreviewFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue = .main) {
        drawers.setHandler(handler, queue: queue)
    }

    /// Calls `handler` as `setLinuxPreviewFrameHandler(_:queue:)` does; a frame the layer shows upright
    /// at its own size that is BT.601 Y'CbCr comes as JPEG's own samples, full-range planar 4:2:0
    /// ('f420'), for an encoder to take with no trip through R'G'B'.
    package func setLinuxPreviewFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue, allowingJPEGSamples: Bool) {
        drawers.setHandler(handler, queue: queue, allowingJPEGSamples: allowingJPEGSamples)
    }

    /// The frames as the layer shows them, newest first served: a slow reader sees the newest frame, never a backlog.
    public var linuxPreviewFrames: AsyncStream<CVPixelBuffer> { drawers.frames }

    /// A new camera frame: drawn for the viewers unless the last one is still being drawn.
    func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let drawing = drawers.beginDrawing() else { return }
        guard let frame = sampleBuffer.imageBufferStorage else {
            drawers.deliver(nil)
            return
        }
        let geometry = self.geometry(sensorSize: CGSize(width: frame.width, height: frame.height))
        rendering.hand(Unrendered(layer: self, frame: frame, geometry: geometry, time: sampleBuffer.presentationTimeStamp, drawing: drawing))
    }

    /// Turns and scales a frame for drawing and hands it to the drawers (on the rendering queue).
    private func render(_ unrendered: Unrendered) {
        let (geometry, time) = (unrendered.geometry, unrendered.time)
        let drawn = renderer.render(unrendered.frame, geometry: geometry, allowingJPEGSamples: unrendered.drawing.allowsJPEGSamples)
        if let drawn, time.isValid {
            // The capture time on the host clock, as Core Video's time attachments spell it.
            drawn.attachTime(value: time.value, timescale: time.timescale)
        }
        // Dropped if the gravity or bounds changed while it was drawn (the next frame has the new
        // ones); asked of the layer's own locks only, as the drawers' lock is held.
        drawers.deliver(drawn) { videoGravity == geometry.gravity && bounds == geometry.bounds }
    }
}

extension AVCaptureConnection {
    /// The preview layer this connection feeds, if it feeds one.
    public var videoPreviewLayer: AVCaptureVideoPreviewLayer? { (output as? PreviewLayerOutput)?.layer }

    /// Creates a connection from a camera's port to a preview layer; add it with `AVCaptureSession.addConnection(_:)`.
    public convenience init(inputPort port: AVCaptureInput.Port, videoPreviewLayer layer: AVCaptureVideoPreviewLayer) {
        self.init(inputPorts: [port], output: layer.previewOutput)
    }
}
