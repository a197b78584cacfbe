import AVFoundation

/// A voice call's audio as iOS apps set it up: play-and-record for voice chat, a speakerphone
/// button that overrides the output to the speaker, and the route changes that say when
/// headphones were plugged in or pulled out (Apple's "Responding to audio route changes").
public final class SpeakerphoneCall: @unchecked Sendable {
    private let session = AVAudioSession.sharedInstance()
    private var observer: NSObjectProtocol?
    private let lock = NSLock()
    private var events: [String] = []

    public init() {}

    /// What the call heard of the route: "headphones connected", "headphones disconnected", "speaker".
    public var routeEvents: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    public func start() throws {
        try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.allowBluetooth])
        try session.setActive(true)
        observer = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: .main) {
            [weak self] notification in
            self?.handleRouteChange(notification)
        }
    }

    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        try? session.overrideOutputAudioPort(.none)
        try? session.setActive(false, options: .notifyOthersOnDeactivation)
    }

    /// The speakerphone button.
    public func setSpeakerphone(_ on: Bool) throws {
        try session.overrideOutputAudioPort(on ? .speaker : .none)
    }

    /// Where the call's sound goes now.
    public var outputPortType: AVAudioSession.Port? { session.currentRoute.outputs.first?.portType }

    private func handleRouteChange(_ notification: Notification) {
        guard let userInfo = notification.userInfo,
            let reasonValue = userInfo[AVAudioSessionRouteChangeReasonKey] as? UInt,
            let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue)
        else { return }
        var event: String?
        switch reason {
        case .newDeviceAvailable, .routeConfigurationChange:
            if hasHeadphones(in: session.currentRoute) { event = "headphones connected" }
        case .oldDeviceUnavailable:
            if let previousRoute = userInfo[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription,
                hasHeadphones(in: previousRoute)
            {
                event = "headphones disconnected"
            }
        case .override:
            if session.currentRoute.outputs.contains(where: { $0.portType == .builtInSpeaker }) { event = "speaker" }
        default:
            break
        }
        guard let event else { return }
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    private func hasHeadphones(in routeDescription: AVAudioSessionRouteDescription) -> Bool {
        !routeDescription.outputs.filter({ $0.portType == .headphones }).isEmpty
    }
}
