import CVips
import CoreGraphics
import CoreVideo
import Foundation
import FrameProcessing
import ImageIO

/// An evaluation context for rendering image processing results.
///
/// Rendering evaluates an image's recipe with libvips, region by region on every core, into
/// premultiplied 8-bit-per-component sRGB results (pixels stay 8-bit through crops, moves, blurs
/// and scaling, and are 32-bit float through colour operations and compositing). A context keeps
/// only a buffer for rendering into formats other than BGRA; it is thread-safe and cheap to make,
/// though apps usually keep one. Renders are at most 16384 pixels a side.
open class CIContext: NSObject, @unchecked Sendable {
    private let options: [CIContextOption: Any]

    /// Initializes a context with options.
    public init(options: [CIContextOption: Any]? = nil) {
        self.options = options ?? [:]
        super.init()
    }

    /// Initializes a context with the default options.
    public override convenience init() { self.init(options: nil) }

    /// The working colour space of the context: sRGB's encoded values, here.
    open var workingColorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }

    /// The working pixel format of the context: 32-bit float components.
    open var workingFormat: CIFormat { .RGBAf }

    /// Why the last render on any context failed (libvips missing, an image's pixels unreadable), or nil.
    public static var lastRenderingProblem: String? { problem.withLock { $0 } }
    private static let problem = LockedValue<String?>(nil)

    /// Frees any cached data the context holds: rendering keeps none beyond one conversion buffer, which this lets go.
    open func clearCaches() { conversion.withLock { $0 = nil } }

    /// Runs the garbage collector to reclaim resources the context no longer needs: the same as clearing its caches.
    open func reclaimResources() { clearCaches() }

    // MARK: Rendering

    /// Creates a Quartz 2D image from a region of a Core Image image (8-bit B, G, R, A, premultiplied, sRGB).
    open func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        createCGImage(image, from: fromRect, format: .BGRA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
    }

    /// Creates a Quartz 2D image from a region of a Core Image image, in a format: BGRA8, RGBA8,
    /// ARGB8, RGBAf or RGBAh (32-bit or half floats, kept beyond 0-1, linear when the colour space is).
    open func createCGImage(_ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?) -> CGImage? {
        if format == .RGBAf || format == .RGBAh { return createFloatImage(image, from: fromRect, half: format == .RGBAh, colorSpace: colorSpace) }
        guard let layout = format.layout, !fromRect.isInfinite, !fromRect.isNull else { return nil }
        let region = PixelRegion(covering: fromRect)
        guard Self.rendersWhole(region), let space = colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        let bytesPerRow = region.width * 4
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * region.height, alignment: 64)
        guard render(image.recipe.recombined(layout.order), region: region, into: memory, bytesPerRow: bytesPerRow),
            let provider = CGDataProvider(
                dataInfo: nil, data: memory, size: bytesPerRow * region.height,
                releaseData: { _, data, _ in UnsafeMutableRawPointer(mutating: data).deallocate() })
        else {
            memory.deallocate()
            return nil
        }
        return CGImage(
            width: region.width, height: region.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: bytesPerRow, space: space,
            bitmapInfo: layout.bitmapInfo, provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }

    /// A region rendered as an image of 32-bit (or half) float R, G, B, A, premultiplied, in a
    /// colour space (extended sRGB when none is given; a linear space's values decoded from sRGB's encoding).
    private func createFloatImage(_ image: CIImage, from fromRect: CGRect, half: Bool, colorSpace: CGColorSpace?) -> CGImage? {
        guard !fromRect.isInfinite, !fromRect.isNull else { return nil }
        let region = PixelRegion(covering: fromRect)
        guard Self.rendersWhole(region), let space = colorSpace ?? CGColorSpace(name: CGColorSpace.extendedSRGB), space.model == .rgb else { return nil }
        var pixels = Data(count: region.width * 16 * region.height)
        let rendered = pixels.withUnsafeMutableBytes { memory -> Bool in
            guard let base = memory.baseAddress,
                renderFloats(image.recipe.recombined(Self.rgbaOrder), region: region, into: base, bytesPerRow: region.width * 16, half: false)
            else { return false }
            if space.isLinear {
                cvips_float_rgba_decode_srgb(base.assumingMemoryBound(to: Float.self), region.width * 16, Int32(region.width), Int32(region.height))
            }
            return true
        }
        guard rendered else { return nil }
        // Half floats from the floats (decoded to linear first where the space is linear).
        let bytesPerRow = region.width * (half ? 8 : 16)
        if half {
            let floats = pixels
            pixels = Data(count: bytesPerRow * region.height)
            pixels.withUnsafeMutableBytes { out in
                floats.withUnsafeBytes { values in
                    for (index, value) in values.bindMemory(to: Float.self).enumerated() {
                        out.storeBytes(of: Float16(value), toByteOffset: index * 2, as: Float16.self)
                    }
                }
            }
        }
        let order = half ? CGBitmapInfo.byteOrder16Little : CGBitmapInfo.byteOrder32Little
        let info = CGBitmapInfo.floatComponents.rawValue | order.rawValue | CGImageAlphaInfo.premultipliedLast.rawValue
        let bits = half ? 16 : 32
        return CGImage(
            width: region.width, height: region.height, bitsPerComponent: bits, bitsPerPixel: bits * 4, bytesPerRow: bytesPerRow, space: space,
            bitmapInfo: CGBitmapInfo(rawValue: info), provider: CGDataProvider(bytes: pixels), decode: nil, shouldInterpolate: true,
            intent: .defaultIntent)
    }

    /// Renders an image into a pixel buffer: the image's region from the origin the buffer's
    /// size covers, converted to the buffer's pixel format.
    open func render(_ image: CIImage, to buffer: CVPixelBuffer) {
        render(image, to: buffer, bounds: CGRect(x: 0, y: 0, width: buffer.width, height: buffer.height), colorSpace: nil)
    }

    /// Renders a region of an image into a pixel buffer, converted to its pixel format.
    open func render(_ image: CIImage, to buffer: CVPixelBuffer, bounds: CGRect, colorSpace: CGColorSpace?) {
        _ = renderingProblem(image, to: buffer, origin: CGPoint(x: bounds.minX, y: bounds.minY))
    }

    /// Renders an image's region from `origin` into a pixel buffer, converted to its pixel
    /// format; why it could not be, or nil. Other formats than BGRA go through a BGRA buffer
    /// the context keeps for the next render of that size.
    package func renderingProblem(_ image: CIImage, to buffer: CVPixelBuffer, origin: CGPoint = .zero) -> String? {
        let region = PixelRegion(x: Int(origin.x.rounded()), y: Int(origin.y.rounded()), width: buffer.width, height: buffer.height)
        if buffer.pixelFormatType == kCVPixelFormatType_32BGRA {
            return render(image.recipe, region: region, into: buffer.planes[0].baseAddress, bytesPerRow: buffer.planes[0].bytesPerRow)
                ? nil : Self.lastRenderingProblem
        }
        let kept = conversion.withLock { kept -> (CVPixelBuffer, PixelFormatConverter)? in
            defer { kept = nil }
            return kept
        }
        guard
            let (bgra, converter) = kept.flatMap({ $0.0.width == buffer.width && $0.0.height == buffer.height ? $0 : nil })
                ?? CVPixelBuffer(width: buffer.width, height: buffer.height, pixelFormatType: kCVPixelFormatType_32BGRA).map({ ($0, PixelFormatConverter()) })
        else { return "no memory for a \(buffer.width)x\(buffer.height) picture" }
        defer { conversion.withLock { $0 = (bgra, converter) } }
        guard render(image.recipe, region: region, into: bgra.planes[0].baseAddress, bytesPerRow: bgra.planes[0].bytesPerRow) else {
            return Self.lastRenderingProblem
        }
        guard converter.convert(bgra, into: buffer) else {
            let problem = "CIContext cannot render into pixel format \(buffer.pixelFormatType)"
            Self.problem.withLock { $0 = problem }
            return problem
        }
        return nil
    }

    /// A BGRA buffer and converter kept for rendering into other formats, taken by one render at a time.
    private let conversion = LockedValue<(CVPixelBuffer, PixelFormatConverter)?>(nil)

    /// Renders a region of an image into caller memory, in a format: BGRA8, RGBA8, ARGB8, or
    /// RGBAf and RGBAh (floats, 1 the full value, kept beyond 0-1 where filters make them so).
    open func render(
        _ image: CIImage, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect, format: CIFormat, colorSpace: CGColorSpace?
    ) {
        guard !bounds.isInfinite, !bounds.isNull else { return }
        let region = PixelRegion(covering: bounds)
        if let size = format.floatBytesPerPixel {
            guard rowBytes >= region.width * size else { return }
            _ = renderFloats(image.recipe.recombined(Self.rgbaOrder), region: region, into: data, bytesPerRow: rowBytes, half: format == .RGBAh)
            return
        }
        guard let layout = format.layout, rowBytes >= region.width * 4 else { return }
        _ = render(image.recipe.recombined(layout.order), region: region, into: data, bytesPerRow: rowBytes)
    }

    /// R, G, B, A from B, G, R, A.
    private static let rgbaOrder = ColorMatrix(rows: [2, 1, 0, 3].map { band in (0..<4).map { $0 == band ? 1 : 0 } })

    /// Renders the region from the origin of a bitmap's size into it, in a format: BGRA8, RGBA8,
    /// ARGB8, RGBAf or RGBAh; why it could not be, or nil.
    func bitmapRenderingProblem(
        _ image: CIImage, into data: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int, format: CIFormat
    ) -> String? {
        let region = PixelRegion(x: 0, y: 0, width: width, height: height)
        if format.floatBytesPerPixel != nil {
            let done = renderFloats(image.recipe.recombined(Self.rgbaOrder), region: region, into: data, bytesPerRow: bytesPerRow, half: format == .RGBAh)
            return done ? nil : Self.lastRenderingProblem
        }
        guard let layout = format.layout else { return "bitmaps of format \(format.rawValue) cannot be rendered into" }
        return render(image.recipe.recombined(layout.order), region: region, into: data, bytesPerRow: bytesPerRow) ? nil : Self.lastRenderingProblem
    }

    /// Whether a region is one rendering makes at once: 1 to 16384 pixels a side (at most a
    /// gigabyte of pixels), as Core Image's largest images are; a larger one is refused, with why.
    private static func rendersWhole(_ region: PixelRegion) -> Bool {
        guard region.width > 0, region.height > 0 else { return false }
        guard region.width <= 16_384, region.height <= 16_384 else {
            problem.withLock { $0 = "\(region.width)x\(region.height) is larger than 16384 pixels a side" }
            return false
        }
        return true
    }

    /// Renders a region in floats (32 or 16 bits a component, 1 the full value), noting why when it cannot be.
    private func renderFloats(_ recipe: Recipe, region: PixelRegion, into memory: UnsafeMutableRawPointer, bytesPerRow: Int, half: Bool) -> Bool {
        guard Self.rendersWhole(region) else { return false }
        do {
            try RenderPass.renderFloats(recipe, region: region, into: memory, bytesPerRow: bytesPerRow, half: half)
            return true
        } catch {
            Self.problem.withLock { $0 = "\(error)" }
            return false
        }
    }

    /// Renders a region, noting why when it cannot be.
    private func render(_ recipe: Recipe, region: PixelRegion, into memory: UnsafeMutableRawPointer, bytesPerRow: Int) -> Bool {
        do {
            try RenderPass.render(recipe, region: region, into: memory, bytesPerRow: bytesPerRow)
            return true
        } catch {
            Self.problem.withLock { $0 = "\(error)" }
            return false
        }
    }

    // MARK: Files

    /// Renders an image's extent and encodes it as JPEG (quality from `kCGImageDestinationLossyCompressionQuality`, 0.85 by default).
    open func jpegRepresentation(of image: CIImage, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        guard let frame = opaqueFrame(of: image) else { return nil }
        return JPEGEncoder().encode(frame, quality: Int32(max(1, (quality(options) * 100).rounded())))
    }

    /// Renders an image's extent and encodes it as PNG.
    open func pngRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        guard let frame = opaqueFrame(of: image) else { return nil }
        return PNGEncoder().encode(frame, exif: nil)
    }

    /// Renders an image's extent and encodes it as HEIF (HEVC through libheif and x265).
    open func heifRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        guard let frame = opaqueFrame(of: image) else { return nil }
        return try? HEICEncoder().encode(frame, quality: Int((quality(options) * 100).rounded()), preset: "medium", exif: nil)
    }

    /// Renders an image's extent and encodes it as TIFF (through Image I/O's TIFF destination).
    open func tiffRepresentation(of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        guard let frame = opaqueFrame(of: image), let picture = frame.bgraImage(opaque: true) else { return nil }
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.tiff" as CFString, 1, nil) else { return nil }
        CGImageDestinationAddImage(destination, picture, nil)
        return CGImageDestinationFinalize(destination) ? Data(copying: data) : nil
    }

    /// Renders an image's extent as TIFF into a file, which appears only when complete.
    open func writeTIFFRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try write(tiffRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), to: url)
    }

    /// Renders an image's extent as JPEG into a file, which appears only when complete.
    open func writeJPEGRepresentation(of image: CIImage, to url: URL, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) throws {
        try write(jpegRepresentation(of: image, colorSpace: colorSpace, options: options), to: url)
    }

    /// Renders an image's extent as PNG into a file, which appears only when complete.
    open func writePNGRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try write(pngRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), to: url)
    }

    /// Renders an image's extent as HEIF into a file, which appears only when complete.
    open func writeHEIFRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try write(heifRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), to: url)
    }

    private func write(_ data: Data?, to url: URL) throws {
        guard let data else {
            throw NSError(
                domain: "CIContext", code: -1,
                userInfo: [NSLocalizedDescriptionKey: "The image could not be rendered: \(Self.lastRenderingProblem ?? "its extent is empty or infinite")."])
        }
        try data.write(to: url, options: .atomic)
    }

    private func quality(_ options: [CIImageRepresentationOption: Any]) -> Double {
        let key = CIImageRepresentationOption(rawValue: "kCGImageDestinationLossyCompressionQuality")
        let value = (options[key] as? NSNumber)?.doubleValue ?? (options[key] as? Double) ?? 0.85
        return value.isFinite ? min(1, max(0, value)) : 0.85
    }

    /// The image's extent rendered into a BGRA frame over white (for formats without alpha).
    private func opaqueFrame(of image: CIImage) -> CVPixelBuffer? {
        let extent = image.extent
        guard !extent.isInfinite, !extent.isNull else { return nil }
        let region = PixelRegion(covering: extent)
        guard Self.rendersWhole(region),
            let frame = CVPixelBuffer(width: region.width, height: region.height, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return nil }
        let opaque = image.composited(over: CIImage(color: .white))
        guard render(opaque.recipe, region: region, into: frame.planes[0].baseAddress, bytesPerRow: frame.planes[0].bytesPerRow) else { return nil }
        return frame
    }
}

