import Foundation
import CProcessSettings

/// The tool's standard streams, which a user may close or pipe into a command that stops reading
/// (`avcapture record | head -1`, `preview >&-`): writes to them never end the process, and a
/// recording goes on to finish its file whatever happens to the terminal.
enum StandardStreams {
    /// Makes the streams safe to use: a closed one is opened on /dev/null (so that no file the
    /// tool opens later takes its number and receives its lines), a reader that goes away
    /// makes writes fail rather than killing the process with SIGPIPE, and standard output goes
    /// out a line at a time, so that a pipe or a log sees each line as it is printed.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        cps_line_buffer_standard_output()
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if null >= 0, null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }

    /// Writes `text` to standard output at once, even when it is a pipe; a closed or broken stream is ignored.
    static func out(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Writes `text` to standard error at once; a closed or broken stream is ignored.
    static func err(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
