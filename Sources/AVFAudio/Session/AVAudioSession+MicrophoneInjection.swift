import Foundation

extension AVAudioSession {
    /// The kind of audio an application may inject into the microphone input of calls.
    public enum MicrophoneInjectionMode: Int, @unchecked Sendable {
        /// No injection.
        case none = 0
        /// Spoken audio, such as synthesized speech.
        case spokenAudio = 1
    }

    /// Posted when the availability of microphone injection changes; the user info's
    /// `AVAudioSessionMicrophoneInjectionIsAvailableKey` says whether it is available. Linux has
    /// no service that injects into other applications' calls, so it is never posted.
    public static let microphoneInjectionCapabilitiesChangeNotification = Notification.Name(
        "AVAudioSessionMicrophoneInjectionCapabilitiesChangeNotification")

    /// The kind of microphone injection the application prefers.
    public var preferredMicrophoneInjectionMode: MicrophoneInjectionMode { state.withLock { $0.microphoneInjectionMode } }

    /// Sets the kind of microphone injection the application prefers; kept, and used when the
    /// service is available.
    public func setPreferredMicrophoneInjectionMode(_ inValue: AVAudioSession.MicrophoneInjectionMode) throws {
        state.withLock { $0.microphoneInjectionMode = inValue }
    }

    /// Whether microphone injection is available: false on Linux, where no system service adds
    /// an application's audio to calls.
    public var isMicrophoneInjectionAvailable: Bool { false }
}

/// The microphone injection notification's key: an `NSNumber` Boolean, whether injection is available.
public let AVAudioSessionMicrophoneInjectionIsAvailableKey: String = "AVAudioSessionMicrophoneInjectionIsAvailableKey"
