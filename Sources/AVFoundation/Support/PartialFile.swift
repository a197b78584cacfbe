import Foundation

/// Files written under a temporary name beside their destination and given their name only when
/// complete, so that nothing incomplete ever stands at the destination.
enum PartialFile {
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
