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
    /// An image moved by an affine transform, sampled bilinearly (or from the nearest pixel when
    /// the inner image is `.sampling(_, nearest: true)`).
    case transform(Recipe, CGAffineTransform)
    /// An image, unchanged, marked with how a transform of it samples its pixels: from the nearest
    /// pixel, or bilinearly.
    case sampling(Recipe, nearest: Bool)
    /// A Gaussian blur of a standard deviation in pixels.
    case blur(Recipe, sigma: Double)
    /// Each output band a weighted sum of the four input bands (rows by output band, B G R A).
    case recombine(Recipe, [Double])
    /// An image scaled with a Lanczos kernel, by `x` across and `y` up.
    case lanczos(Recipe, x: Double, y: Double)
    /// One image over another.
    case over(Recipe, Recipe)
    /// One image blended with another in a blend mode or compositing operator.
    case blend(Recipe, Recipe, BlendMode)
    /// Each band of an image's colours (not premultiplied) through a curve: 256 entries for each
    /// of B, G, R, A, interleaved (`Curves`).
    case curves(Recipe, Curves)
    /// Blocks of `size` pixels, one corner at `origin`, each filled with its mean.
    case pixellate(Recipe, size: Int, origin: CGPoint)
    /// The largest (or smallest) of each pixel's red, green and blue, in all three.
    case componentExtreme(Recipe, maximum: Bool)
    /// One image where a mask is, another where it is not (the mask's alpha or its luma).
    case masked(Recipe, background: Recipe, mask: Recipe, byAlpha: Bool)
    /// An image convolved with a kernel.
    case convolve(Recipe, Kernel)
    /// Each pixel replaced, band by band, by a rank (the minimum, median or maximum) of the window around it.
    case rank(Recipe, width: Int, height: Int, Rank)
    /// One pixel, at the rectangle's origin, whose bands are the means of the image's over the rectangle.
    case areaAverage(Recipe, CGRect)
    /// `a` times one image plus `b` times another, every band alike (a sharpening's difference of an
    /// image and its blur).
    case mix(Recipe, Recipe, a: Double, b: Double)
    /// An image's edge pixels carried on without end.
    case clamp(Recipe)
    /// An image repeated without end, its extent the tile.
    case tile(Recipe)
    /// An image seen through a projective map: each point of `extent` shows the inner image at the
    /// point `inverse` takes it to, sampled bilinearly.
    case project(Recipe, inverse: Projection, extent: CGRect)
    /// An unsharp mask: the image plus `amount` times its difference from its Gaussian blur of
    /// standard deviation `sigma` (the blur of the image clamped at its edges), the image rendered once for both.
    case unsharp(Recipe, sigma: Double, amount: Double)
    /// An image's colours mixed by a 3x3 matrix over B, G and R in linear light (not premultiplied); alpha kept.
    case linearMix(Recipe, [Double])
    /// An image whose less saturated colours are made more (amount above 0) or less saturated.
    case vibrance(Recipe, amount: Double)
    /// An image with its shadows lifted and its highlights lowered by the luma around each pixel, blurred by `sigma`.
    case shadowsHighlights(Recipe, sigma: Double, shadows: Double, highlights: Double)
    /// Pixels a formula of pixel arithmetic makes (a generator's, a blend's, a distortion's).
    case computed(Computation)

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
        case .recombine(let inner, _), .curves(let inner, _), .componentExtreme(let inner, _), .pixellate(let inner, _, _), .sampling(let inner, _):
            return inner.extent
        case .masked(let inner, let background, _, _): return inner.extent.union(background.extent)
        case .lanczos(let inner, let x, let y):
            let extent = inner.extent
            guard !extent.isInfinite, !extent.isNull else { return extent }
            return CGRect(
                x: (extent.minX * x).rounded(), y: (extent.minY * y).rounded(), width: (extent.width * x).rounded(), height: (extent.height * y).rounded())
        case .over(let top, let bottom), .blend(let top, let bottom, _), .mix(let top, let bottom, _, _): return top.extent.union(bottom.extent)
        case .clamp(let inner), .tile(let inner): return inner.extent.isNull ? .null : .infinite
        case .project(_, _, let extent): return extent
        case .convolve(let inner, let kernel):
            let extent = inner.extent
            return extent.isInfinite || extent.isNull ? extent : extent.insetBy(dx: -CGFloat(kernel.reach.across), dy: -CGFloat(kernel.reach.up))
        case .rank(let inner, let width, let height, let rank):
            // A maximum spreads what the image holds over half a window beyond it; a minimum or median does not.
            let extent = inner.extent
            guard rank == .maximum, !extent.isInfinite, !extent.isNull else { return extent }
            return extent.insetBy(dx: -CGFloat(width / 2), dy: -CGFloat(height / 2))
        case .areaAverage(_, let rect):
            let whole = PixelRegion(covering: rect)
            return whole.isEmpty ? .null : CGRect(x: whole.x, y: whole.y, width: 1, height: 1)
        case .linearMix(let inner, _), .vibrance(let inner, _), .shadowsHighlights(let inner, _, _, _), .unsharp(let inner, _, _):
            return inner.extent
        case .computed(let computation): return computation.extent
        }
    }

    /// Whether every pixel inside the extent is known to be opaque (frames without alpha, opaque
    /// colours, and what moves or crops them whole), so that nothing under it shows.
    var isOpaque: Bool {
        switch self {
        case .pixels(let source): return source.isOpaque
        case .color(_, _, _, let a): return a >= 1
        case .crop(let inner, _), .clamp(let inner), .sampling(let inner, _): return inner.isOpaque
        case .transform(let inner, let transform):
            // Whole-pixel moves keep every pixel; sampling between pixels softens the edges.
            return inner.isOpaque && transform.a == 1 && transform.b == 0 && transform.c == 0 && transform.d == 1
                && transform.tx == transform.tx.rounded() && transform.ty == transform.ty.rounded()
        case .over(let top, let bottom):
            // The union of the two is covered only where one holds the other: two opaque images side
            // by side, or apart, leave transparent corners in the rectangle around them.
            return top.isOpaque && bottom.isOpaque && (top.extent.contains(bottom.extent) || bottom.extent.contains(top.extent))
        case .linearMix(let inner, _), .vibrance(let inner, _), .shadowsHighlights(let inner, _, _, _): return inner.isOpaque
        // Alpha is (1 + amount) a - amount blur(a): 1 where the image, clamped at its edges, is opaque.
        case .unsharp(let inner, _, _): return inner.isOpaque
        // A colour matrix whose alpha row keeps alpha keeps an opaque image opaque.
        case .recombine(let inner, let values): return values.count == 16 && Array(values[12..<16]) == [0, 0, 0, 1] && inner.isOpaque
        case .empty, .blur, .lanczos, .project, .blend, .mix, .areaAverage, .convolve, .rank, .curves, .componentExtreme, .masked, .pixellate:
            return false
        case .tile(let inner): return inner.isOpaque
        case .computed(let computation): return computation.isOpaque
        }
    }

    /// How far a blur of `sigma` reaches, as Apple's blurs grow their extent: three standard
    /// deviations, in whole pixels.
    static func blurReach(_ sigma: Double) -> CGFloat { CGFloat((sigma * 3).rounded(.up)) }
}

