import CoreGraphics

extension CVPixelBuffer {
    /// A BGRA frame as an image that reads its memory where it is and keeps the frame; nil for other formats.
    package func bgraImage(opaque: Bool) -> CGImage? {
        guard pixelFormatType == kCVPixelFormatType_32BGRA else { return nil }
        let plane = planes[0]
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard
            let provider = CGDataProvider(
                dataInfo: retained, data: plane.baseAddress, size: plane.bytesPerRow * height,
                releaseData: { info, _, _ in if let info { Unmanaged<CVPixelBuffer>.fromOpaque(info).release() } })
        else { return nil }
        let alpha: CGImageAlphaInfo = opaque ? .noneSkipFirst : .premultipliedFirst
        return CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: plane.bytesPerRow, space: CGColorSpace(name: CGColorSpace.sRGB)!,
            bitmapInfo: CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Little.rawValue | alpha.rawValue), provider: provider, decode: nil,
            shouldInterpolate: true, intent: .defaultIntent)
    }
}
