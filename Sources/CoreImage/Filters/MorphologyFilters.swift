import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The circular morphology filters: the largest or smallest value within a radius, and their difference.
    static let morphologyFilters: [FilterDefinition] = [morphology(.maximum), morphology(.minimum), morphology(nil)]

    /// The disc of pixels whose centres lie within `radius` of a pixel's, as the union of the
    /// rectangles it is made of: for each half-width dx, the rows within sqrt(r^2 - dx^2). The
    /// largest value over the disc is the largest over those rectangles, each taken across and then down.
    static func discExtreme(_ pixels: Pixels, radius: Double, maximum: Bool) throws -> Pixels {
        let reach = Int(radius.rounded(.down))
        guard reach > 0 else { return pixels }
        var rectangles: [(Int, Int)] = []
        for dx in 0...reach {
            let dy = Int((radius * radius - Double(dx * dx)).squareRoot().rounded(.down))
            // A wider rectangle of the same height holds this one.
            if let last = rectangles.last, last.1 == dy { rectangles[rectangles.count - 1] = (dx, dy) } else { rectangles.append((dx, dy)) }
        }
        var result: Pixels?
        for (dx, dy) in rectangles {
            let one = try pixels.extreme(width: 2 * dx + 1, height: 2 * dy + 1, maximum: maximum)
            result = try result.map { maximum ? try max($0, one) : try min($0, one) } ?? one
        }
        return result ?? pixels
    }

    /// CIMorphologyMaximum (`.maximum`), CIMorphologyMinimum (`.minimum`) or CIMorphologyGradient
    /// (nil: the maximum less the minimum), over the disc of a radius, band by band, premultiplied.
    private static func morphology(_ rank: Rank?) -> FilterDefinition {
        let name = rank == .maximum ? "CIMorphologyMaximum" : rank == .minimum ? "CIMorphologyMinimum" : "CIMorphologyGradient"
        return FilterDefinition(
            name: name, displayName: rank == .maximum ? "Morphology Maximum" : rank == .minimum ? "Morphology Minimum" : "Morphology Gradient",
            categories: [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: [
                .image(),
                .scalar(kCIInputRadiusKey, "Radius", default: rank == nil ? 5 : 0, min: 0, sliderMin: 0, sliderMax: 50, type: kCIAttributeTypeDistance),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            // At most 100 pixels: a disc is as many rectangles as its radius.
            let radius = min(100, max(0, inputs.number(kCIInputRadiusKey) ?? (rank == nil ? 5 : 0)))
            let reach = Int(radius.rounded(.down))
            guard reach > 0 else { return rank == nil ? CIImage(color: .clear).cropped(to: image.extent) : image }
            let recipe = image.recipe
            let extent =
                recipe.extent.isInfinite || recipe.extent.isNull || rank != .maximum
                ? recipe.extent : recipe.extent.insetBy(dx: -CGFloat(reach), dy: -CGFloat(reach))
            return image.derived(
                .computed(
                    Computation(extent: extent) { context in
                        let wide = try context.pixels(recipe, margin: reach)
                        let result: Pixels
                        switch rank {
                        case .maximum: result = try discExtreme(wide, radius: radius, maximum: true)
                        case .minimum: result = try discExtreme(wide, radius: radius, maximum: false)
                        default: result = try discExtreme(wide, radius: radius, maximum: true) - discExtreme(wide, radius: radius, maximum: false)
                        }
                        return try context.trimmed(result, margin: reach)
                    }))
        }
    }
}
