@_spi(Plumbing) import CoreVideo
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
    @_spi(Plumbing) var _attachmentStorage: CMAttachmentStorage { get }
}

// Pixel buffers carry attachments too (colour, for one), as Core Video buffers do.
extension CVPixelBuffer: CMAttachmentBearer {}

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
    return dictionary.isEmpty ? nil : dictionary as NSDictionary
}
