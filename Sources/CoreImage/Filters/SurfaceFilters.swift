import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Images as surfaces: a glass texture's refraction, a height field from a mask, and a height
    /// field shaded by a sphere's picture.
    static let surfaceFilters: [FilterDefinition] = [glassDistortion, heightFieldFromMask, shadedMaterial]

    static let glassDistortion = FilterDefinition(
        name: "CIGlassDistortion", displayName: "Glass Distortion",
        categories: [kCICategoryDistortionEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .image("inputTexture", "Texture"), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputScaleKey, "Scale", default: 200, min: 0.001, sliderMin: 0.001, sliderMax: 500, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Glass whose thickness is the texture's luma (0-1), repeated from the centre: each
        // point shows the image moved by the thickness's slope (Sobel's, a pixel apart) times the
        // scale, as light bends through it.
        guard let image = inputs.image(kCIInputImageKey), let texture = inputs.image("inputTexture") else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let scale = min(10_000, max(0.001, inputs.number(kCIInputScaleKey) ?? 200))
        let recipe = image.recipe
        // The texture tiled from the centre, so that it covers the image however small it is.
        let glass: Recipe =
            texture.extent.isInfinite
            ? texture.recipe
            : .tile(.transform(texture.recipe, CGAffineTransform(translationX: centre.x - texture.extent.minX, y: centre.y - texture.extent.minY)))
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let thickness = try ComputedBlend.luminosity(try context.pixels(glass, margin: 1).bands(0, 3)) / 255
                    let (across, up) = try thickness.sobel(width: context.region.width, height: context.region.height)
                    // Sobel's differences are 8 times the slope a pixel.
                    let shift = try Pixels.joined([try across * (scale / 8), try up * (scale / 8)])
                    let reach = context.region.rect.insetBy(dx: -CGFloat(scale), dy: -CGFloat(scale))
                    return try sampled(recipe, at: try context.coordinates() + shift, reaching: reach, context)
                }))
    }

    static let heightFieldFromMask = FilterDefinition(
        name: "CIHeightFieldFromMask", displayName: "Height Field From Mask",
        categories: [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), .scalar(kCIInputRadiusKey, "Radius", default: 10, min: 0, sliderMin: 0, sliderMax: 300, type: kCIAttributeTypeDistance)]
    ) { inputs in
        // A height from 0 at the mask's edge to 1 a radius inside its white, rising smoothly: the
        // mask's luma blurred by a third of the radius, taken from its half (the edge) to its
        // whole, eased by smoothstep (flat at both ends, as a loft); grey, opaque.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = min(1000, max(0.001, inputs.number(kCIInputRadiusKey) ?? 10))
        let recipe = image.recipe
        let blurred: Recipe = .blur(recipe.extent.isInfinite ? recipe : .clamp(recipe), sigma: radius / 3)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: true) { context in
                    let level = try ComputedBlend.luminosity(try context.pixels(blurred).bands(0, 3)) / 255
                    let t = try clamp(try level * 2 - 1, 0, 1)
                    let height = try t * t * (3 - 2 * t)
                    return try Pixels.joined([height, height, height, try context.constant([1])]) * 255
                }))
    }

    static let shadedMaterial = FilterDefinition(
        name: "CIShadedMaterial", displayName: "Shaded Material",
        categories: [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .image("inputShadingImage", "Shading Image"),
            .scalar(kCIInputScaleKey, "Scale", default: 10, min: 0, sliderMin: 0, sliderMax: 200, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // The image's luma as a height field (0-1 times the scale, in pixels), each point shaded
        // by the shading image (a picture of a lit sphere) where the sphere faces the same way:
        // the surface's normal's x and y, -1 to 1, across the shading image's extent.
        guard let image = inputs.image(kCIInputImageKey), let shading = inputs.image("inputShadingImage") else { return nil }
        let sphere = shading.extent
        guard !sphere.isInfinite, !sphere.isNull, sphere.width >= 1, sphere.height >= 1 else { return .empty() }
        let scale = max(0, inputs.number(kCIInputScaleKey) ?? 10)
        let (recipe, picture) = (image.recipe, shading.recipe)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let height = try ComputedBlend.luminosity(try context.pixels(recipe, margin: 1).bands(0, 3)) / 255 * scale
                    let (across, up) = try height.sobel(width: context.region.width, height: context.region.height)
                    // The normal (-dh/dx, -dh/dy, 1), made of unit length; Sobel's differences are 8 times the slope.
                    let (nx, ny) = (try across * (-1.0 / 8), try up * (-1.0 / 8))
                    let length = try sqrt(try nx * nx + ny * ny + 1)
                    let points = try Pixels.joined([
                        try (nx / length).scaled([Double(sphere.width) / 2], plus: [Double(sphere.midX)]),
                        try (ny / length).scaled([Double(sphere.height) / 2], plus: [Double(sphere.midY)]),
                    ])
                    let shaded = try sampled(picture.extent.isInfinite ? picture : .clamp(picture), at: points, reaching: sphere, context)
                    let alpha = try context.pixels(recipe).bands(3) / 255
                    return try shaded * alpha
                }))
    }
}
