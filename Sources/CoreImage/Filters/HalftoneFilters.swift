import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The halftone screens: an image's luma thresholded against a periodic pattern of dots,
    /// lines, rings or crossed lines, in black and white.
    static let halftoneFilters: [FilterDefinition] = [halftone(.dots), halftone(.lines), halftone(.rings), halftone(.hatches)]

    /// The shape a halftone screen is made of.
    enum Screen {
        case dots, lines, rings, hatches

        var name: String { ["CIDotScreen", "CILineScreen", "CICircularScreen", "CIHatchedScreen"][index] }
        var displayName: String { ["Dot Screen", "Line Screen", "Circular Screen", "Hatched Screen"][index] }
        private var index: Int { self == .dots ? 0 : self == .lines ? 1 : self == .rings ? 2 : 3 }
    }

    /// A halftone screen: at each pixel a threshold from the pattern (0 to 1, a period of `width`
    /// pixels, turned by `angle` about the centre); white where the luma is above it, black
    /// where below, the step between spread over a band that narrows as the sharpness nears 1 (at 1, none).
    private static func halftone(_ screen: Screen) -> FilterDefinition {
        var inputs: [Input] = [.image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150))]
        if screen != .rings {
            inputs.append(.scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle))
        }
        inputs += [
            .scalar(kCIInputWidthKey, "Width", default: 6, min: 1, sliderMin: 2, sliderMax: 50, type: kCIAttributeTypeDistance),
            .scalar(kCIInputSharpnessKey, "Sharpness", default: 0.7, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
        return FilterDefinition(
            name: screen.name, displayName: screen.displayName,
            categories: [kCICategoryHalftoneEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn], inputs: inputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
            let angle = inputs.number(kCIInputAngleKey) ?? 0, width = max(1, inputs.number(kCIInputWidthKey) ?? 6)
            let sharpness = min(1, max(0, inputs.number(kCIInputSharpnessKey) ?? 0.7))
            let steepness = 1 / max(1 - sharpness, 0.001)
            let recipe = image.recipe
            return image.derived(
                .computed(
                    Computation(extent: recipe.extent) { context in
                        let pixels = try context.pixels(recipe) / 255
                        let alpha = try pixels.bands(3)
                        let luma = try ComputedBlend.luminosity(try pixels.bands(0, 3) / alpha)
                        // The plane turned by the angle about the centre, in periods of 2π.
                        let (c, s) = (cos(angle), sin(angle)), k = 2 * Double.pi / width
                        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                        let pattern: Pixels
                        switch screen {
                        case .dots:
                            let turned = try offset.weighed([[c * k, s * k], [-s * k, c * k]])
                            let waves = try cos(turned)
                            pattern = try (waves.bands(0) * waves.bands(1) + 1) * 0.5
                        case .lines:
                            pattern = try (cos(try offset.weighed([[-s * k, c * k]])) + 1) * 0.5
                        case .hatches:
                            // Lines along the angle and across it: the lighter threshold of the two, so that dark areas cross-hatch.
                            let along = try (cos(try offset.weighed([[-s * k, c * k]])) + 1) * 0.5
                            let across = try (cos(try offset.weighed([[c * k, s * k]])) + 1) * 0.5
                            pattern = try min(along, across)
                        case .rings:
                            pattern = try (cos(try sqrt(try (offset * offset).weighed([[1, 1]])) * k) + 1) * 0.5
                        }
                        // Thresholds kept off 0 and 1, so that black stays black and white white.
                        let threshold = try pattern * 0.98 + 0.01
                        // Sharpness 1 is a hard step: white above the threshold, black at or below it.
                        let value = sharpness >= 1 ? try threshold < luma : try clamp(try (luma - threshold) * steepness + 0.5, 0, 1)
                        return try Pixels.joined([try value * alpha * 255, try value * alpha * 255, try value * alpha * 255, try alpha * 255])
                    }))
        }
    }
}
