import CVips
import Foundation

/// Float pixels of any number of bands as a node of a libvips pipeline, combined with operators
/// as a formula is written: `(a + b) * 0.5`, `min(x, 1)`, `where(x < y, a, b)`. Each operation
/// adds a node; libvips evaluates the formula region by region, on its threads, when the image is
/// written out, so no loop over pixels runs here.
///
/// Where one operand has one band and the other several, the one band is used for each.
struct Pixels {
    let image: VipsImage

    init(_ image: VipsImage) { self.image = image }

    /// Pixels of one operation on this image's.
    private func then(_ operation: (OpaquePointer) -> OpaquePointer?) throws -> Pixels { Pixels(try image.then(operation)) }

    /// Pixels of one operation on two images'.
    private static func combine(_ left: Pixels, _ right: Pixels, _ operation: cvips_binary_operation) throws -> Pixels {
        try withExtendedLifetime(right.image) { try left.then { cvips_binary($0, right.image.pointer, Int32(operation.rawValue)) } }
    }

    /// The width and height in pixels.
    var size: (width: Int, height: Int) { (Int(cvips_width(image.pointer)), Int(cvips_height(image.pointer))) }

    /// The number of bands.
    var bandCount: Int { Int(cvips_band_count(image.pointer)) }

    /// Pixels of two bands, the plane's x and y at each pixel's centre, over a region.
    static func coordinates(of region: PixelRegion) throws -> Pixels {
        Pixels(try VipsImage(cvips_coordinates(Int32(region.width), Int32(region.height), Double(region.x) + 0.5, Double(region.maxY) - 0.5)))
    }

    /// Pixels of the same values everywhere over a region.
    static func constant(_ values: [Double], over region: PixelRegion) throws -> Pixels {
        Pixels(try VipsImage(values.withUnsafeBufferPointer { cvips_constant(Int32(region.width), Int32(region.height), $0.baseAddress, Int32(values.count)) }))
    }

    /// `count` bands from `first`.
    func bands(_ first: Int, _ count: Int = 1) throws -> Pixels { try then { cvips_bands($0, Int32(first), Int32(count)) } }

    /// The bands of several images, one after another.
    static func joined(_ parts: [Pixels]) throws -> Pixels {
        let pointers: [OpaquePointer?] = parts.map { $0.image.pointer }
        return try withExtendedLifetime(parts.map(\.image)) {
            Pixels(try VipsImage(pointers.withUnsafeBufferPointer { cvips_join_bands($0.baseAddress, Int32(parts.count)) }))
        }
    }

