import UniformTypeIdentifiers

// What a file importing only Uniform Type Identifiers uses: Foundation's URLs, which its types extend.
enum UniformTypeIdentifiersBrings {
    static func movie(in folder: URL) -> URL { folder.appendingPathComponent("clip").appendingPathExtension(for: .quickTimeMovie) }
}
