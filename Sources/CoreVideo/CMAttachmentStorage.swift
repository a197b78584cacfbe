import Foundation
import Synchronization

// The storage behind Core Media's and Core Video's attachment functions. It lives here, below
// Core Media, so that pixel buffers carry attachments of their own, as CVBuffers do.

/// The attachments of one bearer. Thread-safe; reused without allocation by pooled buffers.
@_spi(Plumbing) public final class CMAttachmentStorage: @unchecked Sendable {
    /// An attachment's value: an object, or an integer kept as it is until it is read as an
    /// object (a frame's time, set on every frame, costs no `NSNumber` unless someone asks).
    private enum Value {
        case object(AnyObject)
        case integer(Int64)

        var object: AnyObject {
            switch self {
            case .object(let object): object
            case .integer(let value): NSNumber(value: value)
            }
        }
    }
    private struct Entry {
        var key: NSString
        var value: Value
        var mode: UInt32
    }
    /// Guards `storage`; held inline, so that a new bearer (a sample buffer a frame) costs one
    /// allocation, its own, until an attachment is set.
    private let lock = Mutex(())
    /// The entries, read and written only under `lock`.
    private nonisolated(unsafe) var storage: [Entry] = []

    /// Creates empty attachments.
    package init() {}

    /// Runs `body` with the entries, under the lock.
    @inline(__always)
    private func withEntries<R>(_ body: (inout [Entry]) -> R) -> R {
        lock.withLock { _ in body(&storage) }
    }

    /// Whether an entry's key is `key`: the same constant, or an equal string.
    private static func matches(_ entry: Entry, _ key: NSString) -> Bool { entry.key === key || entry.key.isEqual(key) }

    package func get(_ key: NSString) -> (AnyObject, UInt32)? {
        withEntries { entries in
            entries.first(where: { Self.matches($0, key) }).map { ($0.value.object, $0.mode) }
        }
    }

    /// The integer an attachment holds (set as one, or a number), without making an object of it.
    package func integer(_ key: NSString) -> Int64? {
        withEntries { entries in
            switch entries.first(where: { Self.matches($0, key) })?.value {
            case .integer(let value)?: value
            case .object(let object)?: (object as? NSNumber)?.int64Value
            case nil: nil
            }
        }
    }

    package func set(_ key: NSString, _ value: AnyObject, mode: UInt32) {
        set(key, .object(value), mode: mode)
    }

    /// Sets an integer attachment, read as an `NSNumber`; reusing a pooled buffer's entry, it allocates nothing.
    package func set(_ key: NSString, integer: Int64, mode: UInt32) {
        set(key, .integer(integer), mode: mode)
    }

    private func set(_ key: NSString, _ value: Value, mode: UInt32) {
        withEntries { entries in
            if let index = entries.firstIndex(where: { Self.matches($0, key) }) {
                entries[index].value = value
                entries[index].mode = mode
            } else {
                entries.append(Entry(key: key, value: value, mode: mode))
            }
        }
    }

    package func remove(_ key: NSString) {
        withEntries { $0.removeAll(where: { Self.matches($0, key) }) }
    }

    /// Removes every attachment, keeping the storage for reuse.
    package func removeAll() {
        withEntries { $0.removeAll(keepingCapacity: true) }
    }

    package func dictionary(mode: UInt32?) -> [String: AnyObject] {
        withEntries { entries in
            var result: [String: AnyObject] = [:]
            for entry in entries where mode == nil || entry.mode == mode { result[entry.key as String] = entry.value.object }
            return result
        }
    }

    /// Sets on `other` every attachment of this storage that propagates, reusing `other`'s entries.
    package func copyPropagating(into other: CMAttachmentStorage) {
        guard other !== self else { return }
        let propagating = withEntries { entries in entries.filter { $0.mode == 1 }.map { ($0.key, $0.value) } }
        for (key, value) in propagating { other.set(key, value, mode: 1) }
    }
}
