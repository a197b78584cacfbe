import CMediaCodecs
import Foundation

/// The bytes of a movie that is not a local file, such as one an app's resource loader serves.
///
/// Thread ownership: called on the thread that reads the movie, one call at a time.
package protocol MovieByteSource: AnyObject {
    /// The movie's length in bytes, when known.
    var length: Int64? { get }
    /// Reads up to `buffer.count` bytes from `offset` into `buffer` and returns how many, 0 at
    /// the end; throws when they cannot be had.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int
}

/// A byte source and the position FFmpeg reads it from.
///
/// Thread ownership: used by one movie file's FFmpeg calls, on its reading thread.
final class ByteCursor {
    private let source: any MovieByteSource
    private var position: Int64 = 0
    /// The last error the source threw, kept to explain a failed read.
    private(set) var failure: (any Error)?

    init(_ source: any MovieByteSource) { self.source = source }

    /// FFmpeg's read: bytes at the position, 0 at the end (AVERROR_EOF), or an I/O error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
        do {
            let count = try source.read(into: buffer, at: position)
            // FFmpeg's AVERROR_EOF, FFERRTAG('E', 'O', 'F', ' ').
            guard count > 0 else { return -0x2046_4F45 }
            position += Int64(count)
            return Int32(count)
        } catch {
            failure = error
            return -EIO
        }
    }

    /// FFmpeg's seek: to an offset from the start, current position or end, or the length asked for.
    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let sizeAsked: Int32 = 0x10000  // AVSEEK_SIZE
        let whence = whence & ~0x20000  // without AVSEEK_FORCE
        if whence == sizeAsked { return source.length ?? -1 }
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard let length = source.length else { return -1 }
            target = length + offset
        default: return -1
        }
        guard target >= 0 else { return -1 }
        position = target
        return target
    }
}
