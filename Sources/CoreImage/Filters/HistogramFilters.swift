import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Histograms of an area, their display, and the pixels of largest and smallest alpha.
    static let histogramFilters: [FilterDefinition] = [
        areaHistogram(logarithmic: false), areaHistogram(logarithmic: true), histogramDisplay, areaAlphaExtreme(maximum: true),
        areaAlphaExtreme(maximum: false), areaAlphaWeightedHistogram,
    ]

    private static let reduction = [kCICategoryReduction, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// The extent input's whole pixels and the part of them an image covers; nil when the extent
    /// is not finite or smaller than a pixel, or more than a reduction reads.
    private static func areaRead(_ inputs: FilterInputs, of recipe: Recipe) -> (whole: PixelRegion, covered: PixelRegion)? {
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 640, height: 80)
        guard rect.width.isFinite, rect.height.isFinite, rect.minX.isFinite, rect.minY.isFinite, rect.width >= 1, rect.height >= 1 else { return nil }
        let whole = PixelRegion(covering: rect)
        let covered = whole.intersection(recipe.extent)
        guard whole.isRenderable, Double(covered.width) * Double(covered.height) <= 1e8 else { return nil }
        return (whole, covered)
    }

    /// CIAreaHistogram: `count` pixels in a row, the first at the extent's origin, pixel i holding
    /// for each band the share of the extent's pixels whose value falls in the i-th of `count`
    /// equal bins from 0 to 1, times the scale (pixels beyond the image count as 0, transparent).
    /// CIAreaLogarithmicHistogram: the bins equal in log2 of the value, from the minimum stop to
    /// the maximum stop (values below the first bin's in it, above the last's in it).
    private static func areaHistogram(logarithmic: Bool) -> FilterDefinition {
        var inputs: [Input] = [
            .image(), .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 640, w: 80), type: kCIAttributeTypeRectangle),
            .scalar(kCIInputScaleKey, "Scale", default: 1, min: 0, sliderMin: 0, sliderMax: 100),
            .scalar("inputCount", "Count", default: 64, min: 1, max: 2048, sliderMin: 1, sliderMax: 2048, type: kCIAttributeTypeCount),
        ]
        if logarithmic {
            inputs += [
                .scalar("inputMinimumStop", "Minimum Stop", default: -10, sliderMin: -30, sliderMax: 0),
                .scalar("inputMaximumStop", "Maximum Stop", default: 4, sliderMin: 0, sliderMax: 30),
            ]
        }
        return FilterDefinition(
            name: logarithmic ? "CIAreaLogarithmicHistogram" : "CIAreaHistogram", displayName: logarithmic ? "Area Logarithmic Histogram" : "Area Histogram",
            categories: reduction, inputs: inputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let recipe = image.recipe
            guard let (whole, covered) = areaRead(inputs, of: recipe) else { return .empty() }
            let count = Int(min(2048, max(1, (inputs.number("inputCount") ?? 64).rounded()))), scale = max(0, inputs.number(kCIInputScaleKey) ?? 1)
            let low = inputs.number("inputMinimumStop") ?? -10, high = inputs.number("inputMaximumStop") ?? 4
            guard !logarithmic || high > low else { return .empty() }
            let output = PixelRegion(x: whole.x, y: whole.y, width: count, height: 1)
            let total = Double(whole.width) * Double(whole.height)
            // The bin of each 8-bit value 0-255.
            let binOf: [Int] =
                logarithmic
                ? (0..<256).map { value in
                    let v = Double(value) / 255
                    guard v > 0 else { return 0 }
                    return min(count - 1, max(0, Int(((log2(v) - low) / (high - low) * Double(count)).rounded(.down))))
                } : linearBins(count)
            return image.derived(
                .computed(
                    Computation(extent: output.rect) { context in
                        var bins = [Float](repeating: 0, count: count * 4)
                        if !covered.isEmpty {
                            let pixels = try context.pixels(recipe, in: covered)
                            // B, G, R, A into the output's B, G, R, A.
                            for band in 0..<4 {
                                for (value, number) in try pixels.bands(band).histogram().enumerated() { bins[binOf[value] * 4 + band] += Float(number) }
                            }
                        }
                        // Pixels the image does not cover are 0 in every band.
                        let outside = total - Double(covered.width) * Double(covered.height)
                        for band in 0..<4 { bins[binOf[0] * 4 + band] += Float(outside) }
                        let shares = FloatPixels(count: count * 4)
                        for index in 0..<(count * 4) { shares.memory[index] = bins[index] / Float(total) * Float(scale) * 255 }
                        context.pass.keep(shares)
                        return try context.placed(try Pixels.floats(shares.memory, width: count, height: 1, bands: 4), covering: output)
                    }))
        }
    }

    /// The bin of each 8-bit value 0-255 among `count` equal bins from 0 to 1.
    private static func linearBins(_ count: Int) -> [Int] { (0..<256).map { min(count - 1, Int(Double($0) / 255 * Double(count))) } }

    /// CIAreaAlphaWeightedHistogram: `count` opaque pixels in a row from the origin, pixel i
    /// holding for each of red, green and blue the sum of the alphas (0-1) of the pixels of the
    /// image's extent within the extent input whose unpremultiplied value falls in the i-th of
    /// `count` equal bins from 0 to 1, over the number of those pixels, times the scale: the bins
    /// of an opaque image add up to the scale, transparent pixels count for nothing.
    static let areaAlphaWeightedHistogram = FilterDefinition(
        name: "CIAreaAlphaWeightedHistogram", displayName: "Area Alpha Weighted Histogram", categories: reduction,
        inputs: [
            .image(), .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 640, w: 80), type: kCIAttributeTypeRectangle),
            .scalar(kCIInputScaleKey, "Scale", default: 1, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar("inputCount", "Count", default: 64, min: 1, max: 2048, sliderMin: 1, sliderMax: 2048, type: kCIAttributeTypeScalar),
        ]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let recipe = image.recipe
        guard let (_, covered) = areaRead(inputs, of: recipe), !covered.isEmpty else { return .empty() }
        let count = Int(min(2048, max(1, (inputs.number("inputCount") ?? 64).rounded()))), scale = max(0, inputs.number(kCIInputScaleKey) ?? 1)
        let output = PixelRegion(x: 0, y: 0, width: count, height: 1)
        let area = Float(covered.width) * Float(covered.height), binOf = linearBins(count)
        return image.derived(
            .computed(
                Computation(extent: output.rect, isOpaque: true) { context in
                    let pixels = try context.pixels(recipe, in: covered)
                    let colours = try pixels.unpremultiplied(), weights = try pixels.bands(3) / 255
                    let shares = FloatPixels(count: count * 4)
                    // B, G, R into the output's B, G, R; its alpha 1.
                    for band in 0..<3 {
                        for (value, sum) in try colours.bands(band).weightedHistogram(weights).enumerated() {
                            shares.memory[binOf[value] * 4 + band] += Float(sum) / area * Float(scale) * 255
                        }
                    }
                    for bin in 0..<count { shares.memory[bin * 4 + 3] = 255 }
                    context.pass.keep(shares)
                    return try context.placed(try Pixels.floats(shares.memory, width: count, height: 1, bands: 4), covering: output)
                }))
    }

    static let histogramDisplay = FilterDefinition(
        name: "CIHistogramDisplayFilter", displayName: "Histogram Display", categories: reduction,
        inputs: [
            .image(), .scalar("inputHeight", "Height", default: 100, min: 1, max: 200, sliderMin: 1, sliderMax: 200),
            .scalar("inputHighLimit", "High Limit", default: 1, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
            .scalar("inputLowLimit", "Low Limit", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // A histogram image (a row of bins, as the area histogram makes) drawn as bars: each
        // column as high as its bin's value between the low and high limits, a bar of each of
        // red, green and blue (overlapping bars mix to white), opaque, on black.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let recipe = image.recipe, whole = PixelRegion(covering: recipe.extent)
        guard !recipe.extent.isInfinite, !whole.isEmpty, whole.width <= 65536 else { return .empty() }
        let height = Int(min(200, max(1, (inputs.number("inputHeight") ?? 100).rounded())))
        let low = inputs.number("inputLowLimit") ?? 0, high = inputs.number("inputHighLimit") ?? 1
        guard high > low else { return .empty() }
        let output = PixelRegion(x: whole.x, y: whole.y, width: whole.width, height: height)
        return image.derived(
            .computed(
                Computation(extent: output.rect, isOpaque: true) { context in
                    let row = try context.pixels(recipe, in: PixelRegion(x: whole.x, y: whole.y, width: whole.width, height: 1)) / 255
                    let xy = try context.coordinates()
                    // Each pixel's height from the bottom (0-1), and its column's bin.
                    let fraction = try xy.bands(1).scaled([1 / Double(height)], plus: [-Double(output.y) / Double(height)])
                    let bins = try row.sampled(at: try Pixels.joined([try xy.bands(0) - (Double(whole.x) + 0.5), try xy.bands(0) * 0]))
                    let bars = try (try fraction < (try (bins.bands(0, 3) - low) / (high - low))) * 255
                    return try Pixels.joined([bars, try context.constant([255])])
                }))
    }

    /// CIAreaMaximumAlpha or CIAreaMinimumAlpha: the one pixel of the extent with the largest (or
    /// smallest) alpha, the first such from the top left, at the extent's origin.
    private static func areaAlphaExtreme(maximum: Bool) -> FilterDefinition {
        FilterDefinition(
            name: maximum ? "CIAreaMaximumAlpha" : "CIAreaMinimumAlpha", displayName: maximum ? "Area Maximum Alpha" : "Area Minimum Alpha",
            categories: reduction,
            inputs: [.image(), .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 640, w: 80), type: kCIAttributeTypeRectangle)]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let recipe = image.recipe
            guard let (whole, covered) = areaRead(inputs, of: recipe), !covered.isEmpty else { return .empty() }
            let output = PixelRegion(x: whole.x, y: whole.y, width: 1, height: 1)
            return image.derived(
                .computed(
                    Computation(extent: output.rect) { context in
                        let pixels = try context.pixels(recipe, in: covered)
                        let (x, y) = try pixels.bands(3).positionOfExtreme(maximum: maximum)
                        // Beyond the image the pixels are transparent: the minimum is one of them when the image does not cover it all.
                        if !maximum, covered != whole, try pixels.bands(3).extremes().minimum[0] > 0 { return try context.constant([0, 0, 0, 0]) }
                        return try context.placed(try pixels.window(x: x, y: y, width: 1, height: 1), covering: output)
                    }))
        }
    }
}
