import CVips
import CoreGraphics
import CoreVideo
import Foundation
import FrameProcessing
import ImageIO

/// A representation of an image to be processed or produced by Core Image filters.
///
/// An image is a recipe, not pixels: making one from a frame, cropping it, moving it or applying
/// filters to it does no work; a `CIContext` evaluates the recipe when it renders, region by
/// region on all cores (through libvips). Coordinates have their origin at the bottom left, y up.
/// Thread-safe: images are immutable.
open class CIImage: NSObject, @unchecked Sendable {
    /// What the image is made of.
    let recipe: Recipe
    private let sourceBuffer: CVPixelBuffer?
    private let sourceImage: CGImage?
    private let imageProperties: [String: Any]

    init(recipe: Recipe, pixelBuffer: CVPixelBuffer? = nil, cgImage: CGImage? = nil, properties: [String: Any] = [:]) {
        self.recipe = recipe
        sourceBuffer = pixelBuffer
        sourceImage = cgImage
        imageProperties = properties
        super.init()
    }

    // MARK: Creating images

    /// Initializes an image object from the contents of a Core Video pixel buffer: any format a
    /// camera delivers, converted as its colour attachments say when the image is rendered.
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer) {
        self.init(cvPixelBuffer: pixelBuffer, options: nil)
    }

    /// Initializes an image object from the contents of a Core Video pixel buffer, with options.
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, options: [CIImageOption: Any]? = nil) {
        let (width, height) = (pixelBuffer.width, pixelBuffer.height)
        let opaque = PixelFormatDescription.of(pixelBuffer.pixelFormatType)?.isYCbCr ?? false
        let source = PixelSource(width: width, height: height, isOpaque: opaque) {
            if pixelBuffer.pixelFormatType == kCVPixelFormatType_32BGRA {
                return (pixelBuffer.planes[0].baseAddress, pixelBuffer.planes[0].bytesPerRow, pixelBuffer)
            }
            guard let bgra = ConversionBuffers.take(width: width, height: height), PixelFormatConverter().convert(pixelBuffer, into: bgra) else {
                return nil
            }
            return (bgra.planes[0].baseAddress, bgra.planes[0].bytesPerRow, bgra)
        }
        self.init(recipe: Self.sampled(.pixels(source), options), pixelBuffer: pixelBuffer, properties: options?[.properties] as? [String: Any] ?? [:])
    }

    /// Initializes an image object from the contents of a Core Video image buffer.
    public convenience init(cvImageBuffer imageBuffer: CVImageBuffer) {
        self.init(cvPixelBuffer: imageBuffer, options: nil)
    }

    /// Initializes an image object from the contents of a Core Video image buffer, with options.
    public convenience init(cvImageBuffer imageBuffer: CVImageBuffer, options: [CIImageOption: Any]? = nil) {
        self.init(cvPixelBuffer: imageBuffer, options: options)
    }

    /// Initializes an image object with bitmap data: 8-bit premultiplied BGRA8, RGBA8 or ARGB8
    /// pixels, rows `bytesPerRow` apart, the top row first (an empty image for other formats or too little data).
    public convenience init(bitmapData data: Data, bytesPerRow: Int, size: CGSize, format: CIFormat, colorSpace: CGColorSpace?) {
        let (width, height) = (Int(size.width), Int(size.height))
        // Where each of B, G, R, A is among a pixel's four bytes.
        let places: [Int]?
        switch format {
        case .BGRA8: places = [0, 1, 2, 3]
        case .RGBA8: places = [2, 1, 0, 3]
        case .ARGB8: places = [3, 2, 1, 0]
        default: places = nil
        }
        guard let places, width > 0, height > 0, bytesPerRow >= width * 4, data.count >= bytesPerRow * (height - 1) + width * 4 else {
            self.init(recipe: .empty)
            return
        }
        let pixels = OwnedPixels(width: width, height: height) { memory in
            data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                for row in 0..<height {
                    for x in 0..<width {
                        let from = row * bytesPerRow + x * 4, to = (row * width + x) * 4
                        for band in 0..<4 { memory[to + band] = raw[from + places[band]] }
                    }
                }
            }
        }
        self.init(recipe: .pixels(pixels.source(width: width, height: height)))
    }

    /// Initializes an image object with a Quartz 2D image.
    public convenience init(cgImage image: CGImage) {
        self.init(cgImage: image, options: nil)
    }

    /// Initializes an image object with a Quartz 2D image, with options.
    public convenience init(cgImage image: CGImage, options: [CIImageOption: Any]? = nil) {
        let source =
            Self.floatSource(image)
            ?? PixelSource(width: image.width, height: image.height) {
                // Drawn into premultiplied B, G, R, A, whatever the image's own layout.
                guard let space = CGColorSpace(name: CGColorSpace.sRGB),
                    let context = CGContext(
                        data: nil, width: image.width, height: image.height, bitsPerComponent: 8, bytesPerRow: 0, space: space,
                        bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue),
                    let memory = context.data
                else { return nil }
                context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
                return (memory, context.bytesPerRow, context)
            }
        self.init(recipe: Self.sampled(.pixels(source), options), cgImage: image, properties: options?[.properties] as? [String: Any] ?? [:])
    }

    /// The pixels of an image of 32-bit or half float R, G, B, A (Image I/O's float pictures) as floats, kept
    /// beyond 0-1, a linear image's encoded as sRGB (the renderer's values); nil for other layouts.
    private static func floatSource(_ image: CGImage) -> PixelSource? {
        let alpha = image.alphaInfo
        guard image.isFloatRGBA, let provider = image.dataProvider else { return nil }
        let linear = image.colorSpace?.isLinear == true
        return PixelSource(width: image.width, height: image.height, isOpaque: alpha != .premultipliedLast, isFloat: true) {
            let pixels = FloatPixels(count: image.width * image.height * 4)
            provider.withBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                cvips_float_rgba_to_bgra(
                    base, image.bitsPerComponent == 16 ? 1 : 0, image.bytesPerRow, Int32(image.width), Int32(image.height),
                    alpha == .premultipliedLast ? 1 : 0, linear ? 1 : 0, pixels.memory, image.width * 16)
            }
            return (UnsafeMutableRawPointer(pixels.memory), image.width * 16, pixels)
        }
    }

    /// Initializes an image object with the supplied image data (JPEG, PNG or HEIC); nil when it
    /// cannot be decoded.
    public convenience init?(data: Data) {
        self.init(data: data, options: nil)
    }

    /// Initializes an image object with the supplied image data and options.
    public convenience init?(data: Data, options: [CIImageOption: Any]? = nil) {
        guard let source = CGImageSourceCreateWithData(data as CFData, nil), let image = CGImageSourceCreateImageAtIndex(source, 0, nil) else {
            return nil
        }
        let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any] ?? [:]
        let upright = CIImage(cgImage: image)
        var recipe = upright.recipe
        // Turned as the file's orientation says, when asked.
        if options?[.applyOrientationProperty] as? Bool == true,
            let value = (properties[kCGImagePropertyOrientation as String] as? Int).map(UInt32.init)
                ?? (properties[kCGImagePropertyOrientation as String] as? NSNumber)?.uint32Value,
            let orientation = CGImagePropertyOrientation(rawValue: value)
        {
            recipe = upright.oriented(orientation).recipe
        }
        self.init(recipe: Self.sampled(recipe, options), cgImage: image, properties: options?[.properties] as? [String: Any] ?? properties)
    }

    /// Initializes an image object from the contents of a file.
    public convenience init?(contentsOf url: URL) {
        self.init(contentsOf: url, options: nil)
    }

    /// Initializes an image object from the contents of a file, with options.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]? = nil) {
        guard let data = try? Data(contentsOf: url) else { return nil }
        self.init(data: data, options: options)
    }

    /// Initializes an image of infinite extent with a solid colour.
    public convenience init(color: CIColor) {
        let alpha = Double(color.alpha)
        self.init(recipe: .color(b: Double(color.blue) * alpha, g: Double(color.green) * alpha, r: Double(color.red) * alpha, a: alpha))
    }

    /// Creates and returns an empty image object.
    open class func empty() -> CIImage { CIImage(recipe: .empty) }

    /// An image of infinite extent, solid black.
    public class var black: CIImage { CIImage(color: .black) }
    /// An image of infinite extent, solid white.
    public class var white: CIImage { CIImage(color: .white) }
    /// An image of infinite extent, solid grey.
    public class var gray: CIImage { CIImage(color: .gray) }
    /// An image of infinite extent, solid red.
    public class var red: CIImage { CIImage(color: .red) }
    /// An image of infinite extent, solid green.
    public class var green: CIImage { CIImage(color: .green) }
    /// An image of infinite extent, solid blue.
    public class var blue: CIImage { CIImage(color: .blue) }
    /// An image of infinite extent, clear.
    public class var clear: CIImage { CIImage(color: .clear) }

    // MARK: What an image is

    /// A rectangle that specifies the extent of the image.
    open var extent: CGRect { recipe.extent }

    /// The Core Video pixel buffer the image was made from, if it was made from one.
    open var pixelBuffer: CVPixelBuffer? { sourceBuffer }

    /// The Quartz 2D image the image was made from, if it was made from one.
    open var cgImage: CGImage? { sourceImage }

    /// A dictionary containing the metadata of the image (its source's Image I/O properties).
    open var properties: [String: Any] { imageProperties }

    /// The colour space of the image: sRGB for images from pixels (extended sRGB from floats), nil for generated ones.
    open var colorSpace: CGColorSpace? {
        if case .pixels(let source) = recipe { return CGColorSpace(name: source.isFloat ? CGColorSpace.extendedSRGB : CGColorSpace.sRGB) }
        return nil
    }

    // MARK: Making images from images

    /// Returns a new image with a cropped portion of the original image.
    open func cropped(to rect: CGRect) -> CIImage { derived(.crop(recipe, rect)) }

    /// Returns a new image that represents the original image after applying an affine transform.
    open func transformed(by matrix: CGAffineTransform) -> CIImage {
        guard !matrix.isIdentity else { return self }
        // A sampling mode holds for the transforms after it, as one transform sampled once.
        if case .transform(.sampling(let inner, let nearest), let first) = recipe {
            return derived(.transform(.sampling(inner, nearest: nearest), first.concatenating(matrix)))
        }
        return derived(.transform(recipe, matrix))
    }

    /// Create an image by changing the receiver’s sample mode to nearest neighbor.
    ///
    /// A transform of the image takes each pixel from the nearest of its own, keeping hard edges
    /// when it is scaled up.
    open func samplingNearest() -> CIImage { derived(.sampling(Self.unmarked(recipe), nearest: true)) }

    /// Create an image by changing the receiver’s sample mode to bilinear interpolation.
    open func samplingLinear() -> CIImage { derived(.sampling(Self.unmarked(recipe), nearest: false)) }

    /// The recipe without the sampling mode marked on it last.
    private static func unmarked(_ recipe: Recipe) -> Recipe {
        if case .sampling(let inner, _) = recipe { return inner }
        return recipe
    }

    /// The recipe marked for nearest-neighbour sampling when the options' `nearestSampling` is true.
    private static func sampled(_ recipe: Recipe, _ options: [CIImageOption: Any]?) -> Recipe {
        guard let value = options?[.nearestSampling], ExifProperties.number(value).map({ $0 != 0 }) ?? false else { return recipe }
        return .sampling(recipe, nearest: true)
    }

    /// Returns a new image that represents the original image after applying an affine transform,
    /// downsampling with a Lanczos kernel when `highQualityDownsample` is true and the transform
    /// only scales.
    open func transformed(by matrix: CGAffineTransform, highQualityDownsample: Bool) -> CIImage {
        guard highQualityDownsample, matrix.b == 0, matrix.c == 0, matrix.a > 0, matrix.d > 0, matrix.a < 1 || matrix.d < 1 else {
            return transformed(by: matrix)
        }
        return derived(.lanczos(recipe, x: Double(matrix.a), y: Double(matrix.d))).transformed(by: CGAffineTransform(translationX: matrix.tx, y: matrix.ty))
    }

    /// Returns a new image that represents the original image after a transform for the given
    /// orientation: the picture as it is meant to be seen.
    open func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        transformed(by: orientationTransform(for: orientation))
    }

    /// Returns a new image that represents the original image after a transform for the given
    /// EXIF orientation (1 through 8; other values change nothing).
    open func oriented(forExifOrientation orientation: Int32) -> CIImage {
        guard let orientation = CGImagePropertyOrientation(rawValue: UInt32(clamping: orientation)) else { return self }
        return oriented(orientation)
    }

    /// The transform that turns the image as an orientation says, its extent's corner staying at the origin.
    open func orientationTransform(for orientation: CGImagePropertyOrientation) -> CGAffineTransform {
        let extent = self.extent
        guard !extent.isInfinite, !extent.isNull else { return .identity }
        let (w, h) = (extent.width, extent.height)
        let turn: CGAffineTransform
        switch orientation {
        case .up: turn = .identity
        case .upMirrored: turn = CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: turn = CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: turn = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: turn = CGAffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .right: turn = CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        case .rightMirrored: turn = CGAffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .left: turn = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        }
        return CGAffineTransform(translationX: -extent.minX, y: -extent.minY).concatenating(turn)
    }

    /// Returns a new image that multiplies the image's colors by its alpha (the image taken as not premultiplied).
    open func premultiplyingAlpha() -> CIImage { derived(Self.alphaChanged(recipe, multiply: true)) }

    /// Returns a new image that divides the image's colors by its alpha (0 where alpha is).
    open func unpremultiplyingAlpha() -> CIImage { derived(Self.alphaChanged(recipe, multiply: false)) }

    /// Returns a new image with alpha 1 within a rectangle and 0 outside it, the colors kept.
    open func settingAlphaOne(in extent: CGRect) -> CIImage {
        let inner = recipe, area = extent.standardized.intersection(recipe.extent)
        return derived(
            .computed(
                Computation(extent: area, isOpaque: true) { context in
                    let pixels = try context.pixels(inner)
                    return try Pixels.joined([try pixels.bands(0, 3), try context.constant([255])])
                }))
    }

    /// Returns a new image that marks a point to keep an intermediate result (rendering keeps none: the same image).
    open func insertingIntermediate() -> CIImage { self }

    /// Returns a new image that marks a point to keep an intermediate result, cached or not (rendering keeps none: the same image).
    open func insertingIntermediate(cache: Bool) -> CIImage { self }

    /// A recipe's colours multiplied by its alpha, or divided by it.
    private static func alphaChanged(_ inner: Recipe, multiply: Bool) -> Recipe {
        .computed(
            Computation(extent: inner.extent, isOpaque: inner.isOpaque) { context in
                let pixels = try context.pixels(inner)
                let alpha = try pixels.bands(3) / 255
                let colour = multiply ? try pixels.bands(0, 3) * alpha : try min(try pixels.bands(0, 3) / alpha, try alpha * 0 + 255)
                return try Pixels.joined([colour, try pixels.bands(3)])
            })
    }

    /// Returns a new image created by applying a filter to the original image with the
    /// specified name and parameters; an empty image when there is no such filter.
    open func applyingFilter(_ filterName: String, parameters params: [String: Any]) -> CIImage {
        guard let filter = CIFilter(name: filterName) else { return .empty() }
        filter.setValue(self, forKey: kCIInputImageKey)
        for (key, value) in params { filter.setValue(value, forKey: key) }
        return filter.outputImage ?? .empty()
    }

    /// Returns a new image created by applying a filter to the original image with the specified name.
    open func applyingFilter(_ filterName: String) -> CIImage { applyingFilter(filterName, parameters: [:]) }

    /// Returns a new image created by compositing the original image over the specified destination image.
    open func composited(over dest: CIImage) -> CIImage { derived(.over(recipe, dest.recipe)) }

    /// Returns a new image created by making the pixel colours along its edges extend infinitely in all directions.
    open func clampedToExtent() -> CIImage { derived(.clamp(recipe)) }

    /// Returns a new image created by cropping to a rectangle and then extending the pixels at its
    /// edges to infinity.
    open func clamped(to rect: CGRect) -> CIImage { derived(.clamp(.crop(recipe, rect))) }

    /// Returns a new image created by applying a Gaussian blur of standard deviation `sigma`
    /// (its extent grows by as far as the blur reaches).
    open func applyingGaussianBlur(sigma: Double) -> CIImage {
        sigma.isFinite && sigma > 0 ? derived(.blur(recipe, sigma: sigma)) : self
    }

    /// An image made from this one by a recipe over it, keeping its properties.
    func derived(_ recipe: Recipe) -> CIImage { CIImage(recipe: recipe, properties: imageProperties) }

    /// A textual description of the image: its extent.
    open override var description: String { "<CIImage: extent \(extent)>" }
}

