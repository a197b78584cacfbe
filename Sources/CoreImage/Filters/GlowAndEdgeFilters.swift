import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Glows, edges and the vignette effect: stylising filters made of an image and its blur, its
    /// gradient, or a falloff from a point.
    static let glowAndEdgeFilters: [FilterDefinition] = [glow(bloom: true), glow(bloom: false), edges, vignetteEffect]

    private static let stylize = [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// CIBloom: the image screened with its blur, scaled by the intensity (highlights glow into
    /// what is around them); CIGloom: the image moved toward the darker of itself and its blur by
    /// the intensity (highlights dulled). Both on premultiplied bands, 0-1, alpha included.
    private static func glow(bloom: Bool) -> FilterDefinition {
        FilterDefinition(
            name: bloom ? "CIBloom" : "CIGloom", displayName: bloom ? "Bloom" : "Gloom", categories: stylize,
            inputs: [
                .image(), .scalar(kCIInputRadiusKey, "Radius", default: 10, min: 0, sliderMin: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
                .scalar(kCIInputIntensityKey, "Intensity", default: 0.5, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 10), intensity = min(1, max(0, inputs.number(kCIInputIntensityKey) ?? 0.5))
            let recipe = image.recipe
            let blurred: Recipe = radius > 0 ? .crop(.blur(.clamp(recipe), sigma: radius), recipe.extent) : recipe
            return image.derived(
                .computed(
                    Computation(extent: recipe.extent, isOpaque: recipe.isOpaque) { context in
                        let a = try context.pixels(recipe) / 255, b = try context.pixels(blurred) / 255
                        let glowing = try intensity * b
                        let result = bloom ? try a + glowing - a * glowing : try a - intensity * max(try a - b, try a * 0)
                        return try clamp(result, 0, 1) * 255
                    }))
        }
    }

    static let edges = FilterDefinition(
        name: "CIEdges", displayName: "Edges", categories: stylize,
        inputs: [.image(), .scalar(kCIInputIntensityKey, "Intensity", default: 1, min: 0, sliderMin: 0, sliderMax: 10)]
    ) { inputs in
        // Each colour band's gradient magnitude (Sobel's 3x3 differences, across and up, each
        // scaled to 0-1 for a step from black to white) times the intensity; opaque.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let intensity = max(0, inputs.number(kCIInputIntensityKey) ?? 1)
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: true) { context in
                    let (across, up) = try context.pixels(recipe, margin: 1).bands(0, 3).sobel(width: context.region.width, height: context.region.height)
                    let magnitude = try sqrt(try across * across + up * up) * (intensity / 4)
                    return try Pixels.joined([try clamp(magnitude, 0, 255), try context.constant([255])])
                }))
    }

    static let vignetteEffect = FilterDefinition(
        name: "CIVignetteEffect", displayName: "Vignette Effect",
        categories: [kCICategoryColorEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputRadiusKey, "Radius", default: 150, min: 0, sliderMin: 0, sliderMax: 2000, type: kCIAttributeTypeDistance),
            .scalar(kCIInputIntensityKey, "Intensity", default: 1, min: -1, max: 1, sliderMin: -1, sliderMax: 1),
            .scalar("inputFalloff", "Falloff", default: 0.5, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // Colours darkened by the intensity beyond the radius, the change eased in (smoothstep)
        // over the last `falloff` of the radius; alpha kept.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 150), intensity = min(1, max(-1, inputs.number(kCIInputIntensityKey) ?? 1))
        let falloff = min(1, max(0, inputs.number("inputFalloff") ?? 0.5))
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: recipe.isOpaque) { context in
                    let pixels = try context.pixels(recipe)
                    let inner = radius * (1 - falloff)
                    let t = try clamp(try (distance(context, from: centre) - inner) / max(radius - inner, 1e-6), 0, 1)
                    let factor = try 1 - intensity * (t * t * (3 - 2 * t))
                    let alpha = try pixels.bands(3)
                    // Premultiplied colours stay within their alpha.
                    return try Pixels.joined([try min(try max(try pixels.bands(0, 3) * factor, alpha * 0), alpha), alpha])
                }))
    }
}
