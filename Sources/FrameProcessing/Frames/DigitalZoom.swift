import CoreVideo
import Foundation

/// Digital zoom for cameras without a zoom lens, as Apple's cameras zoom past their optics:
/// the centre 1/zoom of each frame, scaled up (bilinear, libyuv) to the full frame, in the
/// client's pixel format.
///
/// Thread ownership: one zoom belongs to one thread at a time; its scratch frames are
/// allocated on first use and reused.
package final class DigitalZoom: @unchecked Sendable {
    private let converter = PixelFormatConverter()
    private let finisher = PixelFormatConverter()
    private var full: CVPixelBufferPool?
    private var scaled: CVPixelBufferPool?

    /// The most a camera zooms digitally, as Apple's cameras do past their lenses.
    package static let maxFactor: Double = 16

    package init() {}

    /// Converts `source` into `target` (the same size), zoomed by `zoom` (1 or more); returns whether it could.
    package func render(_ source: CVPixelBuffer, zoom: Double, into target: CVPixelBuffer) -> Bool {
        guard zoom > 1.001, source.width == target.width, source.height == target.height else {
            return converter.convert(source, into: target)
        }
        // Crop and scale in a format libyuv scales: the target's 4:2:0 or BGRA.
        let planar =
            target.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
            || target.pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let working = planar ? target.pixelFormatType : kCVPixelFormatType_32BGRA
        var whole = source
        if source.pixelFormatType != working {
            guard let frame = scratch(&full, like: source, format: working), converter.convert(source, into: frame) else { return false }
            whole = frame
        }
        var output = target
        if working != target.pixelFormatType {
            guard let frame = scratch(&scaled, like: target, format: working) else { return false }
            output = frame
        }
        guard cropAndScale(whole, zoom: zoom, into: output) else { return false }
        VideoColorimetry.copy(from: whole, to: output)
        return output === target || finisher.convert(output, into: target)
    }

    private func scratch(_ pool: inout CVPixelBufferPool?, like frame: CVPixelBuffer, format: OSType) -> CVPixelBuffer? {
        if pool == nil || pool?.pixelFormatType != format || pool?.width != frame.width || pool?.height != frame.height {
            pool = CVPixelBufferPool.videoFrames(width: frame.width, height: frame.height, pixelFormatType: format, count: 1)
        }
        return pool?.dequeue()
    }

    /// Scales the centre 1/zoom of `source` into all of `target`; both in the same format, BGRA or two-plane 4:2:0.
    private func cropAndScale(_ source: CVPixelBuffer, zoom: Double, into target: CVPixelBuffer) -> Bool {
        let (w, h) = (source.width, source.height)
        // Even sizes and offsets keep the chroma of 4:2:0 aligned.
        let cropW = max(2, Int(Double(w) / zoom) & ~1), cropH = max(2, Int(Double(h) / zoom) & ~1)
        let x = ((w - cropW) / 2) & ~1, y = ((h - cropH) / 2) & ~1
        return PlaneScaling.scale(source, region: (x, y, cropW, cropH), into: target, filter: .bilinear)
    }
}
