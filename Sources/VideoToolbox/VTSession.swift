import CoreMedia
import Foundation

/// A reference to any Video Toolbox session: pixel transfer and pixel rotation sessions here.
public typealias VTSession = CFTypeRef

/// A session whose properties `VTSessionSetProperty` and its companions reach.
protocol VTPropertySession: AnyObject {
    /// Sets a property; noErr, or why not.
    func setProperty(_ key: String, _ value: Any?) -> OSStatus
    /// A property's value, or nil when the session does not have it.
    func property(_ key: String) -> Any?
    /// The session's properties, each with a dictionary of what it takes.
    var supportedProperties: [String: Any] { get }
}

/// Sets a property on a Video Toolbox session.
@discardableResult
public func VTSessionSetProperty(_ session: VTSession, key: CFString, value: CFTypeRef?) -> OSStatus {
    guard let session = session as? VTPropertySession else { return kVTParameterErr }
    return session.setProperty(key as String, value)
}

/// Sets several properties on a Video Toolbox session at once, stopping at the first it refuses.
@discardableResult
public func VTSessionSetProperties(_ session: VTSession, propertyDictionary: CFDictionary) -> OSStatus {
    guard let session = session as? VTPropertySession else { return kVTParameterErr }
    for case (let key as String, let value) in propertyDictionary as NSDictionary {
        let status = session.setProperty(key, value)
        if status != noErr { return status }
    }
    return noErr
}

/// Copies a property's value from a Video Toolbox session into `valueOut`, which points to an
/// optional `CFTypeRef` (the caller owns the value).
@discardableResult
public func VTSessionCopyProperty(_ session: VTSession, key: CFString, allocator: CFAllocator?, valueOut: UnsafeMutableRawPointer?) -> OSStatus {
    guard let session = session as? VTPropertySession, let valueOut else { return kVTParameterErr }
    guard let value = session.property(key as String) else { return kVTPropertyNotSupportedErr }
    valueOut.assumingMemoryBound(to: CFTypeRef?.self).pointee = value as CFTypeRef
    return noErr
}

/// Copies the dictionary of a session's properties, each with what it takes.
@discardableResult
public func VTSessionCopySupportedPropertyDictionary(_ session: VTSession, supportedPropertyDictionaryOut: UnsafeMutablePointer<CFDictionary?>) -> OSStatus {
    guard let session = session as? VTPropertySession else { return kVTParameterErr }
    supportedPropertyDictionaryOut.pointee = session.supportedProperties as NSDictionary
    return noErr
}

/// The key of a supported property's description: the kind of value it takes.
nonisolated(unsafe) public let kVTPropertyTypeKey: CFString = "PropertyType"
/// A property that takes one of the listed values.
nonisolated(unsafe) public let kVTPropertyType_Enumeration: CFString = "Enumeration"
/// A property that takes a Boolean.
nonisolated(unsafe) public let kVTPropertyType_Boolean: CFString = "Boolean"
/// A property that takes a number.
nonisolated(unsafe) public let kVTPropertyType_Number: CFString = "Number"
/// The key of the values an enumeration property takes.
nonisolated(unsafe) public let kVTPropertySupportedValueListKey: CFString = "SupportedValueList"
/// The key of whether a property can be set.
nonisolated(unsafe) public let kVTPropertyReadWriteStatusKey: CFString = "ReadWriteStatus"
/// A property that can be read only.
nonisolated(unsafe) public let kVTPropertyReadWriteStatus_ReadOnly: CFString = "ReadOnly"
/// A property that can be read and set.
nonisolated(unsafe) public let kVTPropertyReadWriteStatus_ReadWrite: CFString = "ReadWrite"

/// A supported property's description: an enumeration of `values`.
func enumerationProperty(_ values: [String]) -> [String: Any] {
    [
        kVTPropertyTypeKey as String: kVTPropertyType_Enumeration, kVTPropertySupportedValueListKey as String: values,
        kVTPropertyReadWriteStatusKey as String: kVTPropertyReadWriteStatus_ReadWrite,
    ]
}

/// A supported property's description: a Boolean.
func booleanProperty() -> [String: Any] {
    [kVTPropertyTypeKey as String: kVTPropertyType_Boolean, kVTPropertyReadWriteStatusKey as String: kVTPropertyReadWriteStatus_ReadWrite]
}
