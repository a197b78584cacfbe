import CoreVideo

/// Makes small BGRA copies of frames, for photo previews and thumbnails.
///
/// Thread ownership: one scaler belongs to one thread at a time.
package final class PreviewScaler: @unchecked Sendable {
    private let adapter = FormatAdapter()

    package init() {}

    /// The largest size with the frame's aspect ratio that fits in `width` x `height` (even, at least 2x2).
    package static func size(of frameWidth: Int, _ frameHeight: Int, fittingIn width: Int, _ height: Int) -> (width: Int, height: Int) {
        guard frameWidth > 0, frameHeight > 0, width > 0, height > 0 else { return (0, 0) }
        let scale = min(1, min(Double(width) / Double(frameWidth), Double(height) / Double(frameHeight)))
        let even = { (value: Double) in max(2, Int((value / 2).rounded(.down)) * 2) }
        return (even(Double(frameWidth) * scale), even(Double(frameHeight) * scale))
    }

    /// A new BGRA buffer of `width` x `height` holding the frame scaled with a box filter; nil when it cannot be made.
    package func preview(of frame: CVPixelBuffer, width: Int, height: Int) -> CVPixelBuffer? {
        guard let source = adapter.frame(frame, in: kCVPixelFormatType_32BGRA) else { return nil }
        guard let preview = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA) else { return nil }
        return PlaneScaling.scale(source, into: preview, filter: .box) ? preview : nil
    }
}
