import CaptureDevices
import Foundation
import FrameProcessing

/// Turns, mirrors and scales frames for a preview layer's bounds and gravity, into BGRA; or, for a
/// JPEG encoder, hands a frame that needs none of that as JPEG's own samples (`JPEGSampleConverter`).
///
/// Drawn frames come from a small pool, back in it once the drawer lets go of them (a drawer
/// that holds all of them gets no new frame until it lets one go); the turned intermediate is
/// kept between frames, and skipped when the picture is shown whole at its own size. Nothing is
/// allocated per frame once the size settles. Thread ownership:
/// the layer's rendering queue.
final class PreviewFrameRenderer: @unchecked Sendable {
    /// The most drawn frames a drawer may hold at once.
    static let poolSize = 4
    private let converter = PixelFormatConverter()
    private var turned: CVPixelBuffer?
    private var pool: CVPixelBufferPool?
    private let jpegSamples = JPEGSampleConverter()

    /// The frame as the layer shows it: the picture's size for aspect fit (the letterbox is the
    /// drawer's), the bounds' size for aspect fill (cropped) and resize; the picture's own size
    /// when the layer has no bounds. In BGRA; with `allowingJPEGSamples`, a BT.601 Y'CbCr frame
    /// shown upright at its own size comes as full-range planar 4:2:0 ('f420') instead.
    func render(_ frame: CVPixelBuffer, geometry: PreviewGeometry, allowingJPEGSamples: Bool = false) -> CVPixelBuffer? {
        let orientation = PixelOrientation(rotationDegrees: geometry.rotationDegrees, mirrored: geometry.mirrored)
        let (width, height) = orientation.swapsDimensions ? (frame.height, frame.width) : (frame.width, frame.height)
        // What part of the turned picture is shown, and at what size.
        var crop = CGRect(x: 0, y: 0, width: width, height: height)
        var target = CGSize(width: width, height: height)
        let bounds = geometry.bounds.size
        if bounds.width >= 2, bounds.height >= 2 {
            switch geometry.gravity {
            case .resizeAspectFill:
                let scale = max(bounds.width / CGFloat(width), bounds.height / CGFloat(height))
                let shown = CGSize(width: bounds.width / scale, height: bounds.height / scale)
                crop = CGRect(x: (CGFloat(width) - shown.width) / 2, y: (CGFloat(height) - shown.height) / 2, width: shown.width, height: shown.height)
                target = bounds
            case .resize:
                target = bounds
            default:
                target = geometry.videoRect.size
            }
        }
        let outWidth = max(2, Int(target.width.rounded()) & ~1), outHeight = max(2, Int(target.height.rounded()) & ~1)
        if allowingJPEGSamples, orientation.isIdentity, outWidth == width, outHeight == height, let samples = jpegSamples.convert(frame) {
            return samples
        }
        if pool?.width != outWidth || pool?.height != outHeight {
            pool = CVPixelBufferPool(width: outWidth, height: outHeight, pixelFormatType: kCVPixelFormatType_32BGRA, maximumBufferCount: Self.poolSize)
        }
        guard let drawn = pool?.dequeue() else { return nil }
        if outWidth == width, outHeight == height {
            // Shown whole at its own size: turned straight into the drawn frame, no second pass.
            return converter.convert(frame, into: drawn, orientation: orientation) ? drawn : nil
        }
        if turned?.width != width || turned?.height != height {
            turned = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
        }
        guard let turned, converter.convert(frame, into: turned, orientation: orientation) else { return nil }
        let x = max(0, Int(crop.minX.rounded())), y = max(0, Int(crop.minY.rounded()))
        let cropWidth = min(width - x, max(1, Int(crop.width.rounded()))), cropHeight = min(height - y, max(1, Int(crop.height.rounded())))
        return PlaneScaling.scale(turned, region: (x, y, cropWidth, cropHeight), into: drawn, filter: .bilinear) ? drawn : nil
    }
}
