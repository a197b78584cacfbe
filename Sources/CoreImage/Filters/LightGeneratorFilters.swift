import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The generators of light: a sun with its beams, a star with its cross, and the coloured
    /// rings a lens throws, each the colour times an intensity worked out from every pixel's
    /// distance and direction from the centre.
    static let lightGeneratorFilters: [FilterDefinition] = [sunbeamsGenerator, starShineGenerator, lenticularHaloGenerator]

    private static let generating = [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// Striations around a centre: for each direction θ a value from 0 to 1, three waves of θ
    /// (11, 23 and 37 to a turn) whose phases move with the time, raised to the contrast.
    static func striations(_ direction: Pixels, time: Double, contrast: Double) throws -> Pixels {
        let phase = 2 * Double.pi * time
        let waves =
            try (try sin(try direction * 11 + phase) * 0.5) + (try sin(try direction * 23 - 2 * phase + 1) * 0.3)
            + (try sin(try direction * 37 + 3 * phase + 2) * 0.2)
        let rays = try clamp(try waves * 0.5 + 0.5, 0, 1)
        return try pow(rays, try rays * 0 + max(0, contrast))
    }

    /// A pixel's distance from a point and its direction (radians), one band each.
    private static func around(_ context: ComputationContext, _ centre: CGPoint) throws -> (distance: Pixels, direction: Pixels) {
        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
        return (try sqrt(try (offset * offset).weighed([[1, 1]])), try atan2(try offset.bands(1), try offset.bands(0)))
    }

    /// A colour times an intensity (one band): premultiplied B, G, R, A.
    private static func lit(_ color: CIColor, _ intensity: Pixels) throws -> Pixels {
        try intensity.scaled(premultiplied(color), plus: [0, 0, 0, 0])
    }

    /// A sun's light at each pixel: 1 on its disc, and beyond it beams reaching out to
    /// `reach` times its radius, fading as (1 - t)² along them and striated across them by the
    /// strength (0: an even glow).
    static func sunlight(
        _ context: ComputationContext, centre: CGPoint, radius: Double, reach: Double, strength: Double, contrast: Double, time: Double
    ) throws -> Pixels {
        let (d, direction) = try around(context, centre)
        let disc = try clamp(try (radius + 1) - d, 0, 1)
        let length = max(1e-6, radius * (max(reach, 1) - 1))
        let t = try clamp(try (d - radius) / length, 0, 1)
        let glow = try (1 - t) * (1 - t)
        let beams = try glow * (try striations(direction, time: time, contrast: contrast) * strength + (1 - strength))
        return try max(disc, beams)
    }

    static let sunbeamsGenerator = FilterDefinition(
        name: "CISunbeamsGenerator", displayName: "Sunbeams", categories: generating,
        inputs: [
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            colorInput(kCIInputColorKey, "Color", default: CIColor(red: 1, green: 0.5, blue: 0)),
            .scalar("inputSunRadius", "Sun Radius", default: 40, min: 0, sliderMin: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
            .scalar("inputMaxStriationRadius", "Maximum Striation Radius", default: 2.58, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar("inputStriationStrength", "Striation Strength", default: 0.5, min: 0, sliderMin: 0, sliderMax: 3),
            .scalar("inputStriationContrast", "Striation Contrast", default: 1.375, min: 0, sliderMin: 0, sliderMax: 5),
            .scalar(kCIInputTimeKey, "Time", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // The colour's disc of the sun radius, its beams to the maximum striation radius times it.
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let color = inputs.color(kCIInputColorKey) ?? CIColor(red: 1, green: 0.5, blue: 0)
        let radius = min(100_000, max(0, inputs.number("inputSunRadius") ?? 40)), reach = min(1000, max(0, inputs.number("inputMaxStriationRadius") ?? 2.58))
        let strength = max(0, inputs.number("inputStriationStrength") ?? 0.5), contrast = max(0, inputs.number("inputStriationContrast") ?? 1.375)
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0))
        guard radius.isFinite, reach.isFinite, strength.isFinite, contrast.isFinite else { return .empty() }
        return CIImage(
            recipe: .computed(
                Computation(extent: .infinite) { context in
                    try lit(color, try sunlight(context, centre: centre, radius: radius, reach: reach, strength: strength, contrast: contrast, time: time))
                }))
    }

    static let starShineGenerator = FilterDefinition(
        name: "CIStarShineGenerator", displayName: "Star Shine", categories: generating,
        inputs: [
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            colorInput(kCIInputColorKey, "Color", default: CIColor(red: 1, green: 0.8, blue: 0.6)),
            .scalar(kCIInputRadiusKey, "Radius", default: 50, min: 0, sliderMin: 0, sliderMax: 300, type: kCIAttributeTypeDistance),
            .scalar("inputCrossScale", "Cross Scale", default: 15, min: 0, sliderMin: 0, sliderMax: 100),
            .scalar("inputCrossAngle", "Cross Angle", default: 0.6, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
            .scalar("inputCrossOpacity", "Cross Opacity", default: -2, min: -8, sliderMin: -8, sliderMax: 0),
            .scalar("inputCrossWidth", "Cross Width", default: 2.5, min: 0, sliderMin: 0, sliderMax: 300, type: kCIAttributeTypeDistance),
            .scalar("inputEpsilon", "Epsilon", default: -2, min: -8, sliderMin: -8, sliderMax: 0),
        ]
    ) { inputs in
        // A star: a glow (1 - d / radius)² about the centre, and a cross of two spikes through
        // it at the cross angle and a right angle to it, each exp(-(q / width)²) across (q the
        // distance from the spike's line), reaching the radius times the cross scale along it
        // and fading as (1 + a / radius)^epsilon there (a the distance along), at an opacity of
        // 10^(cross opacity / 4).
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let color = inputs.color(kCIInputColorKey) ?? CIColor(red: 1, green: 0.8, blue: 0.6)
        let radius = min(100_000, max(0.5, inputs.number(kCIInputRadiusKey) ?? 50)), scale = min(1000, max(0, inputs.number("inputCrossScale") ?? 15))
        let angle = inputs.number("inputCrossAngle") ?? 0.6, width = max(0.01, inputs.number("inputCrossWidth") ?? 2.5)
        let opacity = Foundation.pow(10, min(0, max(-8, inputs.number("inputCrossOpacity") ?? -2)) / 4)
        let epsilon = min(0, max(-8, inputs.number("inputEpsilon") ?? -2))
        guard radius.isFinite, angle.isFinite, width.isFinite else { return .empty() }
        return CIImage(
            recipe: .computed(
                Computation(extent: .infinite) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let d = try sqrt(try (offset * offset).weighed([[1, 1]]))
                    var light = try clamp(try 1 - d / radius, 0, 1)
                    light = try light * light
                    for spike in [angle, angle + Double.pi / 2] {
                        let along = try abs(try offset.weighed([[cos(spike), sin(spike)]]))
                        let across = try offset.weighed([[-sin(spike), cos(spike)]]) / width
                        let profile = try exp(try across * across * -1)
                        let fade = try pow(try along / radius + 1, try along * 0 + epsilon) * (try along < radius * max(scale, 0.01))
                        light = try max(light, try profile * fade * opacity)
                    }
                    return try lit(color, light)
                }))
    }

    static let lenticularHaloGenerator = FilterDefinition(
        name: "CILenticularHaloGenerator", displayName: "Lenticular Halo", categories: generating,
        inputs: [
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            colorInput(kCIInputColorKey, "Color", default: CIColor(red: 1, green: 0.9, blue: 0.8)),
            .scalar("inputHaloRadius", "Halo Radius", default: 70, min: 0, sliderMin: 0, sliderMax: 1000, type: kCIAttributeTypeDistance),
            .scalar("inputHaloWidth", "Halo Width", default: 87, min: 0, sliderMin: 0, sliderMax: 300, type: kCIAttributeTypeDistance),
            .scalar("inputHaloOverlap", "Halo Overlap", default: 0.77, min: 0, sliderMin: 0, sliderMax: 1),
            .scalar("inputStriationStrength", "Striation Strength", default: 0.5, min: 0, sliderMin: 0, sliderMax: 3),
            .scalar("inputStriationContrast", "Striation Contrast", default: 1, min: 0, sliderMin: 0, sliderMax: 5),
            .scalar(kCIInputTimeKey, "Time", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // Three rings, red outermost and blue innermost, of the halo width about the halo radius,
        // each (1 - |d - r| / (width / 2))² across; the overlap draws them together (1: one white
        // ring, 0: three rings half a width apart). Each ring carries its component of the colour,
        // striated as the sun's beams are.
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let color = inputs.color(kCIInputColorKey) ?? CIColor(red: 1, green: 0.9, blue: 0.8)
        let radius = min(100_000, max(0, inputs.number("inputHaloRadius") ?? 70)), half = min(100_000, max(0.5, inputs.number("inputHaloWidth") ?? 87)) / 2
        let overlap = min(1, max(0, inputs.number("inputHaloOverlap") ?? 0.77))
        let strength = max(0, inputs.number("inputStriationStrength") ?? 0.5), contrast = max(0, inputs.number("inputStriationContrast") ?? 1)
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0))
        guard radius.isFinite, half.isFinite, strength.isFinite, contrast.isFinite else { return .empty() }
        let alpha = Double(color.alpha)
        let spread = half * (1 - overlap)
        return CIImage(
            recipe: .computed(
                Computation(extent: .infinite) { context in
                    let (d, direction) = try around(context, centre)
                    let striated = try striations(direction, time: time, contrast: contrast) * strength + (1 - strength)
                    // Blue, green and red rings, inner to outer.
                    var rings: [Pixels] = []
                    for (index, component) in [color.blue, color.green, color.red].enumerated() {
                        let ringRadius = radius + Double(index - 1) * spread
                        let across = try clamp(try 1 - abs(try d - ringRadius) / half, 0, 1)
                        rings.append(try across * across * striated * (Double(component) * alpha * 255))
                    }
                    let coverage = try max(try max(rings[0], rings[1]), rings[2]) / (255 * max(alpha * Double(max(color.red, color.green, color.blue)), 1e-6))
                    return try Pixels.joined(rings + [try clamp(coverage, 0, 1) * (alpha * 255)])
                }))
    }
}