    /// Each band times `a` plus `b`: one value for all bands, or one for each.
    func scaled(_ a: [Double], plus b: [Double]) throws -> Pixels {
        let count = max(a.count, b.count)
        let a = a.count == count ? a : Array(repeating: a[0], count: count), b = b.count == count ? b : Array(repeating: b[0], count: count)
        return try then { source in
            a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { cvips_scale_offset(source, a.baseAddress, $0.baseAddress, Int32(count)) } }
        }
    }

    /// One band: at each pixel the smallest (0), a middle, or the largest of the bands.
    func rankOfBands(_ index: Int) throws -> Pixels { try then { cvips_band_rank($0, Int32(index)) } }

    /// Bands made of weighted sums of these bands: `matrix` has a row of weights for each band made.
    func weighed(_ matrix: [[Double]]) throws -> Pixels {
        let flat = matrix.flatMap { $0 }
        return try then { source in flat.withUnsafeBufferPointer { cvips_weigh_bands(source, $0.baseAddress, Int32(matrix.count), Int32(matrix[0].count)) } }
    }

    /// These pixels sampled bilinearly where `coordinates` (two bands: x and y in these pixels,
    /// the first pixel's centre at 0, 0) say; 0 outside.
    func sampled(at coordinates: Pixels) throws -> Pixels {
        try withExtendedLifetime(coordinates.image) { try then { cvips_sample($0, coordinates.image.pointer) } }
    }

    /// B, G, R, A (0-255) with its colour divided by its alpha.
    func unpremultiplied() throws -> Pixels { try then { cvips_premultiplied($0, 0) } }
    /// B, G, R, A (0-255) with its colour multiplied by its alpha.
    func premultiplied() throws -> Pixels { try then { cvips_premultiplied($0, 1) } }

    /// The `width` x `height` window whose top-left pixel is at (`x`, `y`) in these pixels (rows downwards); 0 beyond them.
    func window(x: Int, y: Int, width: Int, height: Int) throws -> Pixels {
        try then { cvips_embed($0, Int32(-x), Int32(-y), Int32(width), Int32(height), 0) }
    }

    /// Each pixel replaced, band by band, by the largest (or smallest) value of the `width` x
    /// `height` window centred on it (both odd); the size kept, 0 beyond the pixels.
    func extreme(width: Int, height: Int, maximum: Bool) throws -> Pixels {
        var result = self
        // A rectangle's extreme is the extreme across, then down.
        if width > 1 { result = try result.then { cvips_rank($0, Int32(width), 1, Int32(maximum ? width - 1 : 0)) } }
        if height > 1 { result = try result.then { cvips_rank($0, 1, Int32(height), Int32(maximum ? height - 1 : 0)) } }
        return result
    }

    /// For each pixel of one band, the distance in pixels to the nearest pixel that is not 0.
    func distanceToNonzero() throws -> Pixels { try then { cvips_distance_to_nonzero($0) } }

    /// These pixels scaled with a cubic kernel: Catmull-Rom's, or Mitchell and Netravali's.
    func resizedCubic(x: Double, y: Double, mitchell: Bool) throws -> Pixels { try then { cvips_resize_with($0, x, y, mitchell ? 3 : 2) } }

    /// Sobel's 3 x 3 differences across and up (weights 1, 2, 1: a step of 1 gives 4) of pixels
    /// rendered one pixel beyond each side of a `width` x `height` region, over the region.
    func sobel(width: Int, height: Int) throws -> (across: Pixels, up: Pixels) {
        // The neighbour `dx` across and `dy` up of each pixel.
        func at(_ dx: Int, _ dy: Int) throws -> Pixels { try window(x: 1 + dx, y: 1 - dy, width: width, height: height) }
        let across = try (at(1, 1) + 2 * at(1, 0) + at(1, -1)) - (at(-1, 1) + 2 * at(-1, 0) + at(-1, -1))
        let up = try (at(-1, 1) + 2 * at(0, 1) + at(1, 1)) - (at(-1, -1) + 2 * at(0, -1) + at(1, -1))
        return (across, up)
    }

    /// Each `across` x `down` block replaced by its mean.
    func blockMeans(across: Int, down: Int) throws -> Pixels { try then { cvips_block_means($0, Int32(across), Int32(down)) } }

    /// Pixels of float values in memory (`bands` a pixel, rows packed), which the caller keeps while the pixels are used.
    static func floats(_ values: UnsafePointer<Float>, width: Int, height: Int, bands: Int) throws -> Pixels {
        Pixels(try VipsImage(cvips_float_image(values, Int32(width), Int32(height), Int32(bands))))
    }

    /// How many pixels of a one-band image hold each value from 0 to 255 (rounded), computed now.
    func histogram() throws -> [Double] {
        var counts = [Double](repeating: 0, count: 256)
        guard cvips_histogram(image.pointer, &counts) == 0 else {
            throw RenderingError(description: "the image's histogram could not be found: \(String(cString: cvips_error()))")
        }
        return counts
    }

    /// For each value 0-255 of a one-band image (rounded), the sum of the one-band `weights` where
    /// the image holds it, computed now.
    func weightedHistogram(_ weights: Pixels) throws -> [Double] {
        var sums = [Double](repeating: 0, count: 256)
        guard withExtendedLifetime(weights.image, { cvips_weighted_histogram(image.pointer, weights.image.pointer, &sums) }) == 0 else {
            throw RenderingError(description: "the image's weighted histogram could not be found: \(String(cString: cvips_error()))")
        }
        return sums
    }

    /// The column and row (rows downwards) of a one-band image's largest or smallest value, computed now.
    func positionOfExtreme(maximum: Bool) throws -> (x: Int, y: Int) {
        var x: Int32 = 0, y: Int32 = 0
        guard cvips_extreme_position(image.pointer, maximum ? 1 : 0, &x, &y) == 0 else {
            throw RenderingError(description: "the image's extreme could not be found: \(String(cString: cvips_error()))")
        }
        return (Int(x), Int(y))
    }

    /// The pixels' values, computed now into `values` (`count` floats, rows packed).
    static func read(_ pixels: Pixels, into values: UnsafeMutablePointer<Float>, count: Int) throws {
        guard cvips_read_floats(pixels.image.pointer, values, count) == 0 else {
            throw RenderingError(description: "the image's values could not be read: \(String(cString: cvips_error()))")
        }
    }

    /// The smallest and largest value of each band, computed now.
    func extremes() throws -> (minimum: [Double], maximum: [Double]) {
        let count = bandCount
        var minimum = [Double](repeating: 0, count: count), maximum = minimum
        guard cvips_extremes(image.pointer, Int32(count), &minimum, &maximum) == 0 else {
            throw RenderingError(description: "the image's extremes could not be found: \(String(cString: cvips_error()))")
        }
        return (minimum, maximum)
    }

    static func + (left: Pixels, right: Pixels) throws -> Pixels { try combine(left, right, CVIPS_ADD) }
    static func - (left: Pixels, right: Pixels) throws -> Pixels { try combine(left, right, CVIPS_SUBTRACT) }
    static func * (left: Pixels, right: Pixels) throws -> Pixels { try combine(left, right, CVIPS_MULTIPLY) }
    static func / (left: Pixels, right: Pixels) throws -> Pixels { try combine(left, right, CVIPS_DIVIDE) }
    static func + (left: Pixels, right: Double) throws -> Pixels { try left.scaled([1], plus: [right]) }
    static func + (left: Double, right: Pixels) throws -> Pixels { try right.scaled([1], plus: [left]) }
    static func - (left: Pixels, right: Double) throws -> Pixels { try left.scaled([1], plus: [-right]) }
    static func - (left: Double, right: Pixels) throws -> Pixels { try right.scaled([-1], plus: [left]) }
    static func * (left: Pixels, right: Double) throws -> Pixels { try left.scaled([right], plus: [0]) }
    static func * (left: Double, right: Pixels) throws -> Pixels { try right.scaled([left], plus: [0]) }
    static func / (left: Pixels, right: Double) throws -> Pixels { try left.scaled([1 / right], plus: [0]) }
    static func / (left: Double, right: Pixels) throws -> Pixels { try (right * 0 + left) / right }
    /// 1 where the left is less than the right, else 0.
    static func < (left: Pixels, right: Pixels) throws -> Pixels { try combine(left, right, CVIPS_LESS) }
    /// 1 where the left is less than a value, else 0.
    static func < (left: Pixels, right: Double) throws -> Pixels { try (left - right).isNegative() }
    /// 1 where the left is more than a value, else 0.
    static func > (left: Pixels, right: Double) throws -> Pixels { try (right - left).isNegative() }

    /// 1 where below 0, else 0.
    private func isNegative() throws -> Pixels {
        let zero = try self * 0
        return try self < zero
    }
}

