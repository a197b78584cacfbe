import Foundation
import Synchronization

/// Whether an attachment propagates to derived buffers.
public typealias CMAttachmentMode = UInt32
/// The attachment does not propagate.
public let kCMAttachmentMode_ShouldNotPropagate: CMAttachmentMode = 0
/// The attachment propagates.
public let kCMAttachmentMode_ShouldPropagate: CMAttachmentMode = 1

/// An object that carries attachments: keyed values that travel with it.
public protocol CMAttachmentBearer: AnyObject {
    /// The bearer's attachments; use `CMGetAttachment` and `CMSetAttachment`.
    var _attachmentStorage: CMAttachmentStorage { get }
}

/// The attachments of one bearer. Thread-safe; reused without allocation by pooled buffers.
public final class CMAttachmentStorage: @unchecked Sendable {
    private struct Entry {
        var key: String
        var value: AnyObject
        var mode: CMAttachmentMode
    }
    private let entries = LockedValue<[Entry]>([])

    /// Creates empty attachments with room for a few entries.
    package init() {
        entries.withLock { $0.reserveCapacity(4) }
    }

    package func get(_ key: String) -> (AnyObject, CMAttachmentMode)? {
        entries.withLock { entries in
            entries.first(where: { $0.key == key }).map { ($0.value, $0.mode) }
        }
    }

    package func set(_ key: String, _ value: AnyObject, mode: CMAttachmentMode) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].value = value
                entries[index].mode = mode
            } else {
                entries.append(Entry(key: key, value: value, mode: mode))
            }
        }
    }

    package func remove(_ key: String) {
        entries.withLock { $0.removeAll(where: { $0.key == key }) }
    }

    /// Removes every attachment, keeping the storage for reuse.
    package func removeAll() {
        entries.withLock { $0.removeAll(keepingCapacity: true) }
    }

    package func dictionary(mode: CMAttachmentMode?) -> [String: AnyObject] {
        entries.withLock { entries in
            var result: [String: AnyObject] = [:]
            for entry in entries where mode == nil || entry.mode == mode { result[entry.key] = entry.value }
            return result
        }
    }
}

/// Returns the attachment for a key, and how it propagates.
public func CMGetAttachment(_ target: CMAttachmentBearer, key: CFString, attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?) -> CFTypeRef? {
    guard let (value, mode) = target._attachmentStorage.get(key) else { return nil }
    attachmentModeOut?.pointee = mode
    return value
}

/// Sets the attachment for a key; a `nil` value removes it.
public func CMSetAttachment(_ target: CMAttachmentBearer, key: CFString, value: CFTypeRef?, attachmentMode: CMAttachmentMode) {
    if let value {
        target._attachmentStorage.set(key, value, mode: attachmentMode)
    } else {
        target._attachmentStorage.remove(key)
    }
}

/// Removes the attachment for a key.
public func CMRemoveAttachment(_ target: CMAttachmentBearer, key: CFString) {
    target._attachmentStorage.remove(key)
}

/// Removes every attachment.
public func CMRemoveAllAttachments(_ target: CMAttachmentBearer) {
    target._attachmentStorage.removeAll()
}

/// Returns the attachments with the given propagation mode as a dictionary.
public func CMCopyDictionaryOfAttachments(allocator: CFAllocator?, target: CMAttachmentBearer, attachmentMode: CMAttachmentMode) -> CFDictionary? {
    let dictionary = target._attachmentStorage.dictionary(mode: attachmentMode)
    return dictionary.isEmpty ? nil : dictionary
}
