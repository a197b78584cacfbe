import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Two stylizing filters: a woodcut's black and white, and colours near up to three chosen
    /// ones replaced.
    static let woodcutAndSpotColorFilters: [FilterDefinition] = [edgeWork, spotColor]

    private static let stylize = [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    static let edgeWork = FilterDefinition(
        name: "CIEdgeWork", displayName: "Edge Work", categories: stylize,
        inputs: [.image(), .scalar(kCIInputRadiusKey, "Radius", default: 3, min: 0, sliderMin: 0, sliderMax: 20, type: kCIAttributeTypeDistance)]
    ) { inputs in
        // A woodcut: black where the luma, lightly smoothed, is darker than its surroundings (the
        // luma blurred over the radius), white elsewhere; flat areas are white, and each edge is
        // black on its dark side. Opaque.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = min(100, max(0, inputs.number(kCIInputRadiusKey) ?? 3))
        let recipe = image.recipe
        let fine: Recipe = .crop(.blur(.clamp(recipe), sigma: 0.5), recipe.extent)
        let broad: Recipe = .crop(.blur(.clamp(recipe), sigma: max(1, radius)), recipe.extent)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: true) { context in
                    let near = try ComputedBlend.luminosity(try context.pixels(fine).bands(0, 3))
                    let around = try ComputedBlend.luminosity(try context.pixels(broad).bands(0, 3))
                    let white = try (1 - (try near < (try around - 0.5))) * 255
                    return try Pixels.joined([white, white, white, try white * 0 + 255])
                }))
    }

    /// Apple's defaults for the three colours spot colour replaces and their replacements.
    private static let spotDefaults: [(centre: CIColor, replacement: CIColor, closeness: Double, contrast: Double)] = [
        (CIColor(red: 0.0784, green: 0.0627, blue: 0.0706), CIColor(red: 0.4392, green: 0.1922, blue: 0.1961), 0.22, 0.98),
        (CIColor(red: 0.5255, green: 0.3059, blue: 0.3451), CIColor(red: 0.9137, green: 0.5608, blue: 0.5059), 0.15, 0.98),
        (CIColor(red: 0.9216, green: 0.4549, blue: 0.3333), CIColor(red: 0.9098, green: 0.7529, blue: 0.6078), 0.5, 0.99),
    ]

    static let spotColor = FilterDefinition(
        name: "CISpotColor", displayName: "Spot Color", categories: stylize,
        inputs: [.image()]
            + (1...3).flatMap { index -> [Input] in
                let defaults = spotDefaults[index - 1]
                return [
                    colorInput("inputCenterColor\(index)", "Center Color \(index)", default: defaults.centre),
                    colorInput("inputReplacementColor\(index)", "Replacement Color \(index)", default: defaults.replacement),
                    .scalar("inputCloseness\(index)", "Closeness \(index)", default: defaults.closeness, min: 0, sliderMin: 0, sliderMax: 1),
                    .scalar("inputContrast\(index)", "Contrast \(index)", default: defaults.contrast, min: 0, sliderMin: 0, sliderMax: 1),
                ]
            }
    ) { inputs in
        // For each centre colour in turn, a pixel's colour (not premultiplied) within the closeness
        // of it (the distance in RGB, 0-1 a component) becomes its replacement: wholly inside
        // (1 - contrast) × closeness of the edge, fading to unchanged at the edge; alpha is kept.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let spots = (1...3).map { index -> (centre: [Double], replacement: [Double], closeness: Double, contrast: Double) in
            let defaults = spotDefaults[index - 1]
            let centre = inputs.color("inputCenterColor\(index)") ?? defaults.centre
            let replacement = inputs.color("inputReplacementColor\(index)") ?? defaults.replacement
            let closeness = inputs.number("inputCloseness\(index)") ?? defaults.closeness
            let contrast = inputs.number("inputContrast\(index)") ?? defaults.contrast
            return (
                [Double(centre.blue), Double(centre.green), Double(centre.red)],
                [Double(replacement.blue), Double(replacement.green), Double(replacement.red)],
                closeness.isFinite ? max(0, closeness) : 0, contrast.isFinite ? min(1, max(0, contrast)) : 0
            )
        }
        return recoloured(image) { colour, context in
            var result = colour
            for spot in spots where spot.closeness > 0 {
                let difference = try colour.scaled([1], plus: spot.centre.map { -$0 })
                let distance = try sqrt(try (difference * difference).weighed([[1, 1, 1]]))
                // 1 within the core, 0 beyond the closeness, linear between.
                let edge = max(1e-6, spot.closeness * (1 - spot.contrast))
                let weight = try clamp(try (distance * -1 + spot.closeness) / edge, 0, 1)
                result = try interpolate(result, try context.constant(spot.replacement), weight)
            }
            return result
        }
    }
}
