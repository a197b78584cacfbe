import CaptureDevices
import Foundation

/// The session-side half of a preview layer: an output the graph connects like any other (so a
/// preview needs no output of the app's), which the session does not list among its outputs.
final class PreviewLayerOutput: AVCaptureOutput, @unchecked Sendable {
    private struct WeakLayer { weak var layer: AVCaptureVideoPreviewLayer? }
    private let owner = LockedValue(WeakLayer())

    /// The layer this output feeds.
    var layer: AVCaptureVideoPreviewLayer? {
        get { owner.withLock { $0.layer } }
        set { owner.withLock { $0.layer = newValue } }
    }

    override var demand: OutputDemand { OutputDemand(video: 1) }

    /// Hands each frame to the layer, which keeps only the newest (on the camera's thread: it only stores).
    override func receive(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        layer?.receive(sampleBuffer, from: connection)
    }
}
