/// A structure that represents a type of data to load, send, or receive.
///
/// The types this system declares are those media code names (images, movies, sound and the
/// abstract types above them); an extension or MIME type it does not know gives a dynamic type.
public struct UTType: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The string that represents the type.
    public let identifier: String
    private let declaration: Declaration?

    private init(declaration: Declaration) {
        identifier = declaration.identifier
        self.declaration = declaration
    }

    private init(dynamicIdentifier: String, tags: [UTTagClass: [String]], supertype: UTType) {
        identifier = dynamicIdentifier
        declaration = Declaration(identifier: dynamicIdentifier, parents: [supertype.identifier], tags: tags, isDynamic: true)
    }

    /// Creates a type based on an identifier; nil when the system doesn't know the identifier.
    public init?(_ identifier: String) {
        guard let declaration = Declaration.byIdentifier[identifier.lowercased()] else { return nil }
        self.init(declaration: declaration)
    }

    /// Creates a type that represents the specified filename extension and conforms to a supertype.
    ///
    /// An extension the system does not know gives a dynamic type; nil when the known type does
    /// not conform to `supertype`.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension.lowercased(), of: .filenameExtension, conformingTo: supertype)
    }

    /// Creates a type that represents the specified MIME type and conforms to a supertype.
    ///
    /// A MIME type the system does not know gives a dynamic type; nil when the known type does
    /// not conform to `supertype`.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType.lowercased(), of: .mimeType, conformingTo: supertype)
    }

    /// The declared type a tag names that conforms to `supertype`; a dynamic type for a tag no type
    /// declares; nil when the types that declare it do not conform.
    private init?(tag: String, of tagClass: UTTagClass, conformingTo supertype: UTType) {
        guard let declared = Declaration.byTag[tagClass]?[tag] else {
            self.init(
                dynamicIdentifier: "dyn.\(tagClass == .mimeType ? "mime-type" : "filename-extension").\(tag)", tags: [tagClass: [tag]], supertype: supertype)
            return
        }
        guard let declaration = declared.first(where: { UTType(declaration: $0).conforms(to: supertype) }) else { return nil }
        self.init(declaration: declaration)
    }

    /// The preferred filename extension for the type.
    public var preferredFilenameExtension: String? { tags[.filenameExtension]?.first }
    /// The preferred MIME type for the type.
    public var preferredMIMEType: String? { tags[.mimeType]?.first }
    /// The tag specification dictionary of the type.
    public var tags: [UTTagClass: [String]] { declaration?.tags ?? [:] }
    /// A Boolean value that indicates whether the system declares the type.
    public var isDeclared: Bool { declaration?.isDynamic == false }
    /// A Boolean value that indicates whether the system generates the type.
    public var isDynamic: Bool { declaration?.isDynamic ?? true }
    /// A Boolean value that indicates whether the type is in the public domain.
    public var isPublic: Bool { isDeclared && identifier.hasPrefix("public.") }

    /// The set of types the type directly or indirectly conforms to.
    public var supertypes: Set<UTType> {
        var found: Set<UTType> = []
        var pending = declaration?.parents ?? []
        while let next = pending.popLast() {
            guard let parent = UTType(next), found.insert(parent).inserted else { continue }
            pending += parent.declaration?.parents ?? []
        }
        return found
    }

    /// Returns a Boolean value that indicates whether a type conforms to the type you specify.
    public func conforms(to type: UTType) -> Bool { self == type || supertypes.contains(type) }
    /// Returns a Boolean value that indicates whether a type is higher in a hierarchy than the type you specify.
    public func isSupertype(of type: UTType) -> Bool { self != type && type.conforms(to: self) }
    /// Returns a Boolean value that indicates whether a type is lower in a hierarchy than the type you specify.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// The type's identifier.
    public var description: String { identifier }
    /// The type's identifier, for debugging.
    public var debugDescription: String { "UTType(\(identifier))" }

    /// Two types are equal when their identifiers are.
    public static func == (lhs: UTType, rhs: UTType) -> Bool { lhs.identifier == rhs.identifier }
    /// Hashes the type's identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

/// A type that represents tag classes.
public struct UTTagClass: RawRepresentable, Hashable, Sendable {
    /// The tag class as a string.
    public let rawValue: String
    /// Creates a tag class from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The tag class for filename extensions.
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    /// The tag class for MIME types.
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")
}

/// What the system knows of a type: where it sits in the hierarchy and its tags.
struct Declaration: Sendable {
    let identifier: String
    let parents: [String]
    let tags: [UTTagClass: [String]]
    var isDynamic = false

    /// The declared types by identifier (lower case).
    static let byIdentifier: [String: Declaration] = Dictionary(uniqueKeysWithValues: all.map { ($0.identifier.lowercased(), $0) })
    /// The declared types by tag, in declaration order.
    static let byTag: [UTTagClass: [String: [Declaration]]] = {
        var table: [UTTagClass: [String: [Declaration]]] = [:]
        for declaration in all {
            for (tagClass, values) in declaration.tags {
                for value in values { table[tagClass, default: [:]][value, default: []].append(declaration) }
            }
        }
        return table
    }()
}
