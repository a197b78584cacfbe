import Foundation
import MovieEngine

extension AVError {
    /// The error a client hears for a movie file that could not be opened or read.
    init(_ error: MovieFileError) {
        let url = error.url
        switch error.problem {
        case .notAFile:
            self.init(.fileFormatNotRecognized, userInfo: [NSLocalizedDescriptionKey: error.reason, NSURLErrorKey: url])
        case .notARegularFile:
            self.init(.failedToLoadMediaData, userInfo: [NSURLErrorKey: url, NSLocalizedDescriptionKey: error.reason])
        case .unreadable, .damaged:
            let reading: Bool
            if case .damaged = error.problem { reading = true } else { reading = false }
            var info: [String: Any] = [NSURLErrorKey: url, NSLocalizedFailureReasonErrorKey: error.reason]
            if let errno = error.systemError {
                info[NSUnderlyingErrorKey] = NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
                info[NSLocalizedDescriptionKey] = "\(url.path) cannot be read: \(error.reason)"
                self.init(.failedToLoadMediaData, userInfo: info)
            } else {
                info[NSLocalizedDescriptionKey] =
                    reading ? "\(url.path) is damaged: \(error.reason)" : "\(url.path) is not a movie this system can read: \(error.reason)"
                self.init(reading ? .undecodableMediaData : .fileFormatNotRecognized, userInfo: info)
            }
        }
    }
}

extension MovieFile {
    /// Opens a movie file, or throws the `AVError` that says why it cannot be read.
    static func open(_ url: URL) throws(AVError) -> MovieFile {
        do { return try MovieFile(url: url) } catch { throw AVError(error) }
    }
}

extension MovieEncoderError {
    /// FFmpeg's `AVERROR_EXTERNAL`: a library it calls (an encoder such as libx264) refused.
    static let externalLibraryError: Int32 = -0x2054_5845

    /// What a failure code and FFmpeg's words for it mean to the user; the number stays in the underlying error.
    static func sentence(code: Int32, message: String) -> String {
        code == externalLibraryError ? "the encoder refused the movie's settings (\(message))" : message
    }

    /// The AVFoundation error for this failure.
    func avError(url: URL, successfullyFinished: Bool) -> AVError {
        switch self {
        case .noSpace:
            return AVError(.diskFull, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: successfullyFinished, NSURLErrorKey: url])
        case .failed(let code, let message):
            return AVError(
                .unknown,
                userInfo: [
                    AVErrorRecordingSuccessfullyFinishedKey: successfullyFinished, NSURLErrorKey: url,
                    NSLocalizedDescriptionKey: "The movie could not be written: \(Self.sentence(code: code, message: message)).",
                    NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(-code)),
                ])
        }
    }
}
