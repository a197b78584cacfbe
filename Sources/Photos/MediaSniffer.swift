import Foundation

/// What a resource's bytes are, from their signature: the library files photos and movies only.
enum MediaSniffer {
    struct Kind {
        let fileExtension: String
        let isImage: Bool
    }

    /// The kind of the resource's data or file; an error when it is missing or not a photo or movie.
    static func kind(of resource: PendingResource) throws -> Kind {
        let head: Data
        switch resource.source {
        case .data(let data):
            head = data.prefix(64)
        case .file(let url):
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                throw PHPhotosError(.missingResource, userInfo: [NSLocalizedDescriptionKey: "Cannot read \(url.path)."])
            }
            defer { try? handle.close() }
            head = (try? handle.read(upToCount: 64)) ?? Data()
        }
        guard let kind = kind(ofHead: [UInt8](head)) else {
            throw PHPhotosError(
                .invalidResource,
                userInfo: [
                    NSLocalizedDescriptionKey: "The \(resource.type == .photo ? "photo" : "video") resource is not a photo or movie file this library knows."
                ])
        }
        return kind
    }

    /// The kind the first bytes of a file say it is, or nil.
    static func kind(ofHead b: [UInt8]) -> Kind? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool { b.count >= offset + bytes.count && Array(b[offset..<(offset + bytes.count)]) == bytes }
        func ascii(_ text: String, at offset: Int) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts([0xFF, 0xD8, 0xFF]) { return Kind(fileExtension: "jpg", isImage: true) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return Kind(fileExtension: "png", isImage: true) }
        if ascii("II*\0", at: 0) || ascii("MM\0*", at: 0) { return Kind(fileExtension: "tiff", isImage: true) }
        if ascii("GIF8", at: 0) { return Kind(fileExtension: "gif", isImage: true) }
        if ascii("RIFF", at: 0), ascii("WEBP", at: 8) { return Kind(fileExtension: "webp", isImage: true) }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return Kind(fileExtension: "mkv", isImage: false) }
        if ascii("ftyp", at: 4), b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "heim", "heis", "mif1", "msf1": return Kind(fileExtension: "heic", isImage: true)
            case "avif": return Kind(fileExtension: "avif", isImage: true)
            case "qt  ": return Kind(fileExtension: "mov", isImage: false)
            default: return Kind(fileExtension: "mp4", isImage: false)
            }
        }
        // QuickTime files may start with other atoms.
        for atom in ["moov", "mdat", "wide", "free", "skip"] where ascii(atom, at: 4) { return Kind(fileExtension: "mov", isImage: false) }
        return nil
    }
}
