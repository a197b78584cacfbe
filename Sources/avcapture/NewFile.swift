import Foundation

/// Files a command creates: always new, never written through a symbolic link or over anything.
enum NewFile {
    /// Writes `data` to a new file at `path`; refuses, with the reason, when anything is there.
    static func write(_ data: Data, to path: String) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw CommandFailure("\(path) already exists; avcapture never overwrites a file.") }
            throw CommandFailure("Cannot write \(path): \(String(cString: strerror(errno))).")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
        } catch {
            unlink(path)
            throw CommandFailure("Cannot write \(path): \(error.localizedDescription).")
        }
    }
}
