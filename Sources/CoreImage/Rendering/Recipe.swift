import CoreGraphics
import CoreVideo
import Foundation

/// What an image is made of: its sources and the operations on them, evaluated only when a
/// context renders the image, as Core Image's recipes are.
///
/// Pixels are B, G, R, A, premultiplied, on a 0-255 scale; coordinates are Core Image's (origin
/// at the bottom left, y up). Colour operations are 4x4 matrices over those four values.
indirect enum Recipe: @unchecked Sendable {
    /// Nothing: transparent everywhere.
    case empty
    /// A picture in memory, its bottom-left corner at the origin.
    case pixels(PixelSource)
    /// One colour everywhere, premultiplied B, G, R, A on a 0-1 scale.
    case color(b: Double, g: Double, r: Double, a: Double)
    /// The part of an image inside a rectangle.
    case crop(Recipe, CGRect)
    /// An image moved by an affine transform, sampled bilinearly.
    case transform(Recipe, CGAffineTransform)
    /// A Gaussian blur of a standard deviation in pixels.
    case blur(Recipe, sigma: Double)
    /// Each output band a weighted sum of the four input bands (rows by output band, B G R A).
    case recombine(Recipe, [Double])
    /// An image scaled with a Lanczos kernel, by `x` across and `y` up.
    case lanczos(Recipe, x: Double, y: Double)
    /// One image over another.
    case over(Recipe, Recipe)
    /// An image's edge pixels carried on without end.
    case clamp(Recipe)

    /// The region of the plane the recipe's pixels cover (infinite for colours and clamped images).
    var extent: CGRect {
        switch self {
        case .empty: return .null
        case .pixels(let source): return CGRect(x: 0, y: 0, width: source.width, height: source.height)
        case .color: return .infinite
        case .crop(let inner, let rect): return inner.extent.intersection(rect.standardized)
        case .transform(let inner, let transform):
            let extent = inner.extent
            return extent.isInfinite || extent.isNull ? extent : extent.applying(transform)
        case .blur(let inner, let sigma):
            let extent = inner.extent
            return extent.isInfinite || extent.isNull ? extent : extent.insetBy(dx: -Self.blurReach(sigma), dy: -Self.blurReach(sigma))
        case .recombine(let inner, _): return inner.extent
        case .lanczos(let inner, let x, let y):
            let extent = inner.extent
            guard !extent.isInfinite, !extent.isNull else { return extent }
            return CGRect(
                x: (extent.minX * x).rounded(), y: (extent.minY * y).rounded(), width: (extent.width * x).rounded(), height: (extent.height * y).rounded())
        case .over(let top, let bottom): return top.extent.union(bottom.extent)
        case .clamp(let inner): return inner.extent.isNull ? .null : .infinite
        }
    }

    /// Whether every pixel inside the extent is known to be opaque (frames without alpha, opaque
    /// colours, and what moves or crops them whole), so that nothing under it shows.
    var isOpaque: Bool {
        switch self {
        case .pixels(let source): return source.isOpaque
        case .color(_, _, _, let a): return a >= 1
        case .crop(let inner, _), .clamp(let inner): return inner.isOpaque
        case .transform(let inner, let transform):
            // Whole-pixel moves keep every pixel; sampling between pixels softens the edges.
            return inner.isOpaque && transform.a == 1 && transform.b == 0 && transform.c == 0 && transform.d == 1
                && transform.tx == transform.tx.rounded() && transform.ty == transform.ty.rounded()
        case .over(let top, let bottom): return top.isOpaque && bottom.isOpaque
        case .empty, .blur, .recombine, .lanczos: return false
        }
    }

    /// How far a blur of `sigma` reaches, as Apple's blurs grow their extent: three standard
    /// deviations, in whole pixels.
    static func blurReach(_ sigma: Double) -> CGFloat { CGFloat((sigma * 3).rounded(.up)) }
}

/// A picture's pixels in memory as the renderer reads them: 8-bit B, G, R, A premultiplied,
/// made when first needed (a frame in another format is converted then) and kept while the
/// image lives.
final class PixelSource: @unchecked Sendable {
    let width: Int
    let height: Int
    /// Whether the picture has no alpha (a Y'CbCr frame): every pixel opaque.
    let isOpaque: Bool
    private let make: () -> (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)?
    private let lock = NSLock()
    private var made: (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)??

    init(width: Int, height: Int, isOpaque: Bool = false, make: @escaping () -> (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)?) {
        self.width = width
        self.height = height
        self.isOpaque = isOpaque
        self.make = make
    }

    /// The pixels, made on first use; nil when they cannot be.
    var pixels: (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)? {
        lock.withLock {
            if let made { return made }
            let pixels = make()
            made = .some(pixels)
            return pixels
        }
    }
}

/// Pixels this process made (a generated picture), held while an image of them lives.
final class OwnedPixels: @unchecked Sendable {
    let memory: UnsafeMutableRawPointer
    let bytesPerRow: Int

    /// Premultiplied B, G, R, A pixels of `width` x `height`, made by `fill` from zero.
    init(width: Int, height: Int, fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        bytesPerRow = width * 4
        memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytesPerRow * height), alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * height)
        fill(memory.assumingMemoryBound(to: UInt8.self))
    }

    deinit { memory.deallocate() }

    /// The pixels as a source of a recipe.
    func source(width: Int, height: Int) -> PixelSource {
        PixelSource(width: width, height: height) { [self] in (memory, bytesPerRow, self) }
    }
}
