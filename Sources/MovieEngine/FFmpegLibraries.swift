import CMediaCodecs
import Dispatch

/// FFmpeg's libraries, loaded when a movie is first opened or written rather than when the process starts.
package enum FFmpegLibraries {
    /// Why FFmpeg's libraries could not be loaded, or nil when they are (loading them if they are not yet).
    package static var problem: String? { cmc_media_library_problem().map { String(cString: $0) } }

    /// Loads FFmpeg's libraries if they are not loaded, and waits: tens of milliseconds once (more
    /// on a slow machine), which a recording must not spend after its first samples have come.
    package static func load() { _ = cmc_media_library_problem() }

    /// Starts loading FFmpeg's libraries on another thread, for an output that will write a movie.
    package static func loadSoon() { DispatchQueue.global(qos: .utility).async { load() } }
}
