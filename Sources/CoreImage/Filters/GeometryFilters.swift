import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Geometry beyond the affine and perspective transforms: straightening and bicubic scaling.
    static let geometryFilters: [FilterDefinition] = [straighten, bicubicScaleTransform]

    private static let geometry = [kCICategoryGeometryAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    static let straighten = FilterDefinition(
        name: "CIStraightenFilter", displayName: "Straighten", categories: geometry,
        inputs: [.image(), .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle)]
    ) { inputs in
        // Turned by the angle about the centre and enlarged just enough that the turned picture
        // covers its own extent, which it is cut to: by |cos a| + |sin a| times the longer side over
        // the shorter, and a pixel more each way, so that no corner samples beyond the picture.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let angle = inputs.number(kCIInputAngleKey) ?? 0
        let extent = image.extent
        guard angle != 0, !extent.isInfinite, !extent.isNull, extent.width > 0, extent.height > 0 else { return image }
        let longer = max(extent.width, extent.height) / min(extent.width, extent.height)
        let margin = max((extent.width + 2) / extent.width, (extent.height + 2) / extent.height)
        let scale = (abs(cos(angle)) + abs(sin(angle)) * Double(longer)) * Double(margin)
        let turn = CGAffineTransform(translationX: -extent.midX, y: -extent.midY).concatenating(CGAffineTransform(rotationAngle: angle))
            .concatenating(CGAffineTransform(scaleX: scale, y: scale)).concatenating(CGAffineTransform(translationX: extent.midX, y: extent.midY))
        return image.transformed(by: turn).cropped(to: extent)
    }

    static let bicubicScaleTransform = FilterDefinition(
        name: "CIBicubicScaleTransform", displayName: "Bicubic Scale Transform", categories: geometry,
        inputs: [
            .image(), .scalar(kCIInputScaleKey, "Scale", default: 1, min: 0, sliderMin: 0.05, sliderMax: 1.5),
            .scalar(kCIInputAspectRatioKey, "Aspect Ratio", default: 1, min: 0, sliderMin: 0.05, sliderMax: 2),
            .scalar("inputB", "B", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
            .scalar("inputC", "C", default: 0.75, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // Scaled by the scale up and the scale times the aspect ratio across, with libvips's
        // cubic kernels: Mitchell and Netravali's where B is a third or more, Catmull-Rom's otherwise
        // (libvips has no kernel of any other B and C).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let scale = inputs.number(kCIInputScaleKey) ?? 1, aspect = inputs.number(kCIInputAspectRatioKey) ?? 1
        guard scale > 0, aspect > 0 else { return .empty() }
        if scale == 1, aspect == 1 { return image }
        let (x, y) = (scale * aspect, scale)
        let mitchell = (inputs.number("inputB") ?? 0) >= 1.0 / 3
        let recipe = image.recipe, extent = recipe.extent
        guard !extent.isInfinite else { return image.transformed(by: CGAffineTransform(scaleX: x, y: y)) }
        let whole = PixelRegion(covering: extent)
        guard !whole.isEmpty, whole.isRenderable else { return .empty() }
        let output = CGRect(
            x: (extent.minX * x).rounded(), y: (extent.minY * y).rounded(), width: (extent.width * x).rounded(), height: (extent.height * y).rounded())
        guard output.width >= 1, output.height >= 1 else { return .empty() }
        return image.derived(
            .computed(
                Computation(extent: output, isOpaque: recipe.isOpaque) { context in
                    let scaled = try context.pixels(recipe, in: whole).resizedCubic(x: x, y: y, mitchell: mitchell)
                    let at = PixelRegion(covering: output)
                    return try context.placed(scaled, covering: PixelRegion(x: at.x, y: at.y, width: scaled.size.width, height: scaled.size.height))
                }))
    }
}
