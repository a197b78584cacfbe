import Foundation

/// Files a command reads whole, such as pictures to scan: regular files only, of a bounded size,
/// with a reason that names what was found instead.
enum InputFile {
    /// The largest file read whole: 256 MB.
    static let maximumSize = 256 << 20

    /// The contents of the regular file at `path`. Opening never blocks (a FIFO with no writer
    /// is refused at once), and devices, folders and sockets are refused before a byte is read.
    static func read(_ path: String, maximumSize: Int = maximumSize) throws(CommandFailure) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: throw CommandFailure("\(path) does not exist.")
            case EACCES, EPERM: throw CommandFailure("\(path) cannot be read: permission denied.")
            case EISDIR: throw CommandFailure("\(path) is a folder, not a file.")
            default: throw CommandFailure("\(path) cannot be read: \(String(cString: strerror(errno))).")
            }
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
