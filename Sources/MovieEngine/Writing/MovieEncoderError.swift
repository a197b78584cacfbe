import CMediaCodecs

/// Why a movie could not be written.
package enum MovieEncoderError: Error, Sendable, CustomStringConvertible {
    /// The device is full.
    case noSpace
    /// FFmpeg failed, with its error code and words.
    case failed(code: Int32, message: String)

    /// The error for FFmpeg's error code.
    package init(code: Int32) {
        if code == cmc_error_no_space() { self = .noSpace; return }
        var buffer = [CChar](repeating: 0, count: 256)
        cmc_error_string(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = .failed(code: code, message: String(decoding: bytes, as: UTF8.self))
    }

    /// The failure in words.
    package var description: String {
        switch self {
        case .noSpace: return "no space left on the device"
        case .failed(_, let message): return message
        }
    }
}
