import Foundation
import AVFoundation

/// Files the page saves (photos), each under a new name: written whole under a hidden name, then
/// given the first free name of its series in one step (a hard link, which fails where the name is
/// taken), so that two saves at once never take the same name and nothing stands incomplete.
enum SavedFile {
    /// A failure to save, with the reason.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        let description: String
    }

    /// The names a file of `prefix` and `ext` may take in `directory`, from the time now: the
    /// plain name, then with -2, -3 and so on.
    static func candidates(in directory: URL, prefix: String, extension ext: String) -> some Sequence<URL> {
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate, .withTime])
        return (1...).lazy.map { index in
            directory.appendingPathComponent(index == 1 ? "\(prefix)-\(stamp).\(ext)" : "\(prefix)-\(stamp)-\(index).\(ext)")
        }
    }

    /// Saves `data` in `directory` under the first free name of its series; returns that name.
    static func save(_ data: Data, in directory: URL, prefix: String, extension ext: String) throws(Failure) -> URL {
        let hidden: String
        do { hidden = try PartialFile.writeHidden(data, in: directory, stem: prefix) } catch {
            throw Failure(description: "\(directory.path) cannot be written: \(error.localizedDescription).")
        }
        defer { unlink(hidden) }
        for url in candidates(in: directory, prefix: prefix, extension: ext).prefix(10_000) {
            if link(hidden, url.path) == 0 { return url }
            guard errno == EEXIST else { throw Failure(description: "\(url.path) cannot be written: \(String(cString: strerror(errno))).") }
        }
        throw Failure(description: "\(directory.path) already holds 10,000 files of this second's name.")
    }
}
