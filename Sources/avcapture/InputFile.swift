import Foundation

/// Files a command reads whole, such as pictures to scan: regular files only, of a bounded size,
/// with a reason that names what was found instead.
enum InputFile {
    /// The largest file read whole: 256 MB.
    static let maximumSize = 256 << 20

    /// Refuses, with the reason, a movie path that names nothing: missing, a symbolic link that
    /// loops or leads nowhere, or a file that cannot be read.
    static func check(_ path: String) throws(CommandFailure) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path, errno) }
        // Folders, pipes and devices are left for the movie reader, which says what they are.
        guard status.st_mode & S_IFMT != S_IFREG || access(path, R_OK) == 0 else { throw failure(path, errno) }
    }

    /// The sentence for a path that could not be opened with `code`.
    private static func failure(_ path: String, _ code: Int32) -> CommandFailure {
        switch code {
        case ENOENT:
            var link = stat()
            return lstat(path, &link) == 0 ? CommandFailure("\(path) is a symbolic link to nothing.") : CommandFailure("\(path) does not exist.")
        case ELOOP: return CommandFailure("\(path) is a symbolic link that loops (too many levels of links).")
        case EACCES, EPERM: return CommandFailure("\(path) cannot be read: permission denied.")
        case EISDIR: return CommandFailure("\(path) is a folder, not a file.")
        case ENOTDIR: return CommandFailure("\(path) does not exist: a part of it is not a folder.")
        default: return CommandFailure("\(path) cannot be read: \(String(cString: strerror(code))).")
        }
    }

    /// The contents of the regular file at `path`. Opening never blocks (a FIFO with no writer
    /// is refused at once), and devices, folders and sockets are refused before a byte is read.
    static func read(_ path: String, maximumSize: Int = maximumSize) throws(CommandFailure) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw failure(path, errno)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw CommandFailure("\(path) cannot be read: \(String(cString: strerror(errno))).") }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw CommandFailure("\(path) is a folder, not a file.")
        case S_IFIFO: throw CommandFailure("\(path) is a pipe, not a file.")
        case S_IFCHR, S_IFBLK: throw CommandFailure("\(path) is a device, not a file.")
        case S_IFSOCK: throw CommandFailure("\(path) is a socket, not a file.")
        default: throw CommandFailure("\(path) is not a regular file.")
        }
        guard Int(status.st_size) <= maximumSize else {
            throw CommandFailure("\(path) is \(status.st_size / 1_000_000) MB, more than the \(maximumSize / 1_000_000) MB read.")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CommandFailure("\(path) cannot be read: \(error.localizedDescription).")
        }
    }
}
