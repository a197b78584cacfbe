import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Blurs that vary, reduce noise or draw bokeh; a spotlight; line drawings and the comic
    /// effect with its CMYK halftone.
    static let lightAndLineFilters: [FilterDefinition] = [maskedVariableBlur, noiseReduction, bokehBlur, spotLight, lineOverlay, cmykHalftone, comicEffect]

    private static let blurring = [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]
    private static let stylized = [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    static let maskedVariableBlur = FilterDefinition(
        name: "CIMaskedVariableBlur", displayName: "Masked Variable Blur", categories: blurring,
        inputs: [
            .image(), .image("inputMask", "Mask"),
            .scalar(kCIInputRadiusKey, "Radius", default: 5, min: 0, sliderMin: 0, sliderMax: 100, type: kCIAttributeTypeScalar),
        ]
    ) { inputs in
        // A Gaussian blur whose radius is the radius times the mask's luma at each pixel: blurs of
        // 0, a quarter, a half, three quarters and all of the radius, the two either side mixed.
        guard let image = inputs.image(kCIInputImageKey), let mask = inputs.image("inputMask") else { return nil }
        let radius = min(500, max(0, inputs.number(kCIInputRadiusKey) ?? 5))
        guard radius > 0 else { return image }
        let recipe = image.recipe, weights = mask.recipe
        let levels: [Recipe] = (0...4).map { step in step == 0 ? recipe : .crop(.blur(.clamp(recipe), sigma: radius * Double(step) / 4), recipe.extent) }
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let amount = try clamp(try ComputedBlend.luminosity(try context.pixels(weights).bands(0, 3)) / 255 * 4, 0, 4)
                    var result = try context.pixels(levels[0])
                    for step in 1...4 {
                        // The share of this level: how far the amount is past the last one, up to one.
                        let share = try clamp(try amount - Double(step - 1), 0, 1)
                        result = try interpolate(result, try context.pixels(levels[step]), share)
                    }
                    return result
                }))
    }

    static let noiseReduction = FilterDefinition(
        name: "CINoiseReduction", displayName: "Noise Reduction", categories: blurring,
        inputs: [
            .image(), .scalar("inputNoiseLevel", "Noise Level", default: 0.02, min: 0, sliderMin: 0, sliderMax: 0.1),
            .scalar(kCIInputSharpnessKey, "Sharpness", default: 0.4, min: 0, sliderMin: 0, sliderMax: 2),
        ]
    ) { inputs in
        // Detail (the image less its blur of one pixel) smaller than the noise level is taken as
        // noise and dropped; what is larger is kept, sharpened by the sharpness.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let level = max(0, inputs.number("inputNoiseLevel") ?? 0.02) * 255, sharpness = max(0, inputs.number(kCIInputSharpnessKey) ?? 0.4)
        let recipe = image.recipe
        let smooth: Recipe = .crop(.blur(.clamp(recipe), sigma: 1), recipe.extent)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: recipe.isOpaque) { context in
                    let (pixels, blurred) = (try context.pixels(recipe), try context.pixels(smooth))
                    let detail = try pixels.bands(0, 3) - blurred.bands(0, 3)
                    let kept = try detail * (try abs(detail) > level) * (1 + sharpness)
                    let colour = try min(try max(try blurred.bands(0, 3) + kept, try kept * 0), try pixels.bands(3))
                    return try Pixels.joined([colour, try pixels.bands(3)])
                }))
    }

    static let bokehBlur = FilterDefinition(
        name: "CIBokehBlur", displayName: "Bokeh Blur", categories: blurring,
        inputs: [
            .image(), .scalar(kCIInputRadiusKey, "Radius", default: 20, min: 0, max: 500, sliderMin: 0, sliderMax: 35, type: kCIAttributeTypeDistance),
            .scalar("inputRingAmount", "Ring Amount", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
            .scalar("inputRingSize", "Ring Size", default: 0.1, min: 0, max: 0.2, sliderMin: 0, sliderMax: 0.2),
            .scalar("inputSoftness", "Softness", default: 1, min: 0, max: 10, sliderMin: 0, sliderMax: 10),
        ]
    ) { inputs in
        // The mean over a disc of the radius (a lens's out-of-focus highlights), its rim brighter
        // by the ring amount over the ring size's share of the radius, its edge softened over
        // `softness` pixels.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = min(100, max(0, inputs.number(kCIInputRadiusKey) ?? 20))
        guard radius >= 1 else { return image }
        let ring = min(1, max(0, inputs.number("inputRingAmount") ?? 0)), ringSize = min(0.2, max(0, inputs.number("inputRingSize") ?? 0.1))
        let softness = min(10, max(0, inputs.number("inputSoftness") ?? 1))
        let reach = Int((radius + softness / 2).rounded(.up)), side = 2 * reach + 1
        var weights: [Double] = []
        for y in -reach...reach {
            for x in -reach...reach {
                let d = (Double(x * x + y * y)).squareRoot()
                let inside = softness > 0 ? min(1, max(0, (radius - d) / softness + 0.5)) : (d <= radius ? 1 : 0)
                let onRing = d >= radius * (1 - ringSize) ? ring : 0
                weights.append(inside * (1 + onRing))
            }
        }
        let total = weights.reduce(0, +)
        return image.derived(.convolve(image.recipe, Kernel(width: side, height: side, weights: weights.map { $0 / total }, isSeparable: false)))
    }

    static let spotLight = FilterDefinition(
        name: "CISpotLight", displayName: "Spot Light", categories: stylized,
        inputs: [
            .image(), .vector("inputLightPosition", "Light Position", default: CIVector(x: 400, y: 600, z: 150), type: kCIAttributeTypePosition3),
            .vector("inputLightPointsAt", "Light Points At", default: CIVector(x: 200, y: 200, z: 0), type: kCIAttributeTypePosition3),
            .scalar("inputBrightness", "Brightness", default: 3, min: 0, sliderMin: 0, sliderMax: 10, type: kCIAttributeTypeDistance),
            .scalar("inputConcentration", "Concentration", default: 0.1, min: 0.001, sliderMin: 0.001, sliderMax: 1.5),
            colorInput(kCIInputColorKey, "Color", default: .white),
        ]
    ) { inputs in
        // The image as a flat surface at height 0, lit by a spotlight: each pixel's colour times
        // the light's colour, the brightness, the cosine of the light's angle to the surface, and
        // the spot's falloff, the cosine of the angle off its axis raised to ten times the
        // concentration. Alpha kept.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        func position(_ key: String, _ fallback: (Double, Double, Double)) -> (Double, Double, Double) {
            guard let vector = inputs.vector(key) else { return fallback }
            let values = (Double(vector.x), Double(vector.y), vector.count > 2 ? Double(vector.z) : 0)
            return [values.0, values.1, values.2].allSatisfy(\.isFinite) ? values : fallback
        }
        let light = position("inputLightPosition", (400, 600, 150)), target = position("inputLightPointsAt", (200, 200, 0))
        let brightness = max(0, inputs.number("inputBrightness") ?? 3), concentration = max(0.001, inputs.number("inputConcentration") ?? 0.1)
        let colour = inputs.color(kCIInputColorKey) ?? .white
        let axis = (target.0 - light.0, target.1 - light.1, target.2 - light.2)
        let axisLength = max(1e-9, (axis.0 * axis.0 + axis.1 * axis.1 + axis.2 * axis.2).squareRoot())
        let (ax, ay, az) = (axis.0 / axisLength, axis.1 / axisLength, axis.2 / axisLength)
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    // From the surface point to the light, and its length.
                    let toLight = try context.coordinates().scaled([-1], plus: [light.0, light.1])
                    let lengthSquared = try (toLight * toLight).weighed([[1, 1]]) + light.2 * light.2
                    let length = try sqrt(lengthSquared)
                    let cosine = try light.2 / length
                    // The angle off the axis: the direction from the light to the point, against the axis.
                    let facing: Pixels = try toLight.weighed([[-ax, -ay]]) - light.2 * az
                    let along: Pixels = try facing / length
                    let floorValue: Pixels = try along * 0 + 1e-6
                    let logarithm: Pixels = try log(try max(along, floorValue))
                    let spot: Pixels = try exp(try logarithm * (10 * concentration))
                    let factor = try cosine * spot * brightness
                    let pixels = try context.pixels(recipe)
                    let tint = [Double(colour.blue), Double(colour.green), Double(colour.red)]
                    let lit = try pixels.bands(0, 3).scaled(tint, plus: [0, 0, 0]) * factor
                    return try Pixels.joined([try min(lit, try pixels.bands(3)), try pixels.bands(3)])
                }))
    }

    /// The luma's gradient magnitude (Sobel's, 0-1 for a step from black to white) over a region.
    private static func edgeStrength(_ recipe: Recipe, _ context: ComputationContext) throws -> Pixels {
        let luma = try ComputedBlend.luminosity(try context.pixels(recipe, margin: 1).bands(0, 3)) / 255
        let (across, up) = try luma.sobel(width: context.region.width, height: context.region.height)
        return try sqrt(try across * across + up * up) / 4
    }

    /// Black lines where the noise-reduced image's edges are stronger than the threshold, their
    /// alpha rising with the contrast; transparent elsewhere.
    static func lineDrawing(_ image: CIImage, noiseLevel: Double, sharpness: Double, intensity: Double, threshold: Double, contrast: Double) -> CIImage? {
        guard
            let smoothed = noiseReduction.output(
                FilterInputs(values: [kCIInputImageKey: image, "inputNoiseLevel": noiseLevel, kCIInputSharpnessKey: sharpness]))?.recipe
        else { return nil }
        return image.derived(
            .computed(
                Computation(extent: image.extent) { context in
                    let strength = try edgeStrength(smoothed, context) * intensity
                    let alpha = try clamp(try (strength - threshold) * contrast, 0, 1) * 255
                    return try Pixels.joined([try alpha * 0, try alpha * 0, try alpha * 0, alpha])
                }))
    }

    static let lineOverlay = FilterDefinition(
        name: "CILineOverlay", displayName: "Line Overlay", categories: stylized,
        inputs: [
            .image(), .scalar("inputNRNoiseLevel", "NR Noise Level", default: 0.07, min: 0, sliderMin: 0, sliderMax: 0.1),
            .scalar("inputNRSharpness", "NR Sharpness", default: 0.71, min: 0, sliderMin: 0, sliderMax: 2),
            .scalar("inputEdgeIntensity", "Edge Intensity", default: 1, min: 0, sliderMin: 0, sliderMax: 200),
            .scalar("inputThreshold", "Threshold", default: 0.1, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar(kCIInputContrastKey, "Contrast", default: 50, min: 0.25, sliderMin: 0.25, sliderMax: 200),
        ]
    ) { inputs in
        // The image's edges in black after its noise is reduced, the rest transparent.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return lineDrawing(
            image, noiseLevel: inputs.number("inputNRNoiseLevel") ?? 0.07, sharpness: inputs.number("inputNRSharpness") ?? 0.71,
            intensity: max(0, inputs.number("inputEdgeIntensity") ?? 1), threshold: inputs.number("inputThreshold") ?? 0.1,
            contrast: max(0.25, inputs.number(kCIInputContrastKey) ?? 50))
    }

    static let cmykHalftone = FilterDefinition(
        name: "CICMYKHalftone", displayName: "CMYK Halftone",
        categories: [kCICategoryHalftoneEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputWidthKey, "Width", default: 6, min: -2, sliderMin: 2, sliderMax: 100, type: kCIAttributeTypeDistance),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputSharpnessKey, "Sharpness", default: 0.7, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar("inputGCR", "Gray Component Replacement", default: 1, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar("inputUCR", "Under Color Removal", default: 0.5, min: 0, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // The colours separated into cyan, magenta, yellow and black inks (black the grey
        // component times the GCR, removed from the others by the UCR), each printed as a dot
        // screen at the printers' angles (cyan 15, magenta 75, yellow 0, black 45 degrees, turned
        // by the angle), the inks multiplied on white paper.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let width = max(1, inputs.number(kCIInputWidthKey) ?? 6), angle = inputs.number(kCIInputAngleKey) ?? 0
        let sharpness = min(1, max(0, inputs.number(kCIInputSharpnessKey) ?? 0.7)), steepness = 1 / max(1 - sharpness, 0.001)
        let gcr = min(1, max(0, inputs.number("inputGCR") ?? 1)), ucr = min(1, max(0, inputs.number("inputUCR") ?? 0.5))
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let pixels = try context.pixels(recipe) / 255
                    let alpha = try pixels.bands(3)
                    let colour = try clamp(try pixels.bands(0, 3) / alpha, 0, 1)
                    let (b, g, r) = (try colour.bands(0), try colour.bands(1), try colour.bands(2))
                    let black = try (1 - max(max(r, g), b)) * gcr
                    let inks = [(try 1 - r - black * ucr, 15.0), (try 1 - g - black * ucr, 75), (try 1 - b - black * ucr, 0), (black, 45)]
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    var printed: [Pixels] = []
                    for (amount, degrees) in inks {
                        // A dot screen of the ink: covered where the amount is above the dot's threshold.
                        let turn = angle + degrees * Double.pi / 180, k = 2 * Double.pi / width
                        let (c, s) = (cos(turn), sin(turn))
                        let waves = try cos(try offset.weighed([[c * k, s * k], [-s * k, c * k]]))
                        let threshold = try (1 - (waves.bands(0) * waves.bands(1) + 1) * 0.5) * 0.98 + 0.01
                        printed.append(try clamp(try (clamp(amount, 0, 1) - threshold) * steepness + 0.5, 0, 1))
                    }
                    // Paper's white less each ink: cyan takes red, magenta green, yellow blue, black all.
                    let paper = try 1 - printed[3]
                    let red = try (1 - printed[0]) * paper, green = try (1 - printed[1]) * paper, blue = try (1 - printed[2]) * paper
                    return try Pixels.joined([try blue * alpha, try green * alpha, try red * alpha, alpha]) * 255
                }))
    }

    static let comicEffect = FilterDefinition(name: "CIComicEffect", displayName: "Comic Effect", categories: stylized, inputs: [.image()]) { inputs in
        // The line overlay's black edges over the CMYK halftone, both at their defaults.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let halftone = cmykHalftone.output(FilterInputs(values: [kCIInputImageKey: image])),
            let lines = lineDrawing(image, noiseLevel: 0.07, sharpness: 0.71, intensity: 1, threshold: 0.1, contrast: 50)
        else { return nil }
        return lines.composited(over: halftone)
    }
}
