import CaptureDevices
import CoreVideo
import Foundation

/// The application's audio: its permission to record, and whether its input is muted.
open class AVAudioApplication: NSObject, @unchecked Sendable {
    /// Whether the application may record.
    public enum recordPermission: Int, @unchecked Sendable {
        /// Not asked yet.
        case undetermined = 1_970_168_948
        /// Refused.
        case denied = 1_684_369_017
        /// Allowed.
        case granted = 1_735_552_628
    }

    /// Posted when the input is muted or unmuted; `muteStateKey` in the user info says which.
    public static let inputMuteStateChangeNotification = Notification.Name("AVAudioApplicationInputMuteStateChangeNotification")
    /// The key of the mute notification's user info: an `NSNumber` Boolean, true when muted.
    public static let muteStateKey = "AVAudioApplicationMuteStateKey"

    private static let instance = AVAudioApplication()
    /// Taken while the mute state changes, so that each change is posted once.
    private let muting = NSLock()

    private override init() { super.init() }

    /// The application's audio.
    open class var shared: AVAudioApplication { instance }

    /// Whether the application may record: granted unless the microphone's device refuses it
    /// (a sound card the user may not open); Linux asks no one.
    open var recordPermission: AVAudioApplication.recordPermission {
        guard let microphone = Microphones.current() else { return .granted }
        return microphone.isAuthorized ? .granted : .denied
    }

    /// Asks for permission to record; the handler hears the answer on an arbitrary queue.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        let granted = shared.recordPermission == .granted
        DispatchQueue.global().async { response(granted) }
    }

    /// Asks for permission to record.
    open class func requestRecordPermission() async -> Bool { shared.recordPermission == .granted }

    /// The application's permission to add audio to calls.
    public enum MicrophoneInjectionPermission: Int, @unchecked Sendable {
        /// A person disables this service for all apps: 'srds'.
        case serviceDisabled = 1_936_876_659
        /// Not asked yet.
        case undetermined = 1_970_168_948
        /// Refused.
        case denied = 1_684_369_017
        /// Allowed.
        case granted = 1_735_552_628
    }

    /// The application's permission to add audio to calls: `.serviceDisabled`, as Linux has no
    /// service that injects into other applications' calls.
    open var microphoneInjectionPermission: AVAudioApplication.MicrophoneInjectionPermission { .serviceDisabled }

    /// Requests the application's permission to add audio to calls; the handler hears the answer
    /// (at once, as the service is disabled) on an arbitrary queue.
    open class func requestMicrophoneInjectionPermission(
        completionHandler response: @escaping @Sendable (AVAudioApplication.MicrophoneInjectionPermission) -> Void
    ) {
        let permission = shared.microphoneInjectionPermission
        DispatchQueue.global().async { response(permission) }
    }

    /// Requests the application's permission to add audio to calls.
    open class func requestMicrophoneInjectionPermission() async -> AVAudioApplication.MicrophoneInjectionPermission {
        shared.microphoneInjectionPermission
    }

    /// Whether the application's input is muted: recorders and engines then hear silence.
    open var isInputMuted: Bool { AudioPreferences.isInputMuted }

    /// Mutes or unmutes the application's input, and posts the change.
    open func setInputMuted(_ muted: Bool) throws {
        let changed = muting.withLock { () -> Bool in
            defer { AudioPreferences.isInputMuted = muted }
            return AudioPreferences.isInputMuted != muted
        }
        guard changed else { return }
        NotificationCenter.default.post(name: Self.inputMuteStateChangeNotification, object: self, userInfo: [Self.muteStateKey: NSNumber(value: muted)])
    }
}