/// Keys for a context's options.
public struct CIContextOption: RawRepresentable, Hashable, @unchecked Sendable {
    /// The option's name.
    public let rawValue: String
    /// Creates an option from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The working colour space (only sRGB's encoded values are worked in here).
    public static let workingColorSpace = CIContextOption(rawValue: "kCIContextWorkingColorSpace")
    /// The working pixel format.
    public static let workingFormat = CIContextOption(rawValue: "kCIContextWorkingFormat")
    /// The colour space of rendered results.
    public static let outputColorSpace = CIContextOption(rawValue: "kCIContextOutputColorSpace")
    /// Whether rendering uses the CPU only (it always does here).
    public static let useSoftwareRenderer = CIContextOption(rawValue: "kCIContextUseSoftwareRenderer")
    /// Whether intermediate results are cached.
    public static let cacheIntermediates = CIContextOption(rawValue: "kCIContextCacheIntermediates")
    /// Whether rendering is given low priority.
    public static let priorityRequestLow = CIContextOption(rawValue: "kCIContextPriorityRequestLow")
    /// Whether half-float intermediates may be used.
    public static let highQualityDownsample = CIContextOption(rawValue: "kCIContextHighQualityDownsample")
}

/// Keys for the options of image representations.
public struct CIImageRepresentationOption: RawRepresentable, Hashable, @unchecked Sendable {
    /// The option's name.
    public let rawValue: String
    /// Creates an option from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
}
