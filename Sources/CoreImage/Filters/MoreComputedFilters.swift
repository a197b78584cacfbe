import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The colour wheel, the displacement and linear bump distortions, and the zoom blur.
    static let moreComputedFilters: [FilterDefinition] = [hueSaturationValueGradient, displacementDistortion, bumpDistortionLinear, zoomBlur]

    static let hueSaturationValueGradient = FilterDefinition(
        name: "CIHueSaturationValueGradient", displayName: "Hue/Saturation/Value Gradient",
        categories: [kCICategoryGradient, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .scalar("inputValue", "Value", default: 1, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar(kCIInputRadiusKey, "Radius", default: 300, min: 0, sliderMin: 0, sliderMax: 500, type: kCIAttributeTypeDistance),
            .scalar("inputSoftness", "Softness", default: 1, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar("inputDither", "Dither", default: 1, min: 0, sliderMin: 0, sliderMax: 3),
            Input(key: "inputColorSpace", className: "NSObject", displayName: "Color Space"),
        ]
    ) { inputs in
        // A colour wheel about the origin: the hue the angle from the x axis (red, then yellow,
        // green, cyan, blue, magenta anticlockwise), the saturation the distance over the radius,
        // the value given; its edge smoothed over `softness` pixels. (The dither and colour space
        // are not honoured: every image here is 8-bit sRGB.)
        let value = min(1, max(0, inputs.number("inputValue") ?? 1)), radius = max(0, inputs.number(kCIInputRadiusKey) ?? 300)
        let softness = max(0.001, inputs.number("inputSoftness") ?? 1)
        guard radius > 0 else { return .empty() }
        return CIImage(
            recipe: .computed(
                Computation(extent: CGRect(x: -radius, y: -radius, width: 2 * radius, height: 2 * radius)) { context in
                    let xy = try context.coordinates()
                    let distance = try sqrt(try (xy * xy).weighed([[1, 1]]))
                    let saturation = try min(try distance / radius, try distance * 0 + 1)
                    // The hue in sixths of a turn, 0 to 6.
                    let sixths = try atan2(try xy.bands(1), try xy.bands(0)) * (3 / Double.pi)
                    // Each band v - v s max(0, min(k, 4 - k, 1)), k = (n + h) mod 6: n 5 for red, 3 green, 1 blue.
                    func band(_ n: Double) throws -> Pixels {
                        let shifted = try sixths + n
                        let k = try shifted - 6 * floor(try shifted / 6)
                        let ramp = try max(try min(try min(k, try 4 - k), try k * 0 + 1), try k * 0)
                        return try (1 - saturation * ramp) * value
                    }
                    let coverage = try clamp(try (radius - distance) / softness + 0.5, 0, 1)
                    return try Pixels.joined([try band(1) * coverage, try band(3) * coverage, try band(5) * coverage, coverage]) * 255
                }))
    }

    static let displacementDistortion = FilterDefinition(
        name: "CIDisplacementDistortion", displayName: "Displacement Distortion",
        categories: [kCICategoryDistortionEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .image("inputDisplacementImage", "Displacement Image"),
            .scalar(kCIInputScaleKey, "Scale", default: 50, min: 0, sliderMin: 0, sliderMax: 200, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Each pixel shows the image moved by the displacement image there: its red less a half
        // times the scale across, its green less a half times the scale up.
        guard let image = inputs.image(kCIInputImageKey), let displacement = inputs.image("inputDisplacementImage") else { return nil }
        let scale = min(10_000, max(0, inputs.number(kCIInputScaleKey) ?? 50))
        let (recipe, moves) = (image.recipe, displacement.recipe)
        let reach = Int((scale / 2).rounded(.up)) + 1
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let shift = try (try context.pixels(moves).bands(1, 2) / 255 - 0.5) * scale
                    // Bands green, red: swapped into x (red) and y (green).
                    let points = try context.coordinates() + Pixels.joined([try shift.bands(1), try shift.bands(0)])
                    return try sampled(recipe, at: points, reaching: context.region.rect.insetBy(dx: -CGFloat(reach), dy: -CGFloat(reach)), context)
                }))
    }

    static let bumpDistortionLinear = FilterDefinition(
        name: "CIBumpDistortionLinear", displayName: "Bump Distortion Linear",
        categories: [kCICategoryDistortionEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputRadiusKey, "Radius", default: 300, min: 0, sliderMin: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputScaleKey, "Scale", default: 0.5, sliderMin: -1, sliderMax: 1),
        ]
    ) { inputs in
        // A bump along the line through the centre at the angle: a point at distance v across the
        // line (t = |v| / radius) shows the image at v (1 - scale (1 - t)^2) across, within the radius.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 300), angle = inputs.number(kCIInputAngleKey) ?? 0
        let scale = inputs.number(kCIInputScaleKey) ?? 0.5
        guard radius > 0 else { return image }
        let recipe = image.recipe
        let (c, s) = (cos(angle), sin(angle))
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let across = try offset.weighed([[-s, c]])
                    let inside = try clamp(try 1 - abs(across) / radius, 0, 1)
                    let moved = try across * (1 - inside * inside * scale) - across
                    let points = try context.coordinates() + Pixels.joined([try moved * -s, try moved * c])
                    let reach = context.region.rect.insetBy(dx: -CGFloat(radius), dy: -CGFloat(radius))
                    return try sampled(recipe, at: points, reaching: reach, context)
                }))
    }

    static let zoomBlur = FilterDefinition(
        name: "CIZoomBlur", displayName: "Zoom Blur", categories: [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputAmountKey, "Amount", default: 20, sliderMin: 0, sliderMax: 200, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // The mean of the image along the line from each point toward the centre, over
        // `amount` hundredths of the distance (16 samples): a streak that grows away from the
        // centre, as a zoom during the exposure makes.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let amount = min(100, max(0, inputs.number(kCIInputAmountKey) ?? 20)) / 100
        guard amount > 0 else { return image }
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let source = try SampleSource(recipe, reaching: context.region.rect.union(CGRect(origin: centre, size: .zero)), context)
                    var sum: Pixels?
                    let samples = 16
                    for index in 0..<samples {
                        let factor = 1 - amount * Double(index) / Double(samples - 1)
                        let points = try offset.scaled([factor], plus: [Double(centre.x), Double(centre.y)])
                        let one = try source.sample(at: points)
                        sum = try sum.map { try $0 + one } ?? one
                    }
                    return try sum! / Double(samples)
                }))
    }
}
