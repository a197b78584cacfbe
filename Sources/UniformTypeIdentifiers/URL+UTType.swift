import Foundation

extension URL {
    /// Returns a URL by appending the path extension for a uniform type identifier.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        guard let pathExtension = Self.pathExtension(for: contentType, after: lastPathComponent) else { return self }
        return appendingPathExtension(pathExtension)
    }

    /// Appends the preferred path extension for the type you specify.
    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }

    /// Returns a URL by appending the specified path component that conforms to a uniform type identifier.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        appendingPathComponent(partialName).appendingPathExtension(for: contentType)
    }

    /// Appends a path component to the URL that conforms to a uniform type identifier.
    public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType) {
        self = appendingPathComponent(partialName, conformingTo: contentType)
    }

    /// The extension to add to `name` for `contentType`: the type's preferred one, or none when
    /// the type has none or `name` already ends in an extension of a type that conforms to it.
    private static func pathExtension(for contentType: UTType, after name: String) -> String? {
        guard let preferred = contentType.preferredFilenameExtension else { return nil }
        let existing = (name as NSString).pathExtension
        if !existing.isEmpty, let type = UTType(filenameExtension: existing), type.conforms(to: contentType) { return nil }
        return preferred
    }
}
