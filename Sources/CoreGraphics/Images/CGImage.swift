import Foundation

/// A bitmap image or image mask.
///
/// An image reads its pixels from its data provider where they are: an image of a locked pixel
/// buffer's memory is not a copy of it, and `cropping(to:)` shares its parent's pixels.
/// Immutable and thread-safe.
public final class CGImage: @unchecked Sendable {
    /// The image's width in pixels.
    public let width: Int
    /// The image's height in pixels.
    public let height: Int
    /// The bits in each colour or alpha component.
    public let bitsPerComponent: Int
    /// The bits in each pixel.
    public let bitsPerPixel: Int
    /// The bytes in each row of pixels.
    public let bytesPerRow: Int
    /// The colour space of the image; nil for a mask.
    public let colorSpace: CGColorSpace?
    /// The image's alpha layout, float and byte order.
    public let bitmapInfo: CGBitmapInfo
    /// The provider the image reads its pixels from.
    public let dataProvider: CGDataProvider?
    /// Whether the image is interpolated when it is drawn at another size.
    public let shouldInterpolate: Bool
    /// How the image's colours are mapped into a destination's gamut.
    public let renderingIntent: CGColorRenderingIntent
    /// Whether the image is a mask.
    public let isMask: Bool

    /// Creates a bitmap image from its layout and a provider of its pixels; nil for a layout this
    /// system does not read (8 bits a component, or 16 with `floatComponents` off, are read), or
    /// a provider with fewer bytes than the layout needs.
    public init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int, space: CGColorSpace,
        bitmapInfo: CGBitmapInfo, provider: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) {
        guard width > 0, height > 0, bitsPerComponent > 0, bitsPerPixel >= bitsPerComponent, bytesPerRow * 8 >= width * bitsPerPixel,
            let alpha = bitmapInfo.alpha
        else { return nil }
        let channels = space.numberOfComponents + (alpha == .none ? 0 : 1)
        guard channels * bitsPerComponent <= bitsPerPixel, provider.count >= (height - 1) * bytesPerRow + (width * bitsPerPixel + 7) / 8 else {
            return nil
        }
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow
        colorSpace = space
        self.bitmapInfo = bitmapInfo
        dataProvider = provider
        self.shouldInterpolate = shouldInterpolate
        renderingIntent = intent
        isMask = false
    }

    /// The image's alpha layout.
    public var alphaInfo: CGImageAlphaInfo { bitmapInfo.alpha ?? .none }

    /// The image's byte order.
    public var byteOrderInfo: CGImageByteOrderInfo { bitmapInfo.byteOrder }

    /// Whether the image is of 32-bit or 16-bit (half) float R, G, B and A (premultiplied) or R, G,
    /// B and a skipped component, little-endian: the float layouts drawing and Core Image read.
    package var isFloatRGBA: Bool {
        let little = bitsPerComponent == 32 ? [CGImageByteOrderInfo.order32Little, .orderDefault] : [.order16Little, .orderDefault]
        return (bitsPerComponent == 32 || bitsPerComponent == 16) && bitsPerPixel == 4 * bitsPerComponent && bitmapInfo.contains(.floatComponents)
            && bytesPerRow % 4 == 0 && little.contains(byteOrderInfo) && colorSpace?.model == .rgb
            && [.premultipliedLast, .noneSkipLast, .none].contains(alphaInfo)
    }

    /// Returns the part of the image inside `rect` (in pixels, from the top left), sharing its
    /// pixels; nil when the rectangle misses the image.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard !rect.isNull, !rect.isInfinite, bitsPerPixel % 8 == 0 else { return nil }
        let bounds = CGRect(x: 0, y: 0, width: width, height: height)
        let crop = rect.integral.intersection(bounds)
        guard !crop.isNull, crop.width >= 1, crop.height >= 1, let dataProvider, let colorSpace else { return nil }
        let (x, y, w, h) = (Int(crop.minX), Int(crop.minY), Int(crop.width), Int(crop.height))
        let offset = y * bytesPerRow + x * bitsPerPixel / 8
        let count = (h - 1) * bytesPerRow + w * bitsPerPixel / 8
        return CGImage(
            width: w, height: h, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow, space: colorSpace,
            bitmapInfo: bitmapInfo, provider: CGDataProvider(slicing: dataProvider, offset: offset, count: count), decode: nil,
            shouldInterpolate: shouldInterpolate, intent: renderingIntent)
    }

    /// Returns the image with its pixels read in another colour space of as many components; nil otherwise.
    public func copy(colorSpace space: CGColorSpace) -> CGImage? {
        guard let dataProvider, space.numberOfComponents == colorSpace?.numberOfComponents else { return nil }
        return CGImage(
            width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow, space: space,
            bitmapInfo: bitmapInfo, provider: dataProvider, decode: nil, shouldInterpolate: shouldInterpolate, intent: renderingIntent)
    }
}

/// Returns the width of an image in pixels.
public func CGImageGetWidth(_ image: CGImage?) -> Int { image?.width ?? 0 }
/// Returns the height of an image in pixels.
public func CGImageGetHeight(_ image: CGImage?) -> Int { image?.height ?? 0 }
/// Returns the bytes in each row of an image.
public func CGImageGetBytesPerRow(_ image: CGImage?) -> Int { image?.bytesPerRow ?? 0 }
