import Foundation

extension AVAudioSession {
    /// Which way a stereo recording's left and right face, as the device is held.
    public enum StereoOrientation: Int, @unchecked Sendable {
        /// The audio session isn't configured for stereo recording.
        case none = 0
        /// Audio capture is vertically oriented, with the connector on the bottom.
        case portrait = 1
        /// Audio capture is vertically oriented, with the connector on the top.
        case portraitUpsideDown = 2
        /// Audio capture is horizontally oriented, with the connector on the right.
        case landscapeRight = 3
        /// Audio capture is horizontally oriented, with the connector on the left.
        case landscapeLeft = 4
    }

    /// The audio session's preferred stereo input orientation.
    public var preferredInputOrientation: StereoOrientation { state.withLock { $0.preferredInputOrientation } }

    /// Sets the audio session's preferred stereo input orientation.
    public func setPreferredInputOrientation(_ orientation: AVAudioSession.StereoOrientation) throws {
        state.withLock { $0.preferredInputOrientation = orientation }
    }

    /// The orientation left and right are captured in: the preferred one while a data source
    /// with the stereo polar pattern is chosen; otherwise `.none`, which is always the case on
    /// Linux, where no microphone describes data sources (a stereo microphone's channels come as
    /// the device gives them).
    public var inputOrientation: StereoOrientation {
        guard currentRoute.inputs.first?.selectedDataSource?.selectedPolarPattern == .stereo else { return .none }
        return preferredInputOrientation
    }
}
