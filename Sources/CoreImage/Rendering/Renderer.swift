import CVips
import CoreGraphics
import Foundation

/// Why an image could not be rendered.
struct RenderingError: Error, CustomStringConvertible {
    let description: String
}

/// A region of the plane in whole pixels, in Core Image's coordinates (y up).
struct PixelRegion: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var rect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The whole pixels a rectangle touches, its sides kept within a billion pixels of the origin
    /// (an infinite rectangle reaches that far; NaN is taken as the origin).
    init(covering rect: CGRect) {
        let whole = rect.integral
        func kept(_ value: CGFloat) -> Int { value.isNaN ? 0 : Int(max(-1e9, min(1e9, value))) }
        x = kept(whole.minX)
        y = kept(whole.minY)
        width = max(0, kept(whole.maxX) - x)
        height = max(0, kept(whole.maxY) - y)
    }

    /// Whether libvips can make an image of the region: at most ten million pixels a side, within
    /// a hundred million of the origin (so that every offset between regions fits its 32 bits).
    var isRenderable: Bool { width <= 10_000_000 && height <= 10_000_000 && abs(x) <= 100_000_000 && abs(y) <= 100_000_000 }

    init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The region grown by `margin` on every side.
    func outset(by margin: Int) -> PixelRegion { PixelRegion(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin) }

    /// The part of the region inside an extent (infinite extents take all of it).
    func intersection(_ extent: CGRect) -> PixelRegion {
        if extent.isInfinite { return self }
        if extent.isNull { return PixelRegion(x: x, y: y, width: 0, height: 0) }
        let inside = rect.intersection(extent.integral)
        return inside.isNull ? PixelRegion(x: x, y: y, width: 0, height: 0) : PixelRegion(covering: inside)
    }
}

/// A libvips image this process holds a reference to.
final class VipsImage {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer?) throws {
        guard let pointer else { throw RenderingError(description: String(cString: cvips_error())) }
        self.pointer = pointer
    }

    deinit { cvips_unref(pointer) }

    /// The image an operation makes of this one, this one kept alive until the operation has it.
    func then(_ operation: (OpaquePointer) -> OpaquePointer?) throws -> VipsImage {
        try withExtendedLifetime(self) { try VipsImage(operation(pointer)) }
    }
}

/// One rendering: turns a recipe into a libvips pipeline covering a region, then evaluates it
/// (on libvips's threads, region by region) into caller memory. Holds the memory its sources
/// read until it ends.
///
/// Thread ownership: one thread at a time; a pass is made for each render.
final class RenderPass {
    /// The memory the pipeline reads, kept until the pass ends.
    private var kept: [AnyObject] = []

    /// Keeps memory a pipeline of this pass reads (a lookup table) until the pass ends.
    func keep(_ owner: AnyObject) { kept.append(owner) }

