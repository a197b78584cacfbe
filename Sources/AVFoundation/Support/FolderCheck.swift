import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Why a folder cannot take a new file, in words a user can act on; nil when it can.
///
/// Permission bits are not enough (root may write anywhere, and `/proc` or a read-only mount
/// still refuse), so a file is really made there and removed.
package enum FolderCheck {
    package static func whyUnwritable(_ folder: String) -> (reason: String, errno: Int32)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            return ("it does not exist", ENOENT)
        }
        guard isDirectory.boolValue else { return ("it is a file, not a folder", ENOTDIR) }
        let probe = folder + "/.linuxavfoundation-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd < 0 else {
            close(fd)
            unlink(probe)
            return nil
        }
        let error = errno
        switch fileSystemType(of: folder) {
        case "proc": return ("it is the kernel's proc file system, which holds no files", error)
        case "sysfs": return ("it is the kernel's sysfs, which holds no files", error)
        default: break
        }
        switch error {
        case EROFS: return ("it is on a read-only file system", error)
        case EACCES, EPERM: return ("permission denied: this user may not write there", error)
        case ENOSPC: return ("its disk is full", error)
        default: return (String(cString: strerror(error)), error)
        }
    }

    /// The type of the file system a folder is on, from the longest mount point above it in /proc/mounts.
    private static func fileSystemType(of folder: String) -> String? {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return nil }
        let path = URL(fileURLWithPath: folder).standardizedFileURL.path
        var best: (length: Int, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            let covers = point == "/" || path == point || path.hasPrefix(point + "/")
            if covers, point.count >= (best?.length ?? -1) { best = (point.count, String(fields[2])) }
        }
        return best?.type
    }
}
