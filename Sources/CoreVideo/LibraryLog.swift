import Foundation

/// Where the system libraries' own messages go.
///
/// libpipewire, libasound and FFmpeg print warnings and errors to standard error by themselves
/// (PipeWire's "can't load config client.conf" on every machine that has its library but no
/// PipeWire, for one). What they report reaches the client as an `AVError` or as a backend with
/// no devices; their text is for diagnosing, so it is off by default and written to standard
/// error, prefixed with the library's name, when `LINUXAVFOUNDATION_LOG` is `error`, `warning`
/// (or `1`), `info` or `debug`.
package enum LibraryLog {
    /// How much is written, most severe first; the raw values are the libraries' shared scale.
    package enum Level: Int32, Sendable, Comparable {
        case error = 1, warning, info, debug

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Parses the environment variable's value; nil for off.
        package init?(environment value: String?) {
            switch value?.lowercased() {
            case "error", "errors": self = .error
            case "1", "warning", "warnings", "warn", "on", "yes", "true": self = .warning
            case "info": self = .info
            case "debug", "trace", "all": self = .debug
            default: return nil
            }
        }
    }

    /// The level in force: from `LINUXAVFOUNDATION_LOG`, read once.
    package static let level = Level(environment: ProcessInfo.processInfo.environment["LINUXAVFOUNDATION_LOG"])

    /// Writes one message from `library` when `severity` is within the level in force.
    package static func write(library: String, severity: Int32, message: UnsafePointer<CChar>?) {
        guard let level, severity <= level.rawValue, let message else { return }
        let text = "[\(library)] \(String(cString: message))\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
