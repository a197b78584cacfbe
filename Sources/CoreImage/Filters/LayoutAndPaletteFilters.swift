import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Nine-part stretching and tiling, palettes and their means, and document enhancement.
    static let layoutAndPaletteFilters: [FilterDefinition] = [ninePart(tiled: false), ninePart(tiled: true), palettize, kMeans, documentEnhancer]

    /// CINinePartStretched or CINinePartTiled: the image cut by the two breakpoints' vertical and
    /// horizontal lines into nine parts, and grown by the grow amount: the corners kept as they
    /// are, the middle column and row stretched (or repeated) over the width and height they grow to.
    private static func ninePart(tiled: Bool) -> FilterDefinition {
        var inputs: [Input] = [
            .image(), pointInput("inputBreakpoint0", "Breakpoint 0", default: CGPoint(x: 50, y: 50)),
            pointInput("inputBreakpoint1", "Breakpoint 1", default: CGPoint(x: 150, y: 150)),
            .vector("inputGrowAmount", "Grow Amount", default: CIVector(x: 100, y: 100), type: kCIAttributeTypeOffset),
        ]
        if tiled { inputs.append(.scalar("inputFlipYTiles", "Flip Y Tiles", default: 1, type: kCIAttributeTypeBoolean)) }
        return FilterDefinition(
            name: tiled ? "CINinePartTiled" : "CINinePartStretched", displayName: tiled ? "Nine Part Tiled" : "Nine Part Stretched",
            categories: [kCICategoryDistortionEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn], inputs: inputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let extent = image.extent
            guard !extent.isInfinite, !extent.isNull, let b0 = point(inputs, "inputBreakpoint0", CGPoint(x: 50, y: 50)),
                let b1 = point(inputs, "inputBreakpoint1", CGPoint(x: 150, y: 150))
            else { return .empty() }
            let grow = inputs.vector("inputGrowAmount").map { (Double($0.x), Double($0.y)) } ?? (100, 100)
            guard grow.0.isFinite, grow.1.isFinite, grow.0 > -Double(extent.width), grow.1 > -Double(extent.height) else { return .empty() }
            let flip = (inputs.number("inputFlipYTiles") ?? 1) != 0
            // The lines of the cuts, ordered and within the image.
            let (x0, x1) = (Double(min(max(min(b0.x, b1.x), extent.minX), extent.maxX)), Double(min(max(max(b0.x, b1.x), extent.minX), extent.maxX)))
            let (y0, y1) = (Double(min(max(min(b0.y, b1.y), extent.minY), extent.maxY)), Double(min(max(max(b0.y, b1.y), extent.minY), extent.maxY)))
            let output = CGRect(x: extent.minX, y: extent.minY, width: extent.width + CGFloat(grow.0), height: extent.height + CGFloat(grow.1))
            let recipe = image.recipe
            /// Where a coordinate of the output comes from along one axis: the same before the
            /// first cut, moved back by the growth after the second, and stretched or repeated between.
            func source(_ v: Pixels, _ low: Double, _ high: Double, _ growth: Double, repeatFlipped: Bool) throws -> Pixels {
                let span = high - low, grown = span + growth
                let after = try v - growth
                guard span > 0, grown > 0 else { return try choose(try v < low, v, after) }
                let into = try v - low
                let middle: Pixels
                if tiled {
                    let turns = try floor(try into / span)
                    let within = try into - turns * span
                    let mirrored = repeatFlipped ? try choose(try (turns - 2 * floor(try turns / 2)) > 0.5, try span - within, within) : within
                    middle = try mirrored + low
                } else {
                    middle = try into * (span / grown) + low
                }
                return try choose(try v < low, v, try choose(try v < (high + growth), middle, after))
            }
            return image.derived(
                .computed(
                    Computation(extent: output) { context in
                        let xy = try context.coordinates()
                        let points = try Pixels.joined([
                            try source(try xy.bands(0), x0, x1, grow.0, repeatFlipped: false), try source(try xy.bands(1), y0, y1, grow.1, repeatFlipped: flip),
                        ])
                        return try sampled(recipe.extent.isInfinite ? recipe : .clamp(recipe), at: points, reaching: extent, context)
                    }))
        }
    }

    /// The colours of a palette image (every pixel of it, at most 256), premultiplied B, G, R, A (0-255).
    private static func paletteColours(_ palette: Recipe, _ context: ComputationContext) throws -> [[Double]] {
        let whole = PixelRegion(covering: palette.extent)
        guard !palette.extent.isInfinite, !whole.isEmpty, whole.width * whole.height <= 256 else {
            throw RenderingError(description: "a palette image is at most 256 pixels")
        }
        let count = whole.width * whole.height
        let values = FloatPixels(count: count * 4)
        try Pixels.read(try context.pixels(palette, in: whole), into: values.memory, count: count * 4)
        return (0..<count).map { index in (0..<4).map { Double(values.memory[index * 4 + $0]) } }
    }

    static let palettize = FilterDefinition(
        name: "CIPalettize", displayName: "Palettize", categories: [kCICategoryColorEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), .image("inputPaletteImage", "Palette Image"), .scalar("inputPerceptual", "Perceptual", default: 0, type: kCIAttributeTypeBoolean)]
    ) { inputs in
        // Each pixel's colour replaced by the nearest of the palette image's (at most 256 pixels),
        // nearest in red, green and blue (perceptual: each weighted by its share of luma); alpha kept.
        guard let image = inputs.image(kCIInputImageKey), let palette = inputs.image("inputPaletteImage") else { return nil }
        let perceptual = (inputs.number("inputPerceptual") ?? 0) != 0
        let weights = perceptual ? [0.11, 0.59, 0.3] : [1.0, 1, 1]
        let (recipe, colours) = (image.recipe, palette.recipe)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let palette = try paletteColours(colours, context).map { colour in colour[3] > 0 ? (0..<3).map { colour[$0] / colour[3] * 255 } : [0, 0, 0]
                    }
                    guard !palette.isEmpty else { return try context.pixels(recipe) }
                    let pixels = try context.pixels(recipe)
                    let alpha = try pixels.bands(3)
                    let colour = try pixels.bands(0, 3) / alpha * 255
                    var best: (distance: Pixels, colour: Pixels)?
                    for entry in palette {
                        let difference = try colour.scaled([1], plus: entry.map { -$0 })
                        let distance = try (difference * difference).weighed([weights])
                        let candidate = try context.constant(entry)
                        if let current = best {
                            let nearer = try distance < current.distance
                            best = (try choose(nearer, distance, current.distance), try choose(nearer, candidate, current.colour))
                        } else {
                            best = (distance, candidate)
                        }
                    }
                    return try Pixels.joined([try best!.colour * alpha / 255, alpha])
                }))
    }

    static let kMeans = FilterDefinition(
        name: "CIKMeans", displayName: "KMeans", categories: [kCICategoryReduction, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 640, w: 80), type: kCIAttributeTypeRectangle),
            .image("inputMeans", "Means"),
            .scalar("inputCount", "Count", default: 8, min: 0, max: 128, sliderMin: 0, sliderMax: 128, type: kCIAttributeTypeCount),
            .scalar("inputPasses", "Passes", default: 5, min: 0, max: 20, sliderMin: 0, sliderMax: 20, type: kCIAttributeTypeCount),
            .scalar("inputPerceptual", "Perceptual", default: 0, type: kCIAttributeTypeBoolean),
        ]
    ) { inputs in
        // K-means clustering of the extent's colours (read at most 64 x 64, each a block's mean):
        // `count` means, seeded from the means image's pixels where given, else spread evenly over
        // the colours seen, refined over `passes` passes. Output: `count` pixels in a row at the
        // extent's origin, each a mean colour, its alpha the share of the pixels nearest it.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 640, height: 80)
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite, rect.width >= 1, rect.height >= 1 else { return .empty() }
        let whole = PixelRegion(covering: rect)
        let count = Int(min(128, max(0, (inputs.number("inputCount") ?? 8).rounded()))),
            passes = Int(min(20, max(0, (inputs.number("inputPasses") ?? 5).rounded())))
        let perceptual = (inputs.number("inputPerceptual") ?? 0) != 0
        guard count > 0, whole.isRenderable, Double(whole.width) * Double(whole.height) <= 1e8 else { return .empty() }
        let (recipe, seeds) = (image.recipe, inputs.image("inputMeans")?.recipe)
        let output = PixelRegion(x: whole.x, y: whole.y, width: count, height: 1)
        return image.derived(
            .computed(
                Computation(extent: output.rect) { context in
                    // The colours read: blocks' means, so that at most 64 x 64 are clustered.
                    let (across, down) = (max(1, (whole.width + 63) / 64), max(1, (whole.height + 63) / 64))
                    let reduced = try context.pixels(recipe, in: whole).blockMeans(across: across, down: down)
                    let size = reduced.size
                    var samples: [[Double]] = []
                    let buffer = FloatPixels(count: size.width * size.height * 4)
                    context.pass.keep(buffer)
                    try Pixels.read(reduced, into: buffer.memory, count: size.width * size.height * 4)
                    for index in 0..<(size.width * size.height) { samples.append((0..<4).map { Double(buffer.memory[index * 4 + $0]) }) }
                    let weights = perceptual ? [0.11, 0.59, 0.3, 0] : [1.0, 1, 1, 0]
                    var means: [[Double]] = try seeds.map { try paletteColours($0, context) } ?? []
                    if means.count < count {
                        // Seeds spread evenly over the samples, ordered by luma.
                        func luma(_ colour: [Double]) -> Double { 0.11 * colour[0] + 0.59 * colour[1] + 0.3 * colour[2] }
                        let ordered = samples.sorted { luma($0) < luma($1) }
                        for index in means.count..<count where !ordered.isEmpty { means.append(ordered[min(ordered.count - 1, index * ordered.count / count)]) }
                    }
                    means = Array(means.prefix(count))
                    var members = [Int](repeating: 0, count: means.count)
                    for pass in 0...passes {
                        var sums = [[Double]](repeating: [0, 0, 0, 0], count: means.count)
                        members = [Int](repeating: 0, count: means.count)
                        for sample in samples {
                            var (best, bestDistance) = (0, Double.infinity)
                            for (index, mean) in means.enumerated() {
                                var distance = 0.0
                                for band in 0..<3 {
                                    let difference: Double = sample[band] - mean[band]
                                    distance += weights[band] * difference * difference
                                }
                                if distance < bestDistance { (best, bestDistance) = (index, distance) }
                            }
                            members[best] += 1
                            for band in 0..<4 { sums[best][band] += sample[band] }
                        }
                        guard pass < passes else { break }
                        for index in means.indices where members[index] > 0 { means[index] = sums[index].map { $0 / Double(members[index]) } }
                    }
                    // Each mean's colour, opaque colour scaled to its share as alpha (premultiplied).
                    let values = FloatPixels(count: count * 4)
                    context.pass.keep(values)
                    for (index, mean) in means.enumerated() {
                        let share = Double(members[index]) / Double(max(1, samples.count))
                        let alpha = max(mean[3], 1e-9)
                        for band in 0..<3 { values.memory[index * 4 + band] = Float(mean[band] / alpha * share * 255) }
                        values.memory[index * 4 + 3] = Float(share * 255)
                    }
                    return try context.placed(try Pixels.floats(values.memory, width: count, height: 1, bands: 4), covering: output)
                }))
    }

    static let documentEnhancer = FilterDefinition(
        name: "CIDocumentEnhancer", displayName: "Document Enhancer",
        categories: [kCICategoryColorEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), .scalar(kCIInputAmountKey, "Amount", default: 1, min: 0, max: 10, sliderMin: 0, sliderMax: 10)]
    ) { inputs in
        // The paper's light estimated by a morphological closing of the image over 8 pixels (the
        // largest value within 8 pixels, then the smallest of those: strokes of ink narrower than
        // that filled in, the paper's shading kept); each colour divided by it (shadows and tints
        // lifted to white), then its contrast raised by the amount about white.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let amount = min(10, max(0, inputs.number(kCIInputAmountKey) ?? 1))
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: recipe.isOpaque) { context in
                    let margin = 16
                    let wide = try context.pixels(recipe.extent.isInfinite ? recipe : .clamp(recipe), margin: margin)
                    let closed = try discExtreme(try discExtreme(wide, radius: 8, maximum: true), radius: 8, maximum: false)
                    let paper = try context.trimmed(closed, margin: margin)
                    let pixels = try context.pixels(recipe)
                    let lifted = try clamp(try pixels.bands(0, 3) / max(try paper.bands(0, 3), try paper.bands(0, 3) * 0 + 1) * 255, 0, 255)
                    // Contrast about white: 255 - (255 - v) (1 + amount).
                    let contrasted = try clamp(try 255 - (255 - lifted) * (1 + amount), 0, 255)
                    let alpha = try pixels.bands(3)
                    return try Pixels.joined([try contrasted * alpha / 255, alpha])
                }))
    }
}
