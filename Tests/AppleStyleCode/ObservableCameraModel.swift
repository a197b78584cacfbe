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
