import CMediaCodecs

/// FFmpeg's libraries, loaded when a movie is first opened or written rather than when the process starts.
package enum FFmpegLibraries {
    /// Why FFmpeg's libraries could not be loaded, or nil when they are (loading them if they are not yet).
    package static var problem: String? { cmc_media_library_problem().map { String(cString: $0) } }
}
