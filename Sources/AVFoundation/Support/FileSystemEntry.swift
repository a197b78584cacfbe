import Foundation

/// Whether anything is at a path, in the sense that matters before writing a new file there.
package enum FileSystemEntry {
    /// Whether anything is at `path`: a file, a folder, a device, or a symbolic link, dangling
    /// or not (a link is never followed: writing through it would create or change its target).
    package static func exists(atPath path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