/// A curve for each band, as an 8-bit lookup table: 256 entries for each of B, G, R, A,
/// interleaved, made from functions on a 0-1 scale.
/// The sRGB transfer function's tables for mixing colours in linear light: 256 entries each of B,
/// G, R and A into linear light (A as a fraction), and 4096 back (indexed by the linear value times 4095).
package enum LinearLight {
    /// sRGB's encoded value to linear light.
    package static func decode(_ value: Double) -> Double { value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4) }
    /// Linear light to sRGB's encoded value.
    package static func encode(_ value: Double) -> Double { value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055 }

    package static let toLinear: [Float] = (0..<256).flatMap { entry -> [Float] in
        let linear = Float(decode(Double(entry) / 255))
        return [linear, linear, linear, Float(entry) / 255]
    }
    package static let fromLinear: [UInt8] = (0..<4096).flatMap { entry -> [UInt8] in
        let encoded = UInt8((encode(Double(entry) / 4095) * 255).rounded())
        return [encoded, encoded, encoded, UInt8((Double(entry) / 4095 * 255).rounded())]
    }
}

struct Curves: Equatable, Sendable {
    /// The table, entry i of band b at 4 i + b.
    var table: [UInt8]

    /// Curves from a function for red, green and blue each and one for alpha (values outside 0-1,
    /// and NaN, are clipped: NaN to 0).
    init(red: (Double) -> Double, green: (Double) -> Double, blue: (Double) -> Double, alpha: (Double) -> Double = { $0 }) {
        var table = [UInt8](repeating: 0, count: 1024)
        for entry in 0..<256 {
            let value = Double(entry) / 255
            for (band, mapped) in [blue(value), green(value), red(value), alpha(value)].enumerated() {
                table[4 * entry + band] = mapped.isNaN ? 0 : UInt8((min(1, max(0, mapped)) * 255).rounded())
            }
        }
        self.table = table
    }

