import CMediaCodecs
import CoreVideo

/// FFmpeg's own messages go where the device libraries' go (`LibraryLog`): nowhere unless
/// `LINUXAVFOUNDATION_LOG` asks for them. Failures reach the client as `AVError`s.
enum FFmpegLog {
    /// Installs the handler; referenced before FFmpeg is first used.
    static let installed: Void = {
        cmc_set_log_handler(LibraryLog.level == nil ? nil : ffmpegHandler, LibraryLog.level?.rawValue ?? 0)
    }()
}

private let ffmpegHandler: cmc_log_handler = { LibraryLog.write(library: "ffmpeg", severity: $0, message: $1) }
