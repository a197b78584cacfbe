import Foundation

/// The notifications posted while a test runs: their names, threads and user info.
public final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(NSNotification.Name, Bool, [AnyHashable: Any]?)] = []
    private var tokens: [NSObjectProtocol] = []

    /// Starts recording the notifications named, posted by `object` (any object when nil).
    public init(_ names: [NSNotification.Name], object: AnyObject?) {
        for name in names {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [unowned self] note in
                    lock.lock(); entries.append((note.name, Thread.isMainThread, note.userInfo)); lock.unlock()
                })
        }
    }
    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
    /// The names of the notifications recorded, in order.
    public var names: [NSNotification.Name] { lock.lock(); defer { lock.unlock() }; return entries.map(\.0) }
    /// Whether every notification was posted on the main thread.
    public var allOnMainThread: Bool { lock.lock(); defer { lock.unlock() }; return entries.allSatisfy(\.1) }
    /// The user info of the latest notification named `name`.
    public func userInfo(of name: NSNotification.Name) -> [AnyHashable: Any]? {
        lock.lock(); defer { lock.unlock() }; return entries.last { $0.0 == name }?.2
    }
}
