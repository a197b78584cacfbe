import CaptureDevices
import CoreVideo
import Foundation

extension AVAudioSession {
    /// Posted when another audio user interrupts the application's audio and when the
    /// interruption ends: a microphone the sound server suspends, and resumes.
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the audio route changes: a microphone or an output arrives or leaves, the
    /// default output or the category changes, or the route is overridden.
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when the media services went away: the sound server stopped under a recording.
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
    /// Posted when the media services came back after being lost: the sound server's microphones returned.
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    /// Posted when another application's primary audio starts or stops; not posted on Linux.
    public static let silenceSecondaryAudioHintNotification = Notification.Name("AVAudioSessionSilenceSecondaryAudioHintNotification")

    /// Whether an interruption began or ended.
    public enum InterruptionType: UInt, Sendable {
        /// The interruption ended.
        case ended = 0
        /// The interruption began.
        case began = 1
    }

    /// What the application may do when an interruption ends.
    public struct InterruptionOptions: OptionSet, Sendable {
        /// The value's raw representation.
        public let rawValue: UInt
        /// Creates options from their raw representation.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The application may resume its audio.
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// Why the route changed.
    public enum RouteChangeReason: UInt, Sendable {
        /// The reason is unknown.
        case unknown = 0
        /// A device became available, such as a microphone plugged in.
        case newDeviceAvailable = 1
        /// The device in use went away.
        case oldDeviceUnavailable = 2
        /// The category changed.
        case categoryChange = 3
        /// The route was overridden.
        case override = 4
        /// The device woke from sleep.
        case wakeFromSleep = 6
        /// No route suits the category.
        case noSuitableRouteForCategory = 7
        /// The route's configuration changed.
        case routeConfigurationChange = 8
    }

    /// Whether the media services are lost (a microphone's server stopped), until one comes back.
    private static let servicesLost = LockedValue(false)

    /// Where microphones' events become notifications: not on the thread that reports them, which
    /// may be inside device discovery (its lock held) when it finds a microphone gone, while
    /// telling the route asks discovery again.
    private static let events = DispatchQueue(label: "AVAudioSession notifications")

    /// A microphone's event, as the audio session's notifications (on the main queue).
    package static func audioDevice(_ device: CaptureDeviceBackend, didReport event: CaptureDeviceEvent) {
        events.async { tell(device, event) }
    }

    private static func tell(_ device: CaptureDeviceBackend, _ event: CaptureDeviceEvent) {
        let session = sharedInstance()
        switch event {
        case .disconnected:
            postRouteChange(
                .oldDeviceUnavailable, previous: AVAudioSessionRouteDescription(inputs: [AVAudioSessionPortDescription(backend: device)], outputs: []))
        case .reconnected:
            let wasLost = servicesLost.withLock { lost -> Bool in
                defer { lost = false }
                return lost
            }
            if wasLost { MainThreadPoster.post(mediaServicesWereResetNotification, object: session) }
            postRouteChange(.newDeviceAvailable, previous: nil)
        case .runtimeError(let code) where code == -11819:
            servicesLost.withLock { $0 = true }
            MainThreadPoster.post(mediaServicesWereLostNotification, object: session)
        case .interrupted:
            MainThreadPoster.post(interruptionNotification, object: session, userInfo: [AVAudioSessionInterruptionTypeKey: InterruptionType.began.rawValue])
        case .interruptionEnded:
            MainThreadPoster.post(
                interruptionNotification, object: session,
                userInfo: [
                    AVAudioSessionInterruptionTypeKey: InterruptionType.ended.rawValue,
                    AVAudioSessionInterruptionOptionKey: InterruptionOptions.shouldResume.rawValue,
                ])
        default:
            break
        }
    }

    /// The sound server's sinks changed: a route change when the route's sink (or its port) went
    /// away or another took its place, or when a sink arrived.
    static func outputsChanged(from before: [SoundOutputPort], to after: [SoundOutputPort]) {
        let session = sharedInstance()
        let (was, now) = (PulseSinks.routeSink(in: before)?.routeKey, PulseSinks.routeSink(in: after)?.routeKey)
        let reason: RouteChangeReason
        if was != now {
            if let was, !after.contains(where: { $0.routeKey == was }) {
                reason = .oldDeviceUnavailable
            } else if let now, !before.contains(where: { $0.routeKey == now }) {
                reason = .newDeviceAvailable
            } else {
                reason = .routeConfigurationChange
            }
        } else if after.contains(where: { sink in !before.contains { $0.routeKey == sink.routeKey } }) {
            reason = .newDeviceAvailable
        } else {
            return
        }
        events.async { postRouteChange(reason, previous: session.route(outputs: before)) }
    }

    /// A microphone arrived that was not there before.
    package static func audioDeviceArrived() { events.async { postRouteChange(.newDeviceAvailable, previous: nil) } }

    /// Posts a route change with the route before it (nil: the route as it is).
    static func postRouteChange(_ reason: RouteChangeReason, previous: AVAudioSessionRouteDescription?) {
        let session = sharedInstance()
        let before = previous ?? session.currentRoute
        MainThreadPoster.post(
            routeChangeNotification, object: session,
            userInfo: [AVAudioSessionRouteChangeReasonKey: reason.rawValue, AVAudioSessionRouteChangePreviousRouteKey: before])
    }
}

/// The interruption notification's key for its type: an `AVAudioSession.InterruptionType` raw value.
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// The interruption notification's key for what the application may do when it ends: `InterruptionOptions` raw value.
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
/// The interruption notification's key for why it began.
public let AVAudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
/// The route change notification's key for its reason: an `AVAudioSession.RouteChangeReason` raw value.
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// The route change notification's key for the route before the change: an `AVAudioSessionRouteDescription`.
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
