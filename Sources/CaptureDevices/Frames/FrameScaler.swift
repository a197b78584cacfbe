import CYUV
import CoreVideo

/// Scales frames to another size in their own pixel format ('420v', '420f' or 'BGRA'; other
/// formats go through BGRA), into a buffer it keeps: no allocation per frame once the sizes settle.
///
/// Thread ownership: one scaler belongs to one thread at a time.
package final class FrameScaler: @unchecked Sendable {
    private let converter = PixelFormatConverter()
    private var scaled: CVPixelBuffer?
    private var bgra: CVPixelBuffer?

    package init() {}

    /// The frame scaled to `width` x `height` (a buffer reused by the next call), or nil when it cannot be.
    package func scale(_ frame: CVPixelBuffer, width: Int, height: Int) -> CVPixelBuffer? {
        if frame.width == width && frame.height == height { return frame }
        var source = frame
        var format = frame.pixelFormatType
        let scalable = [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_32BGRA]
        if !scalable.contains(format) {
            if bgra?.width != frame.width || bgra?.height != frame.height {
                bgra = CVPixelBuffer(width: frame.width, height: frame.height, pixelFormatType: kCVPixelFormatType_32BGRA)
            }
            guard let bgra, converter.convert(frame, into: bgra) else { return nil }
            source = bgra
            format = kCVPixelFormatType_32BGRA
        }
        if scaled?.width != width || scaled?.height != height || scaled?.pixelFormatType != format {
            scaled = CVPixelBuffer(width: width, height: height, pixelFormatType: format)
        }
        guard let scaled else { return nil }
        func p(_ plane: CVPixelBuffer.Plane) -> UnsafeMutablePointer<UInt8> { plane.baseAddress.assumingMemoryBound(to: UInt8.self) }
        let s = source.planes, d = scaled.planes
        let status: Int32
        if format == kCVPixelFormatType_32BGRA {
            status = ARGBScale(p(s[0]), Int32(s[0].bytesPerRow), Int32(source.width), Int32(source.height),
                               p(d[0]), Int32(d[0].bytesPerRow), Int32(width), Int32(height), kFilterBox)
        } else {
            status = NV12Scale(p(s[0]), Int32(s[0].bytesPerRow), p(s[1]), Int32(s[1].bytesPerRow), Int32(source.width), Int32(source.height),
                               p(d[0]), Int32(d[0].bytesPerRow), p(d[1]), Int32(d[1].bytesPerRow), Int32(width), Int32(height), kFilterBox)
        }
        guard status == 0 else { return nil }
        VideoColorimetry.copy(from: source, to: scaled)
        return scaled
    }
}
