import Foundation
import OpenCombine

extension NotificationCenter {
    /// Returns a publisher that emits the notifications of a name, posted by an object or by any.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits the notifications a center posts of a name, on the posting thread,
    /// from the moment it is subscribed to; a subscriber with no demand misses them.
    public struct Publisher: OpenCombine.Publisher, Equatable, @unchecked Sendable {
        /// The notifications posted.
        public typealias Output = Notification
        /// Notifications do not fail.
        public typealias Failure = Never

        /// The center whose notifications are published.
        public let center: NotificationCenter
        /// The name of the notifications published.
        public let name: Notification.Name
        /// The object whose notifications are published, or nil for any object's.
        public let object: AnyObject?

        /// Creates a publisher of a center's notifications.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Attaches a subscriber, which receives the notifications posted while it has demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(AnySubscriber(subscriber), center: center)
            subscriber.receive(subscription: subscription)
            subscription.observe(name: name, object: object)
        }

        /// Whether two publishers publish the same center's notifications of the same name and object.
        public static func == (lhs: Publisher, rhs: Publisher) -> Bool {
            lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
        }
    }
}

/// One subscriber's observation of a notification center.
private final class NotificationSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<Notification, Never>?
    private var demand = Subscribers.Demand.none
    private var token: (any NSObjectProtocol)?
    private let center: NotificationCenter

    init(_ downstream: AnySubscriber<Notification, Never>, center: NotificationCenter) {
        self.downstream = downstream
        self.center = center
    }

    func observe(name: Notification.Name, object: AnyObject?) {
        let token = center.addObserver(forName: name, object: object, queue: nil) { [weak self] note in self?.send(note) }
        let cancelled = lock.withLock { () -> Bool in
            guard downstream != nil else { return true }
            self.token = token
            return false
        }
        if cancelled { center.removeObserver(token) }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { self.demand += demand }
    }

    func cancel() {
        let token = lock.withLock { () -> (any NSObjectProtocol)? in
            downstream = nil
            defer { self.token = nil }
            return self.token
        }
        if let token { center.removeObserver(token) }
    }

    private func send(_ note: Notification) {
        let target = lock.withLock { () -> AnySubscriber<Notification, Never>? in
            guard let downstream, demand > 0 else { return nil }
            demand -= 1
            return downstream
        }
        guard let target else { return }
        let more = target.receive(note)
        if more > 0 { lock.withLock { demand += more } }
    }
}
