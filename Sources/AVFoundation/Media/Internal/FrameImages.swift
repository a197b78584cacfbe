import CoreVideo
import FrameProcessing

/// Frames as Core Graphics images, for the photo output and the image generator.
enum FrameImages {
    /// A frame as an opaque BGRA image that reads (and keeps) its pixels: the frame itself, or a BGRA copy of it.
    static func image(of frame: CVPixelBuffer) -> CGImage? {
        var pixels = frame
        if frame.pixelFormatType != kCVPixelFormatType_32BGRA {
            guard let bgra = CVPixelBuffer(width: frame.width, height: frame.height, pixelFormatType: kCVPixelFormatType_32BGRA),
                PixelFormatConverter().convert(frame, into: bgra)
            else { return nil }
            pixels = bgra
        }
        return pixels.bgraImage(opaque: true)
    }

    /// An image redrawn through a transform (a track's preferred transform), into the box the transform takes it to.
    static func transformed(_ image: CGImage, by transform: CGAffineTransform) -> CGImage? {
        guard transform != .identity else { return image }
        // The preferred transform is in the picture's own coordinates, y downwards; Quartz's are y upwards.
        let box = CGRect(x: 0, y: 0, width: image.width, height: image.height).applying(transform)
        let width = Int(box.width.rounded()), height = Int(box.height.rounded())
        guard width > 0, height > 0,
            let context = CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: image.colorSpace ?? CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.noneSkipFirst.rawValue)
        else { return nil }
        let flipSource = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(image.height))
        let flipTarget = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
        let moved = transform.concatenating(CGAffineTransform(translationX: -box.minX, y: -box.minY))
        context.concatenate(flipSource.concatenating(moved).concatenating(flipTarget))
        context.interpolationQuality = .none
        context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
        return context.makeImage()
    }
}
