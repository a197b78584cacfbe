import Foundation
import UniformTypeIdentifiers

// Core Services' C functions over type identifiers, as code written before UTType calls them.
// Identifiers, tags and classes are CFStrings; what a Create or Copy function returns is retained
// for the caller (`takeRetainedValue()`), as Core Foundation's Create rule says.

/// The type a tag names (a filename extension or MIME type, by `inTagClass`) that conforms to
/// `inConformingToUTI` when given; a dynamic identifier for a tag no type declares; nil for a tag class it does not know.
public func UTTypeCreatePreferredIdentifierForTag(_ inTagClass: CFString, _ inTag: CFString, _ inConformingToUTI: CFString?) -> Unmanaged<CFString>? {
    let supertype = inConformingToUTI.flatMap { UTType($0 as String) } ?? .data
    let type: UTType?
    switch inTagClass {
    case kUTTagClassFilenameExtension: type = UTType(filenameExtension: inTag as String, conformingTo: supertype)
    case kUTTagClassMIMEType: type = UTType(mimeType: inTag as String, conformingTo: supertype)
    default: return nil
    }
    return type.map { Unmanaged.passRetained($0.identifier as NSString) }
}

/// The preferred tag of a class (filename extension or MIME type) for a type; nil when it has none.
public func UTTypeCopyPreferredTagWithClass(_ inUTI: CFString, _ inTagClass: CFString) -> Unmanaged<CFString>? {
    guard let type = UTTypeLookup.type(inUTI) else { return nil }
    let tag: String?
    switch inTagClass {
    case kUTTagClassFilenameExtension: tag = type.preferredFilenameExtension
    case kUTTagClassMIMEType: tag = type.preferredMIMEType
    default: tag = nil
    }
    return tag.map { Unmanaged.passRetained($0 as NSString) }
}

/// Whether a type conforms to another, directly or through the types above it.
public func UTTypeConformsTo(_ inUTI: CFString, _ inConformsToUTI: CFString) -> Bool {
    guard let type = UTTypeLookup.type(inUTI), let other = UTTypeLookup.type(inConformsToUTI) else { return inUTI == inConformsToUTI }
    return type.conforms(to: other)
}

/// Whether two identifiers name the same type.
public func UTTypeEqual(_ inUTI1: CFString, _ inUTI2: CFString) -> Bool { (inUTI1 as String).lowercased() == (inUTI2 as String).lowercased() }

/// Whether an identifier is one the system generated for a tag no type declares.
public func UTTypeIsDynamic(_ inUTI: CFString) -> Bool { (inUTI as String).hasPrefix("dyn.") }

/// Whether the system declares the type.
public func UTTypeIsDeclared(_ inUTI: CFString) -> Bool { UTType(inUTI as String)?.isDeclared ?? false }

/// Types named by identifier, the dynamic ones included.
enum UTTypeLookup {
    /// The type an identifier names: a declared type, or the dynamic one a tag was given.
    static func type(_ identifier: CFString) -> UTType? {
        let name = identifier as String
        if let declared = UTType(name) { return declared }
        if name.hasPrefix("dyn.filename-extension.") { return UTType(filenameExtension: String(name.dropFirst("dyn.filename-extension.".count))) }
        if name.hasPrefix("dyn.mime-type.") { return UTType(mimeType: String(name.dropFirst("dyn.mime-type.".count))) }
        return nil
    }
}
