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

    override init() { super.init() }

    /// The output's connections.
    public var connections: [AVCaptureConnection] { connectionList.withLock { $0 } }

    /// The output's first connection whose input ports provide a media type.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { connection in connection.inputPorts.contains { $0.mediaType == mediaType } }
    }

    func setConnections(_ connections: [AVCaptureConnection]) { connectionList.withLock { $0 = connections } }

    // MARK: What subclasses tell the session

    /// Whether the output takes media of a type.
    func accepts(_ mediaType: AVMediaType) -> Bool { false }
    /// How many connections of a media type the output takes.
    func maximumConnections(for mediaType: AVMediaType) -> Int { 1 }
    /// The pixel format the output wants video in, or `nil` for the device's own.
    var requestedPixelFormat: OSType? { nil }
    /// Whether the output's connections can orient and mirror video.
    var supportsVideoOrientationAndMirroring: Bool { true }
    /// Whether the output rotates and mirrors the pixels it delivers (rather than describing the rotation, as a movie does).
    var orientsPixels: Bool { false }
    /// Whether the output takes stills from the stream at the camera's full size (the photo
    /// preset's other outputs get a preview-sized copy).
    var takesStillsAtFullSize: Bool { false }
    /// Whether the output queues frames for a real-time encoder, which holds them for a few
    /// frames' time: the device keeps `MovieWriterThread.realTimeVideoQueue` more frames for it.
    var queuesFramesForEncoder: Bool { false }
    /// Whether a front camera's video is mirrored unless the client says otherwise.
    var mirrorsFrontCameraAutomatically: Bool { true }

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
