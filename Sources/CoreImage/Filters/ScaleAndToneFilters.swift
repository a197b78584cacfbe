import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Scaling by the maximum, upsampling a small image along a large one's edges, and tone
    /// mapping from one headroom to another.
    static let scaleAndToneFilters: [FilterDefinition] = [maximumScaleTransform, edgePreserveUpsample, toneMapHeadroom]

    private static let geometry = [kCICategoryGeometryAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    static let maximumScaleTransform = FilterDefinition(
        name: "CIMaximumScaleTransform", displayName: "Maximum Scale Transform", categories: geometry,
        inputs: [
            .image(), .scalar(kCIInputScaleKey, "Scale", default: 1, min: 0, sliderMin: 0.05, sliderMax: 1.5),
            .scalar(kCIInputAspectRatioKey, "Aspect Ratio", default: 1, min: 0, sliderMin: 0.05, sliderMax: 2),
        ]
    ) { inputs in
        // Scaled by scale × aspect across and scale up, as the Lanczos scale is, each output pixel
        // the largest of the image's pixels under it (a window of 1 / scale, at least one pixel,
        // rounded up to an odd width), rather than their weighted mean: thin bright lines survive.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let scale = inputs.number(kCIInputScaleKey) ?? 1, aspect = inputs.number(kCIInputAspectRatioKey) ?? 1
        let (sx, sy) = (scale * aspect, scale)
        let recipe = image.recipe
        let source = recipe.extent
        guard sx > 0, sy > 0, sx.isFinite, sy.isFinite, !source.isInfinite, !source.isNull else { return .empty() }
        if sx == 1, sy == 1 { return image }
        let extent = CGRect(x: Double(source.minX) * sx, y: Double(source.minY) * sy, width: Double(source.width) * sx, height: Double(source.height) * sy)
        guard extent.width * extent.height <= 1e9 else { return .empty() }
        let window = { (s: Double) in max(1, Int((1 / s).rounded(.up))) | 1 }
        let (across, up) = (window(sx), window(sy))
        let largest: Recipe = across == 1 && up == 1 ? recipe : .rank(.clamp(recipe), width: min(across, 201), height: min(up, 201), .maximum)
        return image.derived(
            .computed(
                Computation(extent: extent.integral) { context in
                    // Each pixel's centre back in the image, moved onto the centre of the pixel there.
                    let back = try context.coordinates().scaled([1 / sx, 1 / sy], plus: [0, 0])
                    let centres = try floor(back) + 0.5
                    let reach = CGRect(
                        x: Double(context.region.rect.minX) / sx, y: Double(context.region.rect.minY) / sy, width: Double(context.region.rect.width) / sx,
                        height: Double(context.region.rect.height) / sy
                    ).intersection(source)
                    return try sampled(largest, at: centres, reaching: reach, context)
                }))
    }

    static let edgePreserveUpsample = FilterDefinition(
        name: "CIEdgePreserveUpsampleFilter", displayName: "Edge Preserve Upsample Filter",
        categories: [
            kCICategoryGeometryAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryNonSquarePixels,
            kCICategoryHighDynamicRange, kCICategoryBuiltIn,
        ],
        inputs: [
            .image(), .image("inputSmallImage", "Small Image"),
            .scalar("inputSpatialSigma", "Spatial Sigma", default: 3, min: 0, max: 5, sliderMin: 0, sliderMax: 5),
            .scalar("inputLumaSigma", "Luma Sigma", default: 0.15, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // The small image brought up to the image's extent along the image's edges (joint
        // bilateral upsampling): each pixel the mean of the 5 x 5 small pixels about its place in
        // the small image, each weighed by exp(-d² / 2 spatial²) (d in small pixels) and by
        // exp(-Δ² / 2 luma²), Δ the difference between the image's luma there and the small
        // pixel's (0-1): small pixels across an edge of the image count for nearly nothing.
        guard let image = inputs.image(kCIInputImageKey), let small = inputs.image("inputSmallImage") else { return nil }
        let spatial = min(5, max(0.01, inputs.number("inputSpatialSigma") ?? 3)), luma = min(1, max(0.001, inputs.number("inputLumaSigma") ?? 0.15))
        let (guide, low) = (image.recipe, small.recipe)
        let (big, little) = (guide.extent, low.extent)
        guard !big.isInfinite, !big.isNull, !little.isInfinite, !little.isNull, big.width > 0, big.height > 0, little.width > 0, little.height > 0,
            spatial.isFinite, luma.isFinite
        else { return image }
        let (kx, ky) = (Double(little.width / big.width), Double(little.height / big.height))
        return image.derived(
            .computed(
                Computation(extent: big) { context in
                    // Where each pixel falls in the small image, and the nearest small pixel centre below and left of it.
                    let place = try context.coordinates().scaled(
                        [kx, ky], plus: [Double(little.minX) - Double(big.minX) * kx, Double(little.minY) - Double(big.minY) * ky])
                    let base = try floor(try place - 0.5) + 0.5
                    let guideLuma = try ComputedBlend.luminosity(try context.pixels(guide).bands(0, 3)) / 255
                    let r = context.region.rect
                    let reach = CGRect(
                        x: Double(little.minX) + (Double(r.minX) - Double(big.minX)) * kx - 3,
                        y: Double(little.minY) + (Double(r.minY) - Double(big.minY)) * ky - 3,
                        width: Double(r.width) * kx + 6, height: Double(r.height) * ky + 6)
                    let source = try SampleSource(.clamp(low), reaching: reach.intersection(little.insetBy(dx: -3, dy: -3)), context)
                    var total: Pixels?, weights: Pixels?
                    for dy in -2...2 {
                        for dx in -2...2 {
                            let centre = try base.scaled([1], plus: [Double(dx), Double(dy)])
                            let colour = try source.sample(at: centre)
                            let apart = try centre - place
                            let near = try exp(try (apart * apart).weighed([[1, 1]]) * (-1 / (2 * spatial * spatial)))
                            let difference = try ComputedBlend.luminosity(try colour.bands(0, 3)) / 255 - guideLuma
                            let alike = try exp(try difference * difference * (-1 / (2 * luma * luma))) + 1e-9
                            let weight = try near * alike
                            total = try total.map { try $0 + colour * weight } ?? (try colour * weight)
                            weights = try weights.map { try $0 + weight } ?? weight
                        }
                    }
                    return try total! / weights!
                }))
    }

    static let toneMapHeadroom = FilterDefinition(
        name: "CIToneMapHeadroom", displayName: "Tone Map Headroom",
        categories: [
            kCICategoryColorAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryHighDynamicRange,
            kCICategoryBuiltIn,
        ],
        inputs: [
            .image(), .scalar("inputSourceHeadroom", "Source Headroom", default: 1, min: 1, max: 32, sliderMin: 1, sliderMax: 32),
            .scalar("inputTargetHeadroom", "Target Headroom", default: 1, min: 1, max: 32, sliderMin: 1, sliderMax: 32),
        ]
    ) { inputs in
        // Values up to the source headroom brought within the target's by the extended Reinhard
        // curve, in units of the target (y = x / target, w = source / target): target × y (1 + y /
        // w²) / (1 + y), which takes the source headroom to the target's and is the identity when
        // they are equal. A source within the target is left as it is. Each of red, green and blue,
        // not premultiplied; pixels here are at most 1, the SDR white.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let sourceHeadroom = min(32, max(1, inputs.number("inputSourceHeadroom") ?? 1)), target = min(32, max(1, inputs.number("inputTargetHeadroom") ?? 1))
        guard sourceHeadroom > target else { return image }
        let w = sourceHeadroom / target
        return recoloured(image) { colour, _ in
            let y = try colour / target
            return try (y * (try y / (w * w) + 1) / (try y + 1)) * target
        }
    }
}
