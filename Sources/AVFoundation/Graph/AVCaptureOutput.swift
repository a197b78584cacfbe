import CaptureDevices
import Foundation
import Synchronization

/// A destination for the media a capture session captures.
///
/// Concrete outputs receive samples on the capturing device's thread and hand them to their
/// clients on the queues the clients chose; they never block the device.
open class AVCaptureOutput: NSObject, @unchecked Sendable {
    private let owner = LockedValue<WeakSessionReference>(WeakSessionReference())
    private let attached = Atomic<Bool>(false)
    private let connectionList = LockedValue<[AVCaptureConnection]>([])

    private struct WeakSessionReference { weak var session: AVCaptureSession? }

    /// The session the output belongs to.
    var session: AVCaptureSession? {
        get { owner.withLock { $0.session } }
        set {
            owner.withLock { $0.session = newValue }
            attached.store(newValue != nil, ordering: .releasing)
            if newValue == nil { didDetach() }
        }
    }

    /// Whether the output belongs to a session; samples reach only attached outputs.
    var isAttached: Bool { attached.load(ordering: .acquiring) }

    /// The output left its session: drop anything waiting for the client.
    func didDetach() {}

    /// Whether the output is still working on samples it was given (delivering them, searching
    /// them, processing a photo from them); a test clock waits for this before it looks.
    package var hasWorkInFlight: Bool { false }

    override init() { super.init() }

    /// The output's connections.
    public var connections: [AVCaptureConnection] { connectionList.withLock { $0 } }

    /// The output's first connection whose input ports provide a media type.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { connection in connection.inputPorts.contains { $0.mediaType == mediaType } }
    }

    func setConnections(_ connections: [AVCaptureConnection]) { connectionList.withLock { $0 = connections } }

    // MARK: What subclasses tell the session

    /// What the output asks of the devices that feed it; the session plans streams from it.
    var demand: OutputDemand { OutputDemand() }

    // MARK: What the session hands subclasses (on a device's thread)

    /// A sample for the output, on the device's thread; must not block.
    func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
    /// A sample the device dropped before the output could receive it.
    func receiveDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, from connection: AVCaptureConnection) {}
    /// The session started or stopped running.
    func sessionRunningDidChange(_ running: Bool) {}
    /// The session is about to stop: by request (`nil`) or because of an error.
    func sessionWillStop(because error: AVError?) {}
    /// The session was interrupted.
    func sessionWasInterrupted() {}
}

extension AVCaptureOutput {
    /// Where the source camera's picture lands in the output's own pictures: the active format's
    /// frame, turned and mirrored as the video connection says, filling a picture of that size.
    private var outputGeometry: PreviewGeometry? {
        guard let connection = connection(with: .video) ?? connections.first else { return nil }
        let dimensions = connection.sourceDevice?.activeFormat.formatDescription.dimensions ?? CMVideoDimensions(width: 4, height: 3)
        let sensor = CGSize(width: CGFloat(dimensions.width), height: CGFloat(dimensions.height))
        let rotation = Int(connection.videoRotationAngle)
        let mirrored = connection.isVideoMirroringSupported && connection.isVideoMirrored
        let shown = rotation == 90 || rotation == 270 ? CGSize(width: sensor.height, height: sensor.width) : sensor
        return PreviewGeometry(sensorSize: sensor, rotationDegrees: rotation, mirrored: mirrored, gravity: .resize, bounds: CGRect(origin: .zero, size: shown))
    }

    /// Converts a rectangle in the output's coordinates (its pictures' pixels, as its connection
    /// turns and mirrors them) to one in metadata output coordinates; the rectangle itself when
    /// the output has no video connection.
    public func metadataOutputRectConverted(fromOutputRect rectInOutputCoordinates: CGRect) -> CGRect {
        outputGeometry?.deviceRect(fromLayerRect: rectInOutputCoordinates) ?? rectInOutputCoordinates
    }

    /// Converts a rectangle in metadata output coordinates to one in the output's coordinates.
    public func outputRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        outputGeometry?.layerRect(fromDeviceRect: rectInMetadataOutputCoordinates) ?? rectInMetadataOutputCoordinates
    }

    /// A copy of a metadata object with its geometry in the output's coordinates for a connection,
    /// or nil when the connection is not the output's or the object has no geometry to convert.
    public func transformedMetadataObject(for metadataObject: AVMetadataObject, connection: AVCaptureConnection) -> AVMetadataObject? {
        guard connections.contains(where: { $0 === connection }), let geometry = outputGeometry else { return nil }
        return metadataObject.transformed(rect: geometry.layerRect(fromDeviceRect:), point: geometry.layerPoint(fromDevicePoint:))
    }
}
