import Foundation

/// How an engine in manual rendering mode is rendered.
public enum AVAudioEngineManualRenderingMode: Int, @unchecked Sendable {
    /// As fast as the caller asks, with no input from a device: for rendering to a file.
    case offline = 0
    /// In the caller's real-time context, such as another audio system's callback.
    case realtime = 1
}

/// What came of a manual render.
public enum AVAudioEngineManualRenderingStatus: Int, @unchecked Sendable {
    /// The render failed.
    case error = -1
    /// The frames asked for were rendered.
    case success = 0
    /// Input was not available; fewer frames were rendered.
    case insufficientDataFromInputNode = 1
    /// The render could not run now and should be tried again.
    case cannotDoInCurrentContext = 2
}

/// A block that renders an engine in manual rendering mode: frames into a buffer list; says
/// how it went and, through `outError`, why it failed.
public typealias AVAudioEngineManualRenderingBlock = (AVAudioFrameCount, UnsafeMutablePointer<AudioBufferList>, UnsafeMutablePointer<OSStatus>?) ->
    AVAudioEngineManualRenderingStatus

extension Notification.Name {
    /// Posted when an engine's input or output hardware changes configuration; the engine has stopped.
    public static let AVAudioEngineConfigurationChange = Notification.Name("AVAudioEngineConfigurationChangeNotification")
}
