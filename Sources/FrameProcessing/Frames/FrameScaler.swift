import CoreVideo

/// Scales frames to another size in their own pixel format ('420v', '420f' or 'BGRA'; other
/// formats go through BGRA), into a buffer it keeps or one the caller gives: no allocation per
/// frame once the sizes settle.
///
/// Thread ownership: one scaler belongs to one thread at a time.
package final class FrameScaler: @unchecked Sendable {
    private static let scalable = [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA]
    private let converter = PixelFormatConverter()
    private var scaled: CVPixelBuffer?
    private let adapter = FormatAdapter()

    package init() {}

    /// The frame scaled to `width` x `height` (a buffer reused by the next call), or nil when it cannot be.
    package func scale(_ frame: CVPixelBuffer, width: Int, height: Int) -> CVPixelBuffer? {
        if frame.width == width && frame.height == height { return frame }
        guard let source = scalableSource(frame) else { return nil }
        if scaled?.width != width || scaled?.height != height || scaled?.pixelFormatType != source.pixelFormatType {
            scaled = CVPixelBuffer(width: width, height: height, pixelFormatType: source.pixelFormatType)
        }
        guard let scaled, Self.scalePlanes(source, into: scaled) else { return nil }
        return scaled
    }

    /// Scales the frame into `destination` (any size; '420v', '420f' or 'BGRA'), converting its
    /// pixel format when the two differ; false when it cannot.
    package func scale(_ frame: CVPixelBuffer, into destination: CVPixelBuffer) -> Bool {
        if frame.width == destination.width, frame.height == destination.height { return converter.convert(frame, into: destination) }
        guard let source = scalableSource(frame) else { return false }
        if source.pixelFormatType == destination.pixelFormatType { return Self.scalePlanes(source, into: destination) }
        guard let scaled = scale(source, width: destination.width, height: destination.height) else { return false }
        return converter.convert(scaled, into: destination)
    }

    /// The frame itself when libyuv can scale its format, else a BGRA copy.
    private func scalableSource(_ frame: CVPixelBuffer) -> CVPixelBuffer? {
        Self.scalable.contains(frame.pixelFormatType) ? frame : adapter.frame(frame, in: kCVPixelFormatType_32BGRA)
    }

    /// Scales between two buffers of the same scalable format with a box filter.
    private static func scalePlanes(_ source: CVPixelBuffer, into destination: CVPixelBuffer) -> Bool {
        guard PlaneScaling.scale(source, into: destination, filter: .box) else { return false }
        VideoColorimetry.copy(from: source, to: destination)
        return true
    }
}