/// The larger of two pixels' values, band by band.
func max(_ left: Pixels, _ right: Pixels) throws -> Pixels {
    try withExtendedLifetime(right.image) { Pixels(try left.image.then { cvips_binary($0, right.image.pointer, Int32(CVIPS_MAXIMUM.rawValue)) }) }
}
/// The smaller of two pixels' values, band by band.
func min(_ left: Pixels, _ right: Pixels) throws -> Pixels {
    try withExtendedLifetime(right.image) { Pixels(try left.image.then { cvips_binary($0, right.image.pointer, Int32(CVIPS_MINIMUM.rawValue)) }) }
}
/// Values held between two bounds.
func clamp(_ value: Pixels, _ low: Double, _ high: Double) throws -> Pixels {
    let zero = try value * 0
    return try min(max(value, zero + low), zero + high)
}
/// The left raised to the right.
func pow(_ left: Pixels, _ right: Pixels) throws -> Pixels {
    try withExtendedLifetime(right.image) { Pixels(try left.image.then { cvips_binary($0, right.image.pointer, Int32(CVIPS_POWER.rawValue)) }) }
}
/// The angle of (x, y) from the x axis, in radians from 0 to 2π.
func atan2(_ y: Pixels, _ x: Pixels) throws -> Pixels {
    try withExtendedLifetime(x.image) { Pixels(try y.image.then { cvips_binary($0, x.image.pointer, Int32(CVIPS_ATAN2.rawValue)) }) }
}
/// A function of each value.
private func unary(_ value: Pixels, _ operation: cvips_unary_operation) throws -> Pixels {
    Pixels(try value.image.then { cvips_unary($0, Int32(operation.rawValue)) })
}
/// The sine of each value, in radians.
func sin(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_SIN) }
/// The cosine of each value, in radians.
func cos(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_COS) }
/// The square root of each value.
func sqrt(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_SQRT) }
/// The magnitude of each value.
func abs(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_ABS) }
/// Each value rounded down.
func floor(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_FLOOR) }
/// e raised to each value.
func exp(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_EXP) }
/// The natural logarithm of each value.
func log(_ value: Pixels) throws -> Pixels { try unary(value, CVIPS_LOG) }
/// `then` where the condition is not 0, `otherwise` where it is.
func choose(_ condition: Pixels, _ then: Pixels, _ otherwise: Pixels) throws -> Pixels {
    try withExtendedLifetime((then.image, otherwise.image)) {
        Pixels(try condition.image.then { cvips_choose($0, then.image.pointer, otherwise.image.pointer) })
    }
}
/// `a` where `t` is 0, `b` where it is 1, in proportion between.
func interpolate(_ a: Pixels, _ b: Pixels, _ t: Pixels) throws -> Pixels { try a + (b - a) * t }
