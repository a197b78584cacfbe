import CoreVideo
import Foundation

/// The values a key-value observation's change carries.
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    /// The options' raw value.
    public let rawValue: UInt
    /// Creates options from their raw value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The change carries the new value.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// The change carries the old value.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// The handler is called once at once, with the current value.
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// The handler is also called before each change.
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}

/// The kind of a key-value change.
public enum NSKeyValueChange: UInt, Sendable {
    /// The value was set.
    case setting = 1
    /// Objects were inserted into a collection.
    case insertion = 2
    /// Objects were removed from a collection.
    case removal = 3
    /// Objects in a collection were replaced.
    case replacement = 4
}

/// The keys of a change dictionary that string key-path observation hands its observer.
public struct NSKeyValueChangeKey: Hashable, RawRepresentable, Sendable {
    /// The key's name.
    public let rawValue: String

    /// The key of the name given.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The key of the name given.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The kind of change, an `NSKeyValueChange`'s raw value.
    public static let kindKey = NSKeyValueChangeKey(rawValue: "kind")
    /// The value after the change.
    public static let newKey = NSKeyValueChangeKey(rawValue: "new")
    /// The value before the change.
    public static let oldKey = NSKeyValueChangeKey(rawValue: "old")
    /// The indexes of the objects a collection change inserted, removed or replaced.
    public static let indexesKey = NSKeyValueChangeKey(rawValue: "indexes")
    /// Whether the notification comes before the change.
    public static let notificationIsPriorKey = NSKeyValueChangeKey(rawValue: "notificationIsPrior")
}

/// One change of an observed property.
public struct NSKeyValueObservedChange<Value> {
    /// The kind of change.
    public let kind: NSKeyValueChange
    /// The new value, if the observation asked for it.
    public let newValue: Value?
    /// The old value, if the observation asked for it.
    public let oldValue: Value?
    /// The indexes of a collection change.
    public let indexes: IndexSet?
    /// Whether this call comes before the change.
    public let isPrior: Bool
}

/// An observation of a property; it ends when invalidated or deallocated.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    private let cancel: @Sendable () -> Void
    private let done = LockedValue(false)

    init(cancel: @escaping @Sendable () -> Void) {
        self.cancel = cancel
    }

    /// Ends the observation.
    public func invalidate() {
        let first = done.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { cancel() }
    }

    deinit { invalidate() }
}

/// An object whose properties can be observed with `observe(_:options:changeHandler:)`.
///
/// Linux's Foundation has no key-value observing, so AVFoundation's objects offer the same
/// spelling themselves. Handlers run on the thread that made the change, with no lock held:
/// the caller's thread for changes a client makes, a device's own thread for changes the
/// device makes over time (focus, exposure, white balance settling; zoom ramps).
public protocol _KeyValueObservable: AnyObject {
    /// The registry of the object's observations.
    @_spi(Plumbing) var _observations: KeyValueObservationRegistry { get }
}

/// The observations of one object. Thread-safe.
@_spi(Plumbing) public final class KeyValueObservationRegistry: @unchecked Sendable {
    private struct Entry {
        var keyPath: AnyKeyPath
        var fire: () -> Void
    }
    private let entries = LockedValue<[Int: Entry]>([:])
    private let nextID = LockedValue(0)

    /// Creates an empty registry.
    public init() {}

    func add(keyPath: AnyKeyPath, fire: @escaping () -> Void) -> Int {
        let id = nextID.withLock { id -> Int in
            id += 1; return id
        }
        entries.withLock { $0[id] = Entry(keyPath: keyPath, fire: fire) }
        return id
    }

    func remove(_ id: Int) {
        entries.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Tells the observers of these key paths that their values changed.
    package func didChange(_ keyPaths: [AnyKeyPath]) {
        guard !keyPaths.isEmpty else { return }
        let fires = entries.withLock { entries in
            entries.sorted(by: { $0.key < $1.key }).filter { keyPaths.contains($0.value.keyPath) }.map(\.value.fire)
        }
        for fire in fires { fire() }
    }

    /// Whether anything observes the object.
    package var isEmpty: Bool { entries.withLock { $0.isEmpty } }
}

extension KeyValueObservationRegistry {
    /// Observes the value `read` gives for `keyPath`: `deliver` runs after each change with the
    /// options' old and new values, and at once with `.initial`. `read` returns nil when the
    /// observed object is gone, and then nothing is delivered.
    func observe<Value>(
        _ keyPath: AnyKeyPath, options: NSKeyValueObservingOptions, read: @escaping () -> Value??,
        deliver: @escaping (NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let last = LockedValue<Value?>(read() ?? nil)
        let id = add(keyPath: keyPath) {
            guard let new = read() else { return }
            let old = last.withLock { last -> Value? in
                defer { last = new }
                return last
            }
            deliver(
                NSKeyValueObservedChange(
                    kind: .setting, newValue: options.contains(.new) ? new : nil,
                    oldValue: options.contains(.old) ? old : nil, indexes: nil, isPrior: false))
        }
        if options.contains(.initial), let now = read() {
            deliver(NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? now : nil, oldValue: nil, indexes: nil, isPrior: false))
        }
        return NSKeyValueObservation { [self] in remove(id) }
    }
}

extension _KeyValueObservable {
    /// Observes a property: `changeHandler` runs after each change of its value.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        nonisolated(unsafe) let path = keyPath
        return _observations.observe(
            keyPath, options: options,
            read: { [weak self] () -> Value?? in
                guard let self else { return .none }  // gone: nothing to deliver
                return .some(self[keyPath: path])
            },
            deliver: { [weak self] change in if let self { changeHandler(self, change) } })
    }
}

extension NSObject {
    /// Tells observers by string key path that the value of `key` is about to change. Linux has
    /// no observation by string key path, so nothing hears it: exporters and players that call it
    /// around their own properties compile and run unchanged.
    public func willChangeValue(forKey key: String) {}

    /// Tells observers by string key path that the value of `key` has changed; nothing hears it on Linux.
    public func didChangeValue(forKey key: String) {}
}
