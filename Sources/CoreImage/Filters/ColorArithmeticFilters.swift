import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Colour filters computed band by band: thresholds, the absolute difference, the cross
    /// polynomial, dithering, and blending through a mask's red or blue.
    static let colorArithmeticFilters: [FilterDefinition] = [
        colorThreshold, colorThresholdOtsu, colorAbsoluteDifference, colorCrossPolynomial, dither, blendWithChannelMask(red: true),
        blendWithChannelMask(red: false),
    ]

    private static let adjustment = [kCICategoryColorAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// An image's colours (0-1, not premultiplied) changed by `change` (and clipped to 0-1 unless
    /// `clipped` is false: values such as L*a*b* go beyond), alpha kept and the result premultiplied again.
    static func recoloured(_ image: CIImage, clipped: Bool = true, _ change: @escaping (Pixels, ComputationContext) throws -> Pixels) -> CIImage {
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let pixels = try context.pixels(recipe) / 255
                    let alpha = try pixels.bands(3)
                    let changed = try change(try pixels.bands(0, 3) / alpha, context)
                    let colour = clipped ? try clamp(changed, 0, 1) : changed
                    return try Pixels.joined([try colour * alpha, alpha]) * 255
                }))
    }

    static let colorThreshold = FilterDefinition(
        name: "CIColorThreshold", displayName: "Color Threshold", categories: adjustment,
        inputs: [.image(), .scalar("inputThreshold", "Threshold", default: 0.5, sliderMin: 0, sliderMax: 1)]
    ) { inputs in
        // Each of red, green and blue 1 where above the threshold, else 0.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let threshold = inputs.number("inputThreshold") ?? 0.5
        return recoloured(image) { colour, _ in try colour > threshold }
    }

    static let colorThresholdOtsu = FilterDefinition(
        name: "CIColorThresholdOtsu", displayName: "Color Threshold Otsu", categories: adjustment, inputs: [.image()]
    ) { inputs in
        // The threshold Otsu's method finds in the histogram of the image's luma (the one that
        // best separates its darker pixels from its lighter), applied to each of red, green and
        // blue. An image of infinite extent has no histogram and gives nothing.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let recipe = image.recipe, whole = PixelRegion(covering: recipe.extent)
        guard !recipe.extent.isInfinite, !whole.isEmpty, Double(whole.width) * Double(whole.height) <= 1e8 else { return .empty() }
        return recoloured(image) { colour, context in
            let pixels = try context.pixels(recipe, in: whole) / 255
            let luma = try ComputedBlend.luminosity(try pixels.bands(0, 3) / pixels.bands(3)) * 255
            return try colour > otsuThreshold(try luma.histogram())
        }
    }

    /// Otsu's threshold of a 256-bin histogram, on a 0-1 scale: the level that maximises the
    /// variance between the pixels at or below it and those above.
    static func otsuThreshold(_ counts: [Double]) -> Double {
        let total = counts.reduce(0, +)
        guard total > 0 else { return 0.5 }
        let sum = counts.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
        var (below, belowSum, best, level) = (0.0, 0.0, -1.0, 0)
        for index in 0..<255 {
            below += counts[index]
            belowSum += Double(index) * counts[index]
            let above = total - below
            guard below > 0, above > 0 else { continue }
            let difference = belowSum / below - (sum - belowSum) / above
            let between = below * above * difference * difference
            if between > best { (best, level) = (between, index) }
        }
        return (Double(level) + 0.5) / 255
    }

    static let colorAbsoluteDifference = FilterDefinition(
        name: "CIColorAbsoluteDifference", displayName: "Color Absolute Difference", categories: adjustment,
        inputs: [.image(), .image("inputImage2", "Image 2")]
    ) { inputs in
        // |a - b| of each colour band (not premultiplied); alpha the product of the two alphas.
        guard let image = inputs.image(kCIInputImageKey), let other = inputs.image("inputImage2") else { return nil }
        let (first, second) = (image.recipe, other.recipe)
        return image.derived(
            .computed(
                Computation(extent: first.extent.intersection(second.extent)) { context in
                    let a = try context.pixels(first) / 255, b = try context.pixels(second) / 255
                    let alpha = try a.bands(3) * b.bands(3)
                    let difference = try abs(try a.bands(0, 3) / a.bands(3) - b.bands(0, 3) / b.bands(3))
                    return try Pixels.joined([try difference * alpha, alpha]) * 255
                }))
    }

    /// The ten terms' default coefficients of one output band: only its own colour.
    private static func crossTerms(_ band: Int) -> CIVector {
        let values: [CGFloat] = (0..<10).map { $0 == band ? 1 : 0 }
        return CIVector(values: values, count: 10)
    }

    static let colorCrossPolynomial = FilterDefinition(
        name: "CIColorCrossPolynomial", displayName: "Color Cross Polynomial", categories: adjustment,
        inputs: [
            .image(), .vector("inputRedCoefficients", "Red Coefficients", default: crossTerms(0)),
            .vector("inputGreenCoefficients", "Green Coefficients", default: crossTerms(1)),
            .vector("inputBlueCoefficients", "Blue Coefficients", default: crossTerms(2)),
        ]
    ) { inputs in
        // Each of red, green and blue as c0 r + c1 g + c2 b + c3 r^2 + c4 g^2 + c5 b^2 + c6 r g +
        // c7 g b + c8 b r + c9, on colours not premultiplied; alpha kept.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        func coefficients(_ key: String, _ band: Int) -> [Double] {
            let vector = inputs.vector(key) ?? crossTerms(band)
            return (0..<10).map { index in index < vector.count ? Double(vector.value(at: index)) : 0 }.map { $0.isFinite ? $0 : 0 }
        }
        // Output rows in B, G, R order.
        let rows = [coefficients("inputBlueCoefficients", 2), coefficients("inputGreenCoefficients", 1), coefficients("inputRedCoefficients", 0)]
        return recoloured(image) { colour, context in
            let (b, g, r) = (try colour.bands(0), try colour.bands(1), try colour.bands(2))
            let terms = try Pixels.joined([r, g, b, try r * r, try g * g, try b * b, try r * g, try g * b, try b * r, try context.constant([1])])
            return try terms.weighed(rows)
        }
    }

    static let dither = FilterDefinition(
        name: "CIDither", displayName: "Dither", categories: [kCICategoryColorEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), .scalar(kCIInputIntensityKey, "Intensity", default: 0.1, min: 0, max: 5, sliderMin: 0, sliderMax: 5)]
    ) { inputs in
        // Each colour band moved by the intensity times uniform noise from -0.5 to 0.5 (the random
        // generator's, a different value for each band), to break up banding.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let intensity = max(0, inputs.number(kCIInputIntensityKey) ?? 0.1)
        guard let noise = randomGenerator.output(FilterInputs(values: [:]))?.recipe else { return nil }
        return recoloured(image) { colour, context in
            let random = try context.pixels(noise) / 255
            // The random image is premultiplied: its colours divided by its alpha are its three uniform draws.
            let draws = try random.bands(0, 3) / random.bands(3)
            return try colour + (try clamp(draws, 0, 1) - 0.5) * intensity
        }
    }

    /// CIBlendWithRedMask and CIBlendWithBlueMask: the image where the mask's red (or blue) is 1,
    /// the background where it is 0, mixed between.
    private static func blendWithChannelMask(red: Bool) -> FilterDefinition {
        FilterDefinition(
            name: red ? "CIBlendWithRedMask" : "CIBlendWithBlueMask", displayName: red ? "Blend with Red Mask" : "Blend with Blue Mask",
            categories: [kCICategoryCompositeOperation, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: [.image(), .image(kCIInputBackgroundImageKey, "Background Image"), .image(kCIInputMaskImageKey, "Mask Image")]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey), let background = inputs.image(kCIInputBackgroundImageKey),
                let mask = inputs.image(kCIInputMaskImageKey)
            else { return nil }
            let (front, back, weights) = (image.recipe, background.recipe, mask.recipe)
            return image.derived(
                .computed(
                    Computation(extent: front.extent.union(back.extent)) { context in
                        let m = try context.pixels(weights).bands(red ? 2 : 0) / 255
                        return try interpolate(try context.pixels(back), try context.pixels(front), try clamp(m, 0, 1))
                    }))
        }
    }
}