/// Keys for the options of an image's initializers.
public struct CIImageOption: RawRepresentable, Hashable, @unchecked Sendable {
    /// The option's name.
    public let rawValue: String
    /// Creates an option from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The key for a colour space (or NSNull for none) to treat the image's pixels as.
    public static let colorSpace = CIImageOption(rawValue: "kCIImageColorSpace")
    /// The key for the image's metadata properties.
    public static let properties = CIImageOption(rawValue: "kCIImageProperties")
    /// The key for whether the image is turned as its orientation property says.
    public static let applyOrientationProperty = CIImageOption(rawValue: "kCIImageApplyOrientationProperty")
    /// The key into the properties dictionary to indicate whether to use nearest-neighbor sampling.
    public static let nearestSampling = CIImageOption(rawValue: "kCIImageNearestSampling")
    /// The key for whether auxiliary depth data is read instead of the image.
    public static let auxiliaryDepth = CIImageOption(rawValue: "kCIImageAuxiliaryDepth")
    /// The key for whether auxiliary disparity data is read instead of the image.
    public static let auxiliaryDisparity = CIImageOption(rawValue: "kCIImageAuxiliaryDisparity")
    /// The key for whether a portrait effects matte is read instead of the image.
    public static let auxiliaryPortraitEffectsMatte = CIImageOption(rawValue: "kCIImageAuxiliaryPortraitEffectsMatte")
}

/// BGRA buffers frames in other formats are converted into when rendered, reused once the images
/// that read them are gone: a frame a render does not allocate a frame's worth of memory.
enum ConversionBuffers {
    private static let pools = LockedValue<[Int: CVPixelBufferPool]>([:])

    /// A BGRA buffer of a size, from the pool of that size (at most four sizes are kept).
    static func take(width: Int, height: Int) -> CVPixelBuffer? {
        let key = width << 32 | height
        let pool = pools.withLock { pools -> CVPixelBufferPool? in
            if let pool = pools[key] { return pool }
            if pools.count >= 4 { pools.removeAll() }
            let pool = CVPixelBufferPool(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA, maximumBufferCount: 8)
            pools[key] = pool
            return pool
        }
        return pool?.dequeue() ?? CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_32BGRA)
    }
}