    /// The same curve for red, green and blue; alpha kept.
    init(colours curve: (Double) -> Double) { self.init(red: curve, green: curve, blue: curve) }
}

/// A convolution kernel: `width` x `height` weights (both odd), rows first, the top row first,
/// each applied to the pixel at its place around the output's (a correlation, as Apple's
/// convolution filters describe their weights); then a bias added.
struct Kernel: Equatable, Sendable {
    var width: Int
    var height: Int
    /// The weights, rows first: one row when `isSeparable` (applied across, then down).
    var weights: [Double]
    /// Whether the kernel is a row applied across and then down.
    var isSeparable: Bool
    /// An amount (0-1 scale) added to every band the kernel changes.
    var bias = 0.0
    /// Whether alpha is left as it was (Apple's RGB convolutions).
    var keepsAlpha = false

    /// How far the kernel reaches across and up from its middle, in pixels.
    var reach: (across: Int, up: Int) { (width / 2, isSeparable ? width / 2 : height / 2) }

    /// A box of equal weights, `2 reach + 1` a side.
    static func box(reach: Int) -> Kernel {
        let side = 2 * reach + 1
        return Kernel(width: side, height: 1, weights: Array(repeating: 1 / Double(side), count: side), isSeparable: true)
    }

    /// A line of equal weights through the middle, `radius` each way at `angle` (radians, anticlockwise
    /// from across): one weight a whole pixel of distance, in the pixel that distance reaches.
    static func line(radius: Double, angle: Double) -> Kernel {
        let reach = Int(radius.rounded(.down)), side = 2 * reach + 1
        var weights = [Double](repeating: 0, count: side * side)
        for distance in -reach...reach {
            // Rows are the top first: up is a smaller row.
            let column = reach + Int((Double(distance) * cos(angle)).rounded()), row = reach - Int((Double(distance) * sin(angle)).rounded())
            weights[row * side + column] += 1
        }
        return Kernel(width: side, height: side, weights: weights.map { $0 / Double(side) }, isSeparable: false)
    }

    /// A disc of equal weights: the pixels whose centres lie within `radius` of the middle.
    static func disc(radius: Double) -> Kernel {
        let reach = Int(radius.rounded(.down))
        var inside: [Double] = []
        for y in -reach...reach {
            for x in -reach...reach {
                let distanceSquared = Double(x * x + y * y)
                inside.append(distanceSquared <= radius * radius ? 1 : 0)
            }
        }
        let count = inside.reduce(0, +)
        return Kernel(width: 2 * reach + 1, height: 2 * reach + 1, weights: inside.map { $0 / count }, isSeparable: false)
    }
}

/// Which value of a window a rank filter keeps.
enum Rank: Sendable {
    case minimum, median, maximum
}

