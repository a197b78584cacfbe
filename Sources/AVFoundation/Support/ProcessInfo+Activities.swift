import Foundation

// Apple's Foundation lets an app say what it is doing (a recording, an export) so that the system
// neither sleeps nor ends it meanwhile; swift-corelibs-foundation has none of it. Here activities
// are kept in a list an app can read back; nothing on Linux is asked to stay awake (that is the
// session manager's, through logind, which a capture library does not reach).

extension ProcessInfo {
    /// Options for activities that indicate what the system may and may not do while they last.
    public struct ActivityOptions: OptionSet, Sendable {
        /// The options' bits.
        public let rawValue: UInt64
        /// Creates options from their bits.
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Requires the screen to stay powered on.
        public static let idleDisplaySleepDisabled = ActivityOptions(rawValue: 1 << 40)
        /// Prevents idle sleep.
        public static let idleSystemSleepDisabled = ActivityOptions(rawValue: 1 << 20)
        /// Prevents sudden termination.
        public static let suddenTerminationDisabled = ActivityOptions(rawValue: 1 << 14)
        /// Prevents automatic termination.
        public static let automaticTerminationDisabled = ActivityOptions(rawValue: 1 << 15)
        /// Tracks the activity with an animation signpost interval.
        public static let animationTrackingEnabled = ActivityOptions(rawValue: 1 << 45)
        /// Tracks the activity with a signpost interval.
        public static let trackingEnabled = ActivityOptions(rawValue: 1 << 46)
        /// A flag to indicate the app is performing a user-requested action.
        public static let userInitiated = ActivityOptions(rawValue: 0x00FF_FFFF | (1 << 20))
        /// A flag to indicate the app is responding to user interaction, allowing idle sleep.
        public static let userInitiatedAllowingIdleSystemSleep = ActivityOptions(rawValue: 0x00FF_FFFF & ~(1 << 20))
        /// A flag to indicate the app has initiated a task that does not need to be rushed.
        public static let background = ActivityOptions(rawValue: 0x0000_00FF)
        /// A flag to indicate the activity's timing is critical.
        public static let latencyCritical = ActivityOptions(rawValue: 0xFF_0000_0000)
    }

    /// An activity under way, as `beginActivity(options:reason:)` returns it.
    final class Activity: NSObject, @unchecked Sendable {
        let options: ActivityOptions
        let reason: String
        init(options: ActivityOptions, reason: String) {
            self.options = options
            self.reason = reason
        }
    }

    private static let activities = LockedValue<[ObjectIdentifier: Activity]>([:])

    /// Begins an activity using the given options and reason; end it with `endActivity(_:)`.
    public func beginActivity(options: ActivityOptions = [], reason: String) -> any NSObjectProtocol {
        let activity = Activity(options: options, reason: reason)
        Self.activities.withLock { $0[ObjectIdentifier(activity)] = activity }
        return activity
    }

    /// Ends an activity begun with `beginActivity(options:reason:)`.
    public func endActivity(_ activity: any NSObjectProtocol) {
        guard let activity = activity as? Activity else { return }
        Self.activities.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(activity)) }
    }

    /// Runs a block as an activity: begun before it, ended after it.
    public func performActivity(options: ActivityOptions = [], reason: String, using block: () -> Void) {
        let activity = beginActivity(options: options, reason: reason)
        defer { endActivity(activity) }
        block()
    }

    /// The reasons of the activities under way, in no order (Linux only: Apple's apps cannot read them back).
    public var linuxActiveActivityReasons: [String] { Self.activities.withLock { $0.values.map(\.reason) } }
}
