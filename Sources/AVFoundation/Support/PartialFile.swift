import Foundation

/// Files written under a temporary name beside their destination and given their name only when
/// complete, so that nothing incomplete ever stands at the destination.
package enum PartialFile {
    /// Writes `data` whole to a new hidden file in `folder`, `.STEM.XXXXXX`, made by `mkstemp` (so
    /// never a file or link someone planted there) and readable by all; returns its path, which
    /// the caller gives its name (`link(2)`, `rename(2)`) and then removes. Throws the system's error.
    package static func writeHidden(_ data: Data, in folder: URL, stem: String) throws -> String {
        var template = Array(folder.appendingPathComponent(".\(stem).XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let hidden = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            unlink(hidden)
            throw error
        }
        fchmodat(AT_FDCWD, hidden, 0o644, 0)
        return hidden
    }

    /// Gives `partial` the name `destination`, never replacing anything there (a symbolic link,
    /// dangling or not, included): a hard link that fails if the name is taken, then the partial
    /// name removed. Where the file system has no hard links, a rename after a check.
    static func commit(_ partial: URL, to destination: URL) throws {
        if link(partial.path, destination.path) == 0 {
            unlink(partial.path)
            return
        }
        let failure = errno
        if failure == EEXIST {
            throw AVError(
                .fileAlreadyExists, userInfo: [NSURLErrorKey: destination, NSLocalizedDescriptionKey: "A file already exists at \(destination.path)."])
        }
        guard failure == EPERM || failure == EXDEV || failure == EOPNOTSUPP || failure == EMLINK,
            !FileSystemEntry.exists(atPath: destination.path), rename(partial.path, destination.path) == 0
        else {
            let reason = String(cString: strerror(errno == 0 ? failure : errno))
            throw AVError(
                .exportFailed,
                userInfo: [NSURLErrorKey: destination, NSLocalizedDescriptionKey: "The movie could not be named \(destination.path): \(reason)."])
        }
    }
}