    /// Renders `recipe` over `region` into `destination` (8-bit B, G, R, A premultiplied, rows
    /// `bytesPerRow` apart, the region's top row first).
    static func render(_ recipe: Recipe, region: PixelRegion, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws {
        if let problem = cvips_load() { throw RenderingError(description: String(cString: problem)) }
        guard !region.isEmpty else { return }
        let pass = RenderPass()
        var image = try pass.image(recipe, in: region)
        if cvips_is_float(image.pointer) != 0 { image = try image.then { cvips_to_uchar($0) } }
        guard withExtendedLifetime(image, { cvips_write(image.pointer, destination, bytesPerRow) }) == 0 else {
            throw RenderingError(description: "the image could not be rendered: \(String(cString: cvips_error()))")
        }
        withExtendedLifetime(pass) {}
    }

    /// Renders a region of a recipe as floats into memory, rows from the top: 32-bit (or 16-bit,
    /// `half`) components, each the pipeline's 0-255 value over 255, unclipped.
    static func renderFloats(_ recipe: Recipe, region: PixelRegion, into destination: UnsafeMutableRawPointer, bytesPerRow: Int, half: Bool) throws {
        if let problem = cvips_load() { throw RenderingError(description: String(cString: problem)) }
        guard !region.isEmpty else { return }
        let pass = RenderPass()
        let pixels = Pixels(try pass.image(recipe, in: region))
        let count = region.width * region.height * 4
        let values = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer { values.deallocate() }
        try Pixels.read(try pixels.scaled([1.0 / 255], plus: [0]), into: values, count: count)
        for row in 0..<region.height {
            let source = values + row * region.width * 4
            let target = destination + row * bytesPerRow
            if half {
                let halves = target.assumingMemoryBound(to: Float16.self)
                for index in 0..<(region.width * 4) { halves[index] = Float16(source[index]) }
            } else {
                target.copyMemory(from: source, byteCount: region.width * 16)
            }
        }
        withExtendedLifetime(pass) {}
    }

    /// An image of exactly `region` of the recipe: 8-bit while every operation on the way keeps
    /// 8 bits, float once a colour operation or compositing has made it so.
    func image(_ recipe: Recipe, in region: PixelRegion) throws -> VipsImage {
        guard region.isRenderable else {
            throw RenderingError(description: "a part of the image \(region.width)x\(region.height) at (\(region.x), \(region.y)) is too large to render")
        }
        switch recipe {
        case .empty:
            return try transparent(region)
        case .pixels(let source):
            guard let pixels = source.pixels else { throw RenderingError(description: "the image's pixels could not be read") }
            kept.append(pixels.owner)
            let pixelSize = source.isFloat ? 16 : 4
            var image = try VipsImage(
                cvips_from_memory(
                    pixels.memory, pixels.bytesPerRow * source.height, Int32(pixels.bytesPerRow / pixelSize), Int32(source.height), source.isFloat ? 1 : 0))
            if pixels.bytesPerRow / pixelSize != source.width {
                image = try image.then { cvips_embed($0, 0, 0, Int32(source.width), Int32(source.height), 0) }
            }
            return try place(image, at: PixelRegion(x: 0, y: 0, width: source.width, height: source.height), in: region)
        case .color(let b, let g, let r, let a):
            let pixel = ColorPixel([Float(b * 255), Float(g * 255), Float(r * 255), Float(a * 255)])
            kept.append(pixel)
            let one = try VipsImage(pixel.isWhole ? cvips_from_memory(pixel.bytes, 4, 1, 1, 0) : cvips_from_memory(pixel.memory, 16, 1, 1, 1))
            return try one.then { cvips_embed($0, 0, 0, Int32(region.width), Int32(region.height), 1) }
        case .crop(let inner, let rect):
            let inside = region.intersection(rect.standardized)
            guard !inside.isEmpty else { return try transparent(region) }
            return try place(try image(inner, in: inside), at: inside, in: region)
        case .transform(.sampling(let inner, let nearest), let transform):
            return try transformed(inner, by: transform, nearest: nearest, in: region)
        case .transform(let inner, let transform):
            return try transformed(inner, by: transform, nearest: false, in: region)
        case .sampling(let inner, _):
            return try image(inner, in: region)
        case .blur(let inner, let sigma):
            guard sigma > 0 else { return try image(inner, in: region) }
            let margin = Int(Recipe.blurReach(sigma))
            let blurred = try image(inner, in: region.outset(by: margin)).then { cvips_blur($0, sigma) }
            return try blurred.then { cvips_embed($0, Int32(-margin), Int32(-margin), Int32(region.width), Int32(region.height), 0) }
        case .recombine(let inner, let matrix):
            let source = try image(inner, in: region)
            let rows = (0..<4).map { row in Array(matrix[(row * 4)..<(row * 4 + 4)]) }
            // A matrix that only scales each band (an exposure, a gain) is libvips's linear, a
            // quarter of the multiplications; one that only reorders bands (a bitmap's layout)
            // keeps 8 bits rather than going through float.
            if rows.enumerated().allSatisfy({ row, values in values.enumerated().allSatisfy { $0.offset == row || $0.element == 0 } }) {
                let scale = (0..<4).map { rows[$0][$0] }
                return try source.then { image in
                    scale.withUnsafeBufferPointer { a in [0.0, 0, 0, 0].withUnsafeBufferPointer { cvips_linear(image, a.baseAddress, $0.baseAddress) } }
                }
            }
            let order = rows.compactMap { values in values.filter { $0 != 0 } == [1] ? values.firstIndex(of: 1) : nil }
            if order.count == 4 {
                let bands = try order.map { band in try source.then { cvips_bands($0, Int32(band), 1) } }
                return try withExtendedLifetime(bands) {
                    try VipsImage(bands.map { Optional($0.pointer) }.withUnsafeBufferPointer { cvips_join_bands($0.baseAddress, 4) })
                }
            }
            return try source.then { image in matrix.withUnsafeBufferPointer { cvips_recombine(image, $0.baseAddress) } }
        case .lanczos(let inner, let x, let y):
            let extent = inner.extent
            guard !extent.isInfinite else { return try transformed(inner, by: CGAffineTransform(scaleX: x, y: y), nearest: false, in: region) }
            let whole = PixelRegion(covering: extent)
            guard !whole.isEmpty, !region.intersection(recipe.extent).isEmpty else { return try transparent(region) }
            let scaled = try image(inner, in: whole).then { cvips_resize($0, x, y) }
            let output = PixelRegion(covering: recipe.extent)
            return try place(
                scaled, at: PixelRegion(x: output.x, y: output.y, width: Int(cvips_width(scaled.pointer)), height: Int(cvips_height(scaled.pointer))),
                in: region)
        case .over(let top, let bottom):
            // An opaque top that covers the region hides everything under it.
            if top.isOpaque, region.intersection(top.extent) == region { return try image(top, in: region) }
            let under = try image(bottom, in: region)
            // A top smaller than the region (an inset, a watermark) is blended over its own area only.
            let reach = top.extent.isInfinite ? region : region.intersection(top.extent)
            guard !reach.isEmpty else { return under }
            let over = try image(top, in: reach)
            if reach == region { return try withExtendedLifetime(under) { try over.then { cvips_over($0, under.pointer) } } }
            return try withExtendedLifetime(over) {
                try under.then { cvips_over_area(over.pointer, $0, Int32(reach.x - region.x), Int32(region.maxY - reach.maxY)) }
            }
        case .blend(let top, let bottom, let mode):
            // Multiplying by an opaque colour that covers the region, either way round, is for each
            // band c of the other image (premultiplied, alpha a, 0-255) colour (c + 255 - a), opaque:
            // a colour matrix and a constant, rather than a blend.
            if mode == .multiply {
                for (colour, other) in [(bottom, top), (top, bottom)] {
                    guard let (b, g, r) = colour.opaqueColour(covering: region) else { continue }
                    let matrix = [b, 0, 0, -b, 0, g, 0, -g, 0, 0, r, -r, 0, 0, 0, 0]
                    let mixed = try image(other, in: region).then { source in matrix.withUnsafeBufferPointer { cvips_recombine(source, $0.baseAddress) } }
                    return try mixed.then { source in
                        [1.0, 1, 1, 1].withUnsafeBufferPointer { a in
                            [255 * b, 255 * g, 255 * r, 255].withUnsafeBufferPointer { cvips_linear(source, a.baseAddress, $0.baseAddress) }
                        }
                    }
                }
            }
            let over = try image(top, in: region), under = try image(bottom, in: region)
            return try withExtendedLifetime(under) { try over.then { cvips_blend($0, under.pointer, mode.rawValue) } }
        case .tile(let inner):
            // The tile rendered once, then repeated over the region in step with where it lies.
            let whole = PixelRegion(covering: inner.extent)
            guard !whole.isEmpty, whole.isRenderable, !inner.extent.isInfinite else { return try image(inner, in: region) }
            let tile = try image(inner, in: whole)
            return try tile.then { cvips_embed($0, Int32(whole.x - region.x), Int32(region.maxY - whole.maxY), Int32(region.width), Int32(region.height), 2) }
        case .pixellate(let inner, let size, let origin):
            // The region widened to whole blocks of the grid through the origin.
            let (ox, oy) = (Int(origin.x.rounded(.down)), Int(origin.y.rounded(.down)))
            func down(_ value: Int, _ start: Int) -> Int { start + Int((Double(value - start) / Double(size)).rounded(.down)) * size }
            let x0 = down(region.x, ox), y0 = down(region.y, oy)
            let x1 = down(region.maxX - 1, ox) + size, y1 = down(region.maxY - 1, oy) + size
            let blocks = PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            guard blocks.isRenderable else { return try transparent(region) }
            let averaged = try image(inner, in: blocks).then { cvips_pixellate($0, Int32(size)) }
            return try averaged.then {
                cvips_embed($0, Int32(blocks.x - region.x), Int32(region.maxY - blocks.maxY), Int32(region.width), Int32(region.height), 0)
            }
        case .componentExtreme(let inner, let maximum):
            return try image(inner, in: region).then { cvips_component_extreme($0, maximum ? 1 : 0) }
        case .masked(let inner, let background, let mask, let byAlpha):
            let front = try image(inner, in: region), back = try image(background, in: region), weights = try image(mask, in: region)
            return try withExtendedLifetime((back, weights)) { try front.then { cvips_blend_with_mask($0, back.pointer, weights.pointer, byAlpha ? 1 : 0) } }
        case .curves(let inner, let curves):
            return try image(inner, in: region).then { source in curves.table.withUnsafeBufferPointer { cvips_curves(source, $0.baseAddress) } }
        case .convolve(let inner, let kernel):
            let margin = max(kernel.reach.across, kernel.reach.up)
            let convolved = try image(inner, in: region.outset(by: margin)).then { source in
                kernel.weights.withUnsafeBufferPointer {
                    cvips_convolve(
                        source, $0.baseAddress, Int32(kernel.width), Int32(kernel.height), kernel.isSeparable ? 1 : 0, kernel.bias * 255,
                        kernel.keepsAlpha ? 1 : 0)
                }
            }
            return try convolved.then { cvips_embed($0, Int32(-margin), Int32(-margin), Int32(region.width), Int32(region.height), 0) }
        case .rank(let inner, let width, let height, let rank):
            let (across, up) = (width / 2, height / 2)
            let window = region.outset(by: max(across, up))
            let index = rank == .minimum ? 0 : rank == .maximum ? width * height - 1 : width * height / 2
            let ranked = try image(inner, in: window).then { cvips_rank($0, Int32(width), Int32(height), Int32(index)) }
            let margin = max(across, up)
            return try ranked.then { cvips_embed($0, Int32(-margin), Int32(-margin), Int32(region.width), Int32(region.height), 0) }
        case .areaAverage(let inner, let rect):
            // Only the part of the region the image covers is read; the rest is transparent, so the
            // mean over that part is scaled by the share of the region it is.
            let whole = PixelRegion(covering: rect), covered = whole.intersection(inner.extent)
            guard !whole.isEmpty, !covered.isEmpty, covered.isRenderable, !region.intersection(recipe.extent).isEmpty else { return try transparent(region) }
            let share = Double(covered.width) * Double(covered.height) / (Double(whole.width) * Double(whole.height))
            let average = try image(inner, in: covered).then { cvips_average($0) }.then { mean in
                [share, share, share, share].withUnsafeBufferPointer { scale in
                    [0.0, 0, 0, 0].withUnsafeBufferPointer { cvips_linear(mean, scale.baseAddress, $0.baseAddress) }
                }
            }
            return try place(average, at: PixelRegion(x: whole.x, y: whole.y, width: 1, height: 1), in: region)
        case .mix(let first, let second, let a, let b):
            let one = try image(first, in: region), other = try image(second, in: region)
            return try withExtendedLifetime(other) { try one.then { cvips_mix($0, other.pointer, a, b) } }
        case .project(let inner, let inverse, let extent):
            return try projected(inner, inverse: inverse, extent: extent, in: region)
        case .linearMix(let inner, let matrix):
            return try image(inner, in: region).then { source in
                matrix.withUnsafeBufferPointer { m in
                    LinearLight.toLinear.withUnsafeBufferPointer { forward in
                        LinearLight.fromLinear.withUnsafeBufferPointer { backward in
                            cvips_colour_matrix_linear(source, m.baseAddress, forward.baseAddress, backward.baseAddress)
                        }
                    }
                }
            }
        case .unsharp(let inner, let sigma, let amount):
            // The image rendered once, over the region and the blur's reach, for both the image and its blur.
            let margin = Int(Recipe.blurReach(sigma))
            let wide = try image(inner.extent.isInfinite ? inner : .clamp(inner), in: region.outset(by: margin))
            let (w, h) = (Int32(region.width), Int32(region.height))
            let blurred = try wide.then { cvips_blur($0, sigma) }.then { cvips_embed($0, Int32(-margin), Int32(-margin), w, h, 0) }
            let sharp = try wide.then { cvips_embed($0, Int32(-margin), Int32(-margin), w, h, 0) }
            return try withExtendedLifetime(blurred) { try sharp.then { cvips_mix($0, blurred.pointer, 1 + amount, -amount) } }
        case .vibrance(let inner, let amount):
            return try image(inner, in: region).then { cvips_vibrance($0, amount) }
        case .shadowsHighlights(let inner, let sigma, let shadows, let highlights):
            // The luma around each pixel reaches a blur's width beyond the region.
            let margin = sigma > 0 ? Int(Recipe.blurReach(sigma)) : 0
            let adjusted = try image(inner, in: region.outset(by: margin)).then { cvips_shadows_highlights($0, sigma, shadows, highlights) }
            guard margin > 0 else { return adjusted }
            return try adjusted.then { cvips_embed($0, Int32(-margin), Int32(-margin), Int32(region.width), Int32(region.height), 0) }
        case .computed(let computation):
            let inside = region.intersection(computation.extent)
            guard !inside.isEmpty else { return try transparent(region) }
            let pixels = try computation.formula(ComputationContext(region: inside, pass: self))
            return try place(pixels.image, at: inside, in: region)
        case .clamp(let inner):
            let extent = PixelRegion(covering: inner.extent)
            guard !extent.isEmpty else { return try transparent(region) }
            // The part of the extent nearest the region: at least its edge row or column.
            let x0 = min(max(region.x, extent.x), extent.maxX - 1), y0 = min(max(region.y, extent.y), extent.maxY - 1)
            let x1 = max(min(region.maxX, extent.maxX), x0 + 1), y1 = max(min(region.maxY, extent.maxY), y0 + 1)
            let nearest = PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            // Carried out over the span of both (libvips computes only the part asked for), then cut to the region.
            let span = PixelRegion(
                x: min(nearest.x, region.x), y: min(nearest.y, region.y), width: max(nearest.maxX, region.maxX) - min(nearest.x, region.x),
                height: max(nearest.maxY, region.maxY) - min(nearest.y, region.y))
            let carried = try image(inner, in: nearest).then {
                cvips_embed($0, Int32(nearest.x - span.x), Int32(span.maxY - nearest.maxY), Int32(span.width), Int32(span.height), 1)
            }
            return try place(carried, at: span, in: region)
        }
    }

    /// A projected image over a region: each output pixel's centre taken back through the map to
    /// the inner image, which is made over the part the region reaches, then sampled there.
    private func projected(_ inner: Recipe, inverse: Projection, extent: CGRect, in region: PixelRegion) throws -> VipsImage {
        let reach = region.intersection(extent)
        guard !reach.isEmpty else { return try transparent(region) }
        if reach != region { return try place(try projected(inner, inverse: inverse, extent: extent, in: reach), at: reach, in: region) }
        // The corners' images bound the quadrilateral the region maps back to.
        var corners: [(Double, Double)] = []
        for (x, y) in [(region.x, region.y), (region.maxX, region.y), (region.maxX, region.maxY), (region.x, region.maxY)] {
            guard let point = inverse.apply(Double(x), Double(y)) else { return try transparent(region) }
            corners.append(point)
        }
        let bounds = CGRect(
            x: corners.map(\.0).min()!, y: corners.map(\.1).min()!, width: corners.map(\.0).max()! - corners.map(\.0).min()!,
            height: corners.map(\.1).max()! - corners.map(\.1).min()!
        ).insetBy(dx: -2, dy: -2)
        let source = PixelRegion(covering: bounds).intersection(inner.extent)
        guard !source.isEmpty, source.isRenderable else { return try transparent(region) }
        let pixels = try image(inner, in: source)
        // For each output pixel (column i, row j from the top), where its centre comes from in the
        // source's pixels (column u, row v from the top).
        let coordinates = FloatPixels(count: region.width * region.height * 2)
        kept.append(coordinates)
        let values = coordinates.memory
        var at = 0
        for j in 0..<region.height {
            let y = Double(region.maxY - j) - 0.5
            for i in 0..<region.width {
                let x = Double(region.x + i) + 0.5
                if let (u, v) = inverse.apply(x, y) {
                    values[at] = Float(u - Double(source.x) - 0.5)
                    values[at + 1] = Float(Double(source.maxY) - v - 0.5)
                } else {
                    (values[at], values[at + 1]) = (-1e6, -1e6)
                }
                at += 2
            }
        }
        return try pixels.then { cvips_map($0, values, Int32(region.width), Int32(region.height)) }
    }

    /// An image covering `from` set in its place in a transparent image covering `region`.
    private func place(_ image: VipsImage, at from: PixelRegion, in region: PixelRegion) throws -> VipsImage {
        if from == region { return image }
        return try image.then { cvips_embed($0, Int32(from.x - region.x), Int32(region.maxY - from.maxY), Int32(region.width), Int32(region.height), 0) }
    }

    /// A transparent float image covering a region.
    private func transparent(_ region: PixelRegion) throws -> VipsImage {
        let one = try VipsImage(cvips_from_memory(ColorPixel.transparent.bytes, 4, 1, 1, 0))
        return try one.then { cvips_embed($0, 0, 0, Int32(region.width), Int32(region.height), 0) }
    }

    /// A recipe moved by an affine transform: a whole-pixel move shifts the region read; any
    /// other is sampled bilinearly (or from the nearest pixel) from the part of the source the
    /// region maps back to.
    private func transformed(_ inner: Recipe, by transform: CGAffineTransform, nearest: Bool, in region: PixelRegion) throws -> VipsImage {
        let (a, b, c, d, tx, ty) = (transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty)
        if a == 1, b == 0, c == 0, d == 1, tx == tx.rounded(), ty == ty.rounded() {
            return try image(inner, in: PixelRegion(x: region.x - Int(tx), y: region.y - Int(ty), width: region.width, height: region.height))
        }
        guard abs(a * d - b * c) > 1e-12 else { return try transparent(region) }
        // Only the part of the region the moved image can reach is sampled (an inset picture
        // covers a corner of the frame); the rest is transparent.
        let extent = inner.extent
        if !extent.isInfinite {
            let reach = region.intersection(extent.applying(transform).insetBy(dx: -2, dy: -2))
            guard !reach.isEmpty else { return try transparent(region) }
            if reach != region { return try place(try transformed(inner, by: transform, nearest: nearest, in: reach), at: reach, in: region) }
        }
        let back = region.rect.applying(transform.inverted()).insetBy(dx: -2, dy: -2)
        let source = PixelRegion(covering: back).intersection(inner.extent)
        guard !source.isEmpty else { return try transparent(region) }
        let pixels = try image(inner, in: source)
        // Pixel centres: the source's (u, v) is (x + u + 0.5, maxY - v - 0.5) in the plane; the
        // output's (U, V) is (X - x - 0.5, maxY - Y - 0.5) of the transformed point (X, Y).
        let sx = CGFloat(source.x) + 0.5, sy = CGFloat(source.maxY) - 0.5
        var dx = a * sx + c * sy + tx - CGFloat(region.x) - 0.5
        var dy = CGFloat(region.maxY) - 0.5 - b * sx - d * sy - ty
        if nearest {
            // libvips's nearest sampler takes the pixel below the point (its floor): moving the
            // source half a pixel makes it the nearest pixel's centre.
            dx -= (a - c) / 2
            dy -= (d - b) / 2
        }
        return try pixels.then { cvips_affine($0, a, -c, -b, d, dx, dy, Int32(region.width), Int32(region.height), nearest ? 1 : 0) }
    }
}

/// One pixel's memory, in float and, when its values are whole, in 8 bits, for images of one colour.
final class ColorPixel: @unchecked Sendable {
    let memory: UnsafeMutableRawPointer
    let bytes: UnsafeMutableRawPointer
    /// Whether the values are whole numbers from 0 to 255, so that `bytes` holds them exactly.
    let isWhole: Bool

    init(_ values: [Float]) {
        let floats = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        values.withUnsafeBytes { floats.copyMemory(from: $0.baseAddress!, byteCount: 16) }
        let whole = UnsafeMutableRawPointer.allocate(byteCount: 4, alignment: 4)
        for (index, value) in values.enumerated() { whole.storeBytes(of: UInt8(min(255, max(0, value.rounded()))), toByteOffset: index, as: UInt8.self) }
        memory = floats
        bytes = whole
        isWhole = values.allSatisfy { $0 >= 0 && $0 <= 255 && $0 == $0.rounded() }
    }

    deinit {
        memory.deallocate()
        bytes.deallocate()
    }

    /// Transparent black, which blank regions are made of.
    static let transparent = ColorPixel([0, 0, 0, 0])
}

/// Float values this process made for one rendering (sampling coordinates, factors), held while its pipeline lives.
final class FloatPixels {
    let memory: UnsafeMutablePointer<Float>

    init(count: Int) {
        memory = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count))
        memory.initialize(repeating: 0, count: max(1, count))
    }

    deinit { memory.deallocate() }
}
