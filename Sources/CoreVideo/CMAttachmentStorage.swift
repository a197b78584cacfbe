import Foundation

// The storage behind Core Media's and Core Video's attachment functions. It lives here, below
// Core Media, so that pixel buffers carry attachments of their own, as CVBuffers do.

/// The attachments of one bearer. Thread-safe; reused without allocation by pooled buffers.
@_spi(Plumbing) public final class CMAttachmentStorage: @unchecked Sendable {
    private struct Entry {
        var key: NSString
        var value: AnyObject
        var mode: UInt32
    }
    private let entries = LockedValue<[Entry]>([])

    /// Creates empty attachments with room for a few entries.
    package init() {
        entries.withLock { $0.reserveCapacity(8) }
    }

    /// Whether an entry's key is `key`: the same constant, or an equal string.
    private static func matches(_ entry: Entry, _ key: NSString) -> Bool { entry.key === key || entry.key.isEqual(key) }

    package func get(_ key: NSString) -> (AnyObject, UInt32)? {
        entries.withLock { entries in
            entries.first(where: { Self.matches($0, key) }).map { ($0.value, $0.mode) }
        }
    }

    package func set(_ key: NSString, _ value: AnyObject, mode: UInt32) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { Self.matches($0, key) }) {
                entries[index].value = value
                entries[index].mode = mode
            } else {
                entries.append(Entry(key: key, value: value, mode: mode))
            }
        }
    }

    package func remove(_ key: NSString) {
        entries.withLock { $0.removeAll(where: { Self.matches($0, key) }) }
    }

    /// Removes every attachment, keeping the storage for reuse.
    package func removeAll() {
        entries.withLock { $0.removeAll(keepingCapacity: true) }
    }

    package func dictionary(mode: UInt32?) -> [String: AnyObject] {
        entries.withLock { entries in
            var result: [String: AnyObject] = [:]
            for entry in entries where mode == nil || entry.mode == mode { result[entry.key as String] = entry.value }
            return result
        }
    }

    /// Sets on `other` every attachment of this storage that propagates, reusing `other`'s entries.
    package func copyPropagating(into other: CMAttachmentStorage) {
        guard other !== self else { return }
        let propagating = entries.withLock { entries in entries.filter { $0.mode == 1 }.map { ($0.key, $0.value) } }
        for (key, value) in propagating { other.set(key, value, mode: 1) }
    }
}
