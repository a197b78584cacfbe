// A SwiftUI-era camera model: `@Observable`, in a file that imports AVFoundation and nothing else,
// as Apple's AVFoundation brings Observation with Foundation.
import AVFoundation

/// The state a camera screen shows, observed by its views.
@Observable
public final class CameraModel {
    public var isRunning = false
    public var zoomFactor: CGFloat = 1
    public var lastError: String?

    public init() {}

    /// Notes what the session reports.
    public func sessionDidChange(running: Bool) { isRunning = running }
}

/// Waits for a capture session's interruptions as async code does.
public func firstInterruption(of session: AVCaptureSession) async -> AVCaptureSession.InterruptionReason? {
    for await notification in NotificationCenter.default.notifications(named: AVCaptureSession.wasInterruptedNotification, object: session) {
        guard let value = notification.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber else { continue }
        return AVCaptureSession.InterruptionReason(rawValue: value.intValue)
    }
    return nil
}