/// How two images are blended: libvips's blend modes (VipsBlendMode's values), which are the PDF
/// and W3C blend modes and Porter and Duff's operators Core Image's compositing filters name.
enum BlendMode: Int32, Sendable {
    case sourceIn = 3, sourceOut = 4, sourceAtop = 5, addition = 12, multiply = 14, screen = 15, overlay = 16
    case darken = 17, lighten = 18, colorDodge = 19, colorBurn = 20, hardLight = 21, softLight = 22
    case difference = 23, exclusion = 24
    /// Not libvips's: every band of the two multiplied, alpha too.
    case multiplyCompositing = 100
}

/// A picture's pixels in memory as the renderer reads them: 8-bit B, G, R, A premultiplied (or
/// 32-bit float on the same 0-255 scale, for a picture of floats), made when first needed (a frame
/// in another format is converted then) and kept while the image lives.
final class PixelSource: @unchecked Sendable {
    let width: Int
    let height: Int
    /// Whether the picture has no alpha (a Y'CbCr frame): every pixel opaque.
    let isOpaque: Bool
    /// Whether the pixels are 32-bit floats, kept beyond 0-255 where the picture goes beyond.
    let isFloat: Bool
    private let make: () -> (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)?
    private let lock = NSLock()
    private var made: (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)??

    init(
        width: Int, height: Int, isOpaque: Bool = false, isFloat: Bool = false,
        make: @escaping () -> (memory: UnsafeMutableRawPointer, bytesPerRow: Int, owner: AnyObject)?
    ) {
        self.width = width
        self.height = height
        self.isOpaque = isOpaque
        self.isFloat = isFloat
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

/// A projective map of the plane, as a 3x3 matrix taking (x, y, 1) to (X, Y, W) and the point to
/// (X / W, Y / W).
struct Projection: Equatable, Sendable {
    /// Rows of the matrix.
    var m: [[Double]]

    /// The point `p` is taken to; nil where the map sends it to infinity or behind the viewer.
    func apply(_ x: Double, _ y: Double) -> (Double, Double)? {
        let w = m[2][0] * x + m[2][1] * y + m[2][2]
        guard w > 1e-12 else { return nil }
        return ((m[0][0] * x + m[0][1] * y + m[0][2]) / w, (m[1][0] * x + m[1][1] * y + m[1][2]) / w)
    }

    /// The map of the unit square's corners (0,0), (1,0), (1,1), (0,1) to four points, as a quadrilateral
    /// is given; nil when the points do not make one.
    static func squareTo(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) -> Projection? {
        let (x0, y0, x1, y1) = (Double(p0.x), Double(p0.y), Double(p1.x), Double(p1.y))
        let (x2, y2, x3, y3) = (Double(p2.x), Double(p2.y), Double(p3.x), Double(p3.y))
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
        let det = dx1 * dy2 - dx2 * dy1
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let g = (sx * dy2 - dx2 * sy) / det, h = (dx1 * sy - sx * dy1) / det
        let matrix = Projection(m: [[x1 - x0 + g * x1, x3 - x0 + h * x3, x0], [y1 - y0 + g * y1, y3 - y0 + h * y3, y0], [g, h, 1]])
        return matrix.m.joined().allSatisfy(\.isFinite) ? matrix : nil
    }

    /// The map that undoes this one; nil when there is none.
    var inverted: Projection? {
        let a = m
        let c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1], c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2], c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0]
        let det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02
        guard det.isFinite, abs(det) > 1e-18 else { return nil }
        let inverse = [
            [c00, a[0][2] * a[2][1] - a[0][1] * a[2][2], a[0][1] * a[1][2] - a[0][2] * a[1][1]],
            [c01, a[0][0] * a[2][2] - a[0][2] * a[2][0], a[0][2] * a[1][0] - a[0][0] * a[1][2]],
            [c02, a[0][1] * a[2][0] - a[0][0] * a[2][1], a[0][0] * a[1][1] - a[0][1] * a[1][0]],
        ].map { $0.map { $0 / det } }
        // Scaled so that W stays positive where the map is in front of the viewer.
        let sign = inverse[2][2] < 0 ? -1.0 : 1.0
        return Projection(m: inverse.map { $0.map { $0 * sign } })
    }

    /// This map after `first`.
    func after(_ first: Projection) -> Projection {
        Projection(m: (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + m[i][$1] * first.m[$1][j] } } })
    }
}
