import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Edges by Canny's method and by Gabor kernels, and the distance to a mask.
    static let edgeAndDistanceFilters: [FilterDefinition] = [
        cannyEdgeDetector, gaborGradients, distanceGradient(signed: false), distanceGradient(signed: true),
    ]

    private static let stylizing = [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// The luma (0-1) of pixels rendered over a region grown by a margin; linear light unless `perceptual`.
    private static func luma(_ recipe: Recipe, margin: Int, perceptual: Bool, _ context: ComputationContext) throws -> Pixels {
        let encoded = try ComputedBlend.luminosity(try context.pixels(recipe, margin: margin).bands(0, 3)) / 255
        guard !perceptual else { return encoded }
        // sRGB's decoding, its linear foot left out: (v + 0.055) / 1.055 raised to 2.4.
        let clipped = try clamp(encoded, 0, 1)
        return try pow(try (clipped + 0.055) / 1.055, try clipped * 0 + 2.4)
    }

    static let cannyEdgeDetector = FilterDefinition(
        name: "CICannyEdgeDetector", displayName: "Canny Edge Detector", categories: stylizing,
        inputs: [
            .image(), .scalar("inputGaussianSigma", "Gaussian Sigma", default: 1.6, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar("inputPerceptual", "Perceptual", default: 0, min: 0, max: 1, type: kCIAttributeTypeBoolean),
            .scalar("inputThresholdHigh", "Threshold High", default: 0.05, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar("inputThresholdLow", "Threshold Low", default: 0.02, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar("inputHysteresisPasses", "Hysteresis Passes", default: 1, min: 0, max: 20, sliderMin: 0, sliderMax: 20, type: kCIAttributeTypeInteger),
        ]
    ) { inputs in
        // Canny's edges of the luma (linear light unless perceptual) of the image smoothed by a
        // Gaussian of the sigma: Sobel's gradient (its slope, a pixel's rise), kept where it is
        // largest along its own direction (one of four: across, up and the diagonals); pixels
        // above the high threshold are edges, and each hysteresis pass adds the pixels above the
        // low threshold next to an edge (their 3 x 3 neighbourhood). White edges on black, opaque.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let sigma = min(50, max(0, inputs.number("inputGaussianSigma") ?? 1.6)), perceptual = (inputs.number("inputPerceptual") ?? 0) != 0
        let high = max(0, inputs.number("inputThresholdHigh") ?? 0.05), low = max(0, inputs.number("inputThresholdLow") ?? 0.02)
        let passes = Int(min(20, max(0, inputs.number("inputHysteresisPasses") ?? 1)).rounded())
        guard high.isFinite, low.isFinite, sigma.isFinite else { return .empty() }
        let recipe = image.recipe
        let clamped: Recipe = recipe.extent.isInfinite ? recipe : .clamp(recipe)
        let smoothed: Recipe = sigma > 0 ? .blur(clamped, sigma: sigma) : clamped
        // Sobel takes a pixel from each side, the suppression another, each pass another.
        let margin = passes + 2
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: true) { context in
                    let wide = try luma(smoothed, margin: margin, perceptual: perceptual, context)
                    let (w1, h1) = (context.region.width + 2 * margin - 2, context.region.height + 2 * margin - 2)
                    let (across, up) = try wide.sobel(width: w1, height: h1)
                    let (gx, gy) = (try across / 8, try up / 8)
                    let magnitude = try sqrt(try gx * gx + gy * gy)
                    // The direction within a half turn, in eighths of a half turn: 0 across, 1 rising diagonal, 2 up, 3 falling diagonal.
                    let turn = try atan2(gy, gx)
                    let half = try turn - floor(try turn / Double.pi) * Double.pi
                    let sector = try floor(try (half + Double.pi / 8) / (Double.pi / 4))
                    let (w2, h2) = (w1 - 2, h1 - 2)
                    func at(_ dx: Int, _ dy: Int) throws -> Pixels { try magnitude.window(x: 1 + dx, y: 1 - dy, width: w2, height: h2) }
                    let centre = try at(0, 0)
                    let direction = try sector.window(x: 1, y: 1, width: w2, height: h2)
                    func isSector(_ k: Double) throws -> Pixels { try (try direction > k - 0.5) * (try direction < k + 0.5) }
                    let acrossPair = try max(try at(1, 0), try at(-1, 0)), risingPair = try max(try at(1, 1), try at(-1, -1))
                    let upPair = try max(try at(0, 1), try at(0, -1)), fallingPair = try max(try at(-1, 1), try at(1, -1))
                    let neighbours = try choose(
                        try isSector(1), risingPair, try choose(try isSector(2), upPair, try choose(try isSector(3), fallingPair, acrossPair)))
                    let kept = try centre * (1 - (try centre < neighbours))
                    let weak = try kept > min(low, high)
                    var strong = try kept > high
                    for _ in 0..<passes { strong = try max(strong, try weak * strong.extreme(width: 3, height: 3, maximum: true)) }
                    let white = try context.trimmed(strong, margin: passes) * 255
                    return try Pixels.joined([white, white, white, try white * 0 + 255])
                }))
    }

    /// The 5 x 5 odd Gabor kernel across (`k(x, y)` for x and y from -2 to 2): exp(-(x² + y²) /
    /// (2 × 1.5²)) sin(2π x / 8), scaled so that a ramp rising by 1 a pixel gives 1.
    static let gaborKernel: [[Double]] = {
        var raw: [[Double]] = []
        var slope = 0.0
        for y in -2...2 {
            var row: [Double] = []
            for x in -2...2 {
                let envelope = Foundation.exp(-Double(x * x + y * y) / (2 * 1.5 * 1.5))
                let value = envelope * Foundation.sin(2 * Double.pi * Double(x) / 8)
                row.append(value)
                slope += value * Double(x)
            }
            raw.append(row)
        }
        return raw.map { row in row.map { $0 / slope } }
    }()

    static let gaborGradients = FilterDefinition(
        name: "CIGaborGradients", displayName: "Gabor Gradients", categories: stylizing, inputs: [.image()]
    ) { inputs in
        // The luma's (0-1) response to the odd Gabor kernel across (red) and its turn up (green),
        // signed, as floats, as the Sobel gradients are; nothing in blue; opaque.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let recipe = image.recipe
        let source: Recipe = recipe.extent.isInfinite ? recipe : .clamp(recipe)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: true) { context in
                    let wide = try ComputedBlend.luminosity(try context.pixels(source, margin: 2).bands(0, 3)) / 255
                    let (width, height) = (context.region.width, context.region.height)
                    var across: Pixels?, up: Pixels?
                    for y in -2...2 {
                        for x in -2...2 where x != 0 || y != 0 {
                            // The neighbour x across and y up of each pixel (rows run downwards).
                            let neighbour = try wide.window(x: 2 + x, y: 2 - y, width: width, height: height)
                            let (a, u) = (gaborKernel[y + 2][x + 2], gaborKernel[x + 2][y + 2])
                            if a != 0 { across = try across.map { try $0 + neighbour * a } ?? (try neighbour * a) }
                            if u != 0 { up = try up.map { try $0 + neighbour * u } ?? (try neighbour * u) }
                        }
                    }
                    let (horizontal, vertical) = (across!, up!)
                    return try Pixels.joined([try vertical * 0, vertical, horizontal, try context.constant([1])]) * 255
                }))
    }

    /// CIDistanceGradientFromRedMask, or CISignedDistanceGradientFromRedMask (`signed`): for
    /// every pixel of the plane, the distance in pixels to the nearest pixel of the mask (red
    /// above one half) over the maximum distance, no more than 1, in red, green and blue; signed,
    /// pixels of the mask hold minus their distance to the nearest pixel outside it (floats: an
    /// 8-bit destination shows them as 0). Opaque. Found over the region and the maximum distance
    /// around it: a mask farther away is beyond the maximum anyway.
    static func distanceGradient(signed: Bool) -> FilterDefinition {
        FilterDefinition(
            name: signed ? "CISignedDistanceGradientFromRedMask" : "CIDistanceGradientFromRedMask",
            displayName: signed ? "Signed Distance Gradient From Red Mask" : "Distance Gradient From Red Mask",
            categories: [kCICategoryGradient, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: [
                .image(),
                .scalar(
                    "inputMaximumDistance", "Maximum Distance", default: 10, min: 0, max: 1000, sliderMin: 0, sliderMax: 1000, type: kCIAttributeTypeDistance),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let maximum = min(1000, max(0, inputs.number("inputMaximumDistance") ?? 10))
            guard maximum.isFinite else { return .empty() }
            let recipe = image.recipe
            let margin = Int(maximum.rounded(.up)) + 1
            return image.derived(
                .computed(
                    Computation(extent: .infinite, isOpaque: true) { context in
                        let mask = try context.pixels(recipe, margin: margin).bands(2) > 127.5
                        let (lowest, highest) = try mask.extremes()
                        let reach = max(maximum, 1e-9)
                        // The distance outside the mask: 0 on it; as far as the maximum when no mask is within reach.
                        let outside: Pixels =
                            highest[0] < 0.5
                            ? try context.constant([1])
                            : try min(
                                try context.trimmed(try choose(mask, try mask * 0, try mask.distanceToNonzero()), margin: margin) / reach,
                                try context.constant([1]))
                        var value = outside
                        if signed {
                            // Inside the mask, minus the distance to its outside (as far as the maximum when none is within reach).
                            let outer = try 1 - mask
                            let inside: Pixels =
                                lowest[0] > 0.5
                                ? try context.constant([1])
                                : try min(
                                    try context.trimmed(try choose(outer, try outer * 0, try outer.distanceToNonzero()), margin: margin) / reach,
                                    try context.constant([1]))
                            value = try outside - inside
                        }
                        let scaled = try value * 255
                        return try Pixels.joined([scaled, scaled, scaled, try scaled * 0 + 255])
                    }))
        }
    }
}
