import Foundation
import QuartzCore

extension AVCaptureDevice {
    /// An object that tells which rotation keeps video level with the horizon, for a preview
    /// layer and for captured photos and movies, as the device and its camera turn.
    ///
    /// A Linux machine's cameras do not turn with it, and it reports no orientation of its own:
    /// cameras sit upright, as a webcam on a screen or a camera on a stand, so the picture the
    /// sensor gives is level and both angles are 0. Observe them with `observe(_:options:changeHandler:)`.
    public final class RotationCoordinator: NSObject, _KeyValueObservable, @unchecked Sendable {
        /// The registry of the coordinator's observations.
        @_spi(Plumbing) public let _observations = KeyValueObservationRegistry()
        private struct Subjects {
            weak var device: AVCaptureDevice?
            weak var previewLayer: CALayer?
        }
        private let subjects: LockedValue<Subjects>

        /// Creates a coordinator for a camera, and for the layer that previews it, if any.
        public init(device: AVCaptureDevice, previewLayer: CALayer?) {
            subjects = LockedValue(Subjects(device: device, previewLayer: previewLayer))
            super.init()
        }

        /// The camera whose rotation the coordinator follows.
        public var device: AVCaptureDevice? { subjects.withLock { $0.device } }
        /// The layer that previews the camera.
        public var previewLayer: CALayer? { subjects.withLock { $0.previewLayer } }

        /// The clockwise angle, in degrees, that a preview of the camera needs to be level with the horizon.
        public var videoRotationAngleForHorizonLevelPreview: CGFloat { device == nil ? 0 : Self.levelAngle }

        /// The clockwise angle, in degrees, that captured photos and movies need to be level with the horizon.
        public var videoRotationAngleForHorizonLevelCapture: CGFloat { device == nil ? 0 : Self.levelAngle }

        /// An upright camera's picture is level as it comes.
        private static let levelAngle: CGFloat = 0
    }
}
