import CMediaCodecs
import Foundation

/// Why a movie file could not be opened or read.
package struct MovieFileError: Error, Sendable {
    /// What went wrong.
    package enum Problem: Sendable {
        /// The URL names no local file.
        case notAFile
        /// The path names a folder, a pipe or a device, described in words.
        case notARegularFile(String)
        /// FFmpeg could not open the file as a movie (its error code).
        case unreadable(code: Int32)
        /// FFmpeg met damage while reading the file's packets (its error code).
        case damaged(code: Int32)
    }

    /// The file.
    package let url: URL
    /// What went wrong.
    package let problem: Problem

    /// Creates an error for a file.
    package init(url: URL, problem: Problem) {
        self.url = url
        self.problem = problem
    }

    /// FFmpeg's error code, for the problems FFmpeg reported.
    package var code: Int32? {
        switch problem {
        case .unreadable(let code), .damaged(let code): code
        case .notAFile, .notARegularFile: nil
        }
    }

    /// The system's errno, when FFmpeg's error is a failed system call (a negated errno value).
    package var systemError: Int32? {
        guard let code, code < 0, -code < 4096 else { return nil }
        return -code
    }

    /// FFmpeg's words for the problem, or the problem described.
    package var reason: String {
        switch problem {
        case .notAFile: "Only files can be opened as assets: \(url.absoluteString)"
        case .notARegularFile(let kind): "\(url.path) is \(kind), not a movie file."
        case .unreadable(let code), .damaged(let code): MovieFile.describe(code)
        }
    }
}
