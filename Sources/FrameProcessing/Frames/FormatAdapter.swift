import CoreVideo

/// Hands encoders and scalers a frame in the pixel format they need: the frame itself when it
/// already is in it, else a conversion into a buffer kept between calls (reallocated only when
/// the size changes).
///
/// Thread ownership: one adapter belongs to one thread at a time.
package final class FormatAdapter: @unchecked Sendable {
    private let converter = PixelFormatConverter()
    private var buffer: CVPixelBuffer?

    package init() {}

    /// The frame in `format`, or nil when it cannot be converted.
    package func frame(_ frame: CVPixelBuffer, in format: OSType) -> CVPixelBuffer? {
        if frame.pixelFormatType == format { return frame }
        if buffer?.width != frame.width || buffer?.height != frame.height || buffer?.pixelFormatType != format {
            buffer = CVPixelBuffer(width: frame.width, height: frame.height, pixelFormatType: format)
        }
        guard let buffer, converter.convert(frame, into: buffer) else { return nil }
        return buffer
    }
}
