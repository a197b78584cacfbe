import CVips
import CoreGraphics
import Foundation

/// A filter's formula in pixel arithmetic (`Pixels`): given a region, the pixels of its inputs
/// there (or wherever it reads them) combined into B, G, R, A, premultiplied, on a 0-255 scale,
/// exactly covering the region.
final class Computation: @unchecked Sendable {
    /// The region of the plane the formula's pixels cover.
    let extent: CGRect
    /// Whether every pixel inside the extent is opaque.
    let isOpaque: Bool
    /// The pixels over a region.
    let formula: (ComputationContext) throws -> Pixels

    init(extent: CGRect, isOpaque: Bool = false, formula: @escaping (ComputationContext) throws -> Pixels) {
        self.extent = extent
        self.isOpaque = isOpaque
        self.formula = formula
    }
}

/// What a formula is evaluated over: the region asked for, and the pass that renders its inputs.
struct ComputationContext {
    /// The region the formula's pixels must cover.
    let region: PixelRegion
    let pass: RenderPass

    /// A recipe's pixels in float over the region grown by `margin` on every side.
    func pixels(_ recipe: Recipe, margin: Int = 0) throws -> Pixels {
        try pixels(recipe, in: region.outset(by: margin))
    }

    /// A recipe's pixels in float over any region.
    func pixels(_ recipe: Recipe, in region: PixelRegion) throws -> Pixels {
        let image = try pass.image(recipe, in: region)
        return Pixels(cvips_is_float(image.pointer) != 0 ? image : try image.then { cvips_to_float($0) })
    }

    /// The plane's x and y at each pixel's centre: two bands over the region.
    func coordinates() throws -> Pixels { try Pixels.coordinates(of: region) }

    /// The same values everywhere over the region.
    func constant(_ values: [Double]) throws -> Pixels { try Pixels.constant(values, over: region) }

    /// Pixels covering another region of the plane, cut to (or set in a transparent) this one.
    func placed(_ pixels: Pixels, covering from: PixelRegion) throws -> Pixels {
        if from == region { return pixels }
        return Pixels(
            try pixels.image.then { cvips_embed($0, Int32(from.x - region.x), Int32(region.maxY - from.maxY), Int32(region.width), Int32(region.height), 0) })
    }

    /// Pixels made over the region grown by `margin`, cut back to the region.
    func trimmed(_ pixels: Pixels, margin: Int) throws -> Pixels {
        guard margin > 0 else { return pixels }
        return Pixels(try pixels.image.then { cvips_embed($0, Int32(-margin), Int32(-margin), Int32(region.width), Int32(region.height), 0) })
    }
}
