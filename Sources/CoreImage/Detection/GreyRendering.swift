import CoreVideo
import Foundation
import FrameProcessing

/// An image rendered into an 8-bit grey picture for a detector: its whole extent, scaled down to
/// at most `GreyPicture.workingPixels` pixels, and the transform from the picture's pixels (rows
/// running down) back to the image's coordinates (rows running up).
struct GreyRendering {
    let buffer: CVPixelBuffer
    let toImage: CGAffineTransform

    /// Nil for an empty or infinite image, or one the context cannot render.
    init?(_ image: CIImage, context: CIContext) {
        let extent = image.extent
        guard !extent.isNull, !extent.isInfinite, extent.width >= 1, extent.height >= 1 else { return nil }
        let scale = min(1, (Double(GreyPicture.workingPixels) / Double(extent.width * extent.height)).squareRoot())
        let width = max(1, Int((extent.width * scale).rounded())), height = max(1, Int((extent.height * scale).rounded()))
        let (sx, sy) = (CGFloat(width) / extent.width, CGFloat(height) / extent.height)
        let placed = image.transformed(by: CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: -extent.minX * sx, ty: -extent.minY * sy))
        guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_OneComponent8),
            context.renderingProblem(placed, to: buffer) == nil
        else { return nil }
        self.buffer = buffer
        // Pixel (x, y) from the top is the image's (minX + x / sx, maxY - y / sy).
        toImage = CGAffineTransform(a: 1 / sx, b: 0, c: 0, d: -1 / sy, tx: extent.minX, ty: extent.maxY)
    }
}
