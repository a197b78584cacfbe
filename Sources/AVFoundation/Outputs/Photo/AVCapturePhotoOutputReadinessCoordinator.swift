import Foundation

extension AVCapturePhotoOutput {
    /// Whether a photo output is ready to respond to new capture requests in a timely manner.
    public enum CaptureReadiness: Int, @unchecked Sendable {
        /// The session is not running: the output cannot capture.
        case sessionNotRunning = 0
        /// The output is ready for a new capture.
        case ready = 1
        /// The output is busy for a moment (a capture the app said it is about to ask for).
        case notReadyMomentarily = 2
        /// The output is waiting for the frames of captures asked for.
        case notReadyWaitingForCapture = 3
        /// The output is busy processing captures asked for before.
        case notReadyWaitingForProcessing = 4
    }
}

/// A delegate protocol to receive updates about a photo output's capture readiness.
public protocol AVCapturePhotoOutputReadinessCoordinatorDelegate: NSObjectProtocol {
    /// Tells the delegate that the capture readiness state of a photo output changed, on the main queue.
    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness)
}

extension AVCapturePhotoOutputReadinessCoordinatorDelegate {
    /// Does nothing: the method is optional.
    public func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {}
}

/// An object that monitors changes to a photo output's capture readiness, so that an app can
/// update its shutter button on the main queue while it asks for photos on a background queue.
///
/// Its readiness is the output's, and `.notReadyMomentarily` while a request it tracks (one the
/// app is about to hand the output) has not reached the output. The delegate hears each change,
/// and the value as it is when it is set, on the main queue.
open class AVCapturePhotoOutputReadinessCoordinator: NSObject, @unchecked Sendable {
    private let photoOutput: AVCapturePhotoOutput
    private struct State {
        var tracked: Set<Int64> = []
        var told: AVCapturePhotoOutput.CaptureReadiness?
        weak var delegate: AVCapturePhotoOutputReadinessCoordinatorDelegate?
    }
    private let state = LockedValue(State())
    private var observers: [NSObjectProtocol] = []

    /// Creates an object that helps coordinate user interface changes with a photo output that runs on a background queue.
    public init(photoOutput: AVCapturePhotoOutput) {
        self.photoOutput = photoOutput
        super.init()
        photoOutput.addReadinessCoordinator(self)
        for name in [AVCaptureSession.didStartRunningNotification, AVCaptureSession.didStopRunningNotification] {
            observers.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.readinessMayHaveChanged() })
        }
    }

    deinit { for observer in observers { NotificationCenter.default.removeObserver(observer) } }

    /// The coordinator's delegate, called on the main queue; it hears the current value when set.
    open weak var delegate: (any AVCapturePhotoOutputReadinessCoordinatorDelegate)? {
        get { state.withLock { $0.delegate } }
        set {
            state.withLock {
                $0.delegate = newValue
                $0.told = nil
            }
            readinessMayHaveChanged()
        }
    }

    /// Whether the coordinator's photo output is ready to respond to new capture requests in a timely manner.
    open var captureReadiness: AVCapturePhotoOutput.CaptureReadiness {
        let output = photoOutput.captureReadiness
        guard output == .ready else { return output }
        return state.withLock { $0.tracked.isEmpty } ? .ready : .notReadyMomentarily
    }

    /// Tracks a capture request that uses the specified photo settings, until the output receives it or tracking stops.
    open func startTrackingCaptureRequest(using settings: AVCapturePhotoSettings) {
        state.withLock { _ = $0.tracked.insert(settings.uniqueID) }
        readinessMayHaveChanged()
    }

    /// Stops tracking the capture request of the photo settings with this unique identifier.
    open func stopTrackingCaptureRequest(using settingsUniqueID: Int64) {
        guard state.withLock({ $0.tracked.remove(settingsUniqueID) != nil }) else { return }
        readinessMayHaveChanged()
    }

    /// Tells the delegate, on the main queue, when the readiness differs from what it heard last.
    func readinessMayHaveChanged() {
        DispatchQueue.main.async { [self] in
            let readiness = captureReadiness
            let delegate = state.withLock { state -> AVCapturePhotoOutputReadinessCoordinatorDelegate? in
                guard state.told != readiness, let delegate = state.delegate else { return nil }
                state.told = readiness
                return delegate
            }
            delegate?.readinessCoordinator(self, captureReadinessDidChange: readiness)
        }
    }
}
