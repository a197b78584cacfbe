import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The gradient generators, the random generator and the rounded rectangle generator: images
    /// computed from each pixel's position.
    static let gradientFilters: [FilterDefinition] = [
        linearGradient(smooth: false), linearGradient(smooth: true), radialGradient, gaussianGradient, randomGenerator, roundedRectangleGenerator,
    ]

    private static let gradient = [kCICategoryGradient, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]
    private static let generator = [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// An input of a colour, with its default.
    static func colorInput(_ key: String, _ displayName: String, default value: CIColor) -> Input {
        Input(key: key, className: "CIColor", defaultValue: value, type: kCIAttributeTypeColor, displayName: displayName)
    }

    /// An input of a point, with its default.
    static func pointInput(_ key: String, _ displayName: String, default point: CGPoint) -> Input {
        .vector(key, displayName, default: CIVector(x: point.x, y: point.y), type: kCIAttributeTypePosition)
    }

    /// A colour's premultiplied B, G, R and A on a 0-255 scale.
    static func premultiplied(_ color: CIColor) -> [Double] {
        let alpha = Double(color.alpha)
        return [Double(color.blue) * alpha * 255, Double(color.green) * alpha * 255, Double(color.red) * alpha * 255, alpha * 255]
    }

    /// The colours from `first` at t = 0 to `second` at t = 1 (t one band), premultiplied, interpolated.
    static func colours(_ t: Pixels, from first: CIColor, to second: CIColor) throws -> Pixels {
        let a = premultiplied(first), b = premultiplied(second)
        return try t.scaled(zip(a, b).map { $1 - $0 }, plus: a)
    }

    /// A point input, nil when it is missing or not finite.
    static func point(_ inputs: FilterInputs, _ key: String, _ fallback: CGPoint) -> CGPoint? {
        guard let vector = inputs.vector(key) else { return fallback }
        return vector.x.isFinite && vector.y.isFinite ? CGPoint(x: vector.x, y: vector.y) : nil
    }

    /// CILinearGradient, or CISmoothLinearGradient (the same, eased by smoothstep): colour 0 at
    /// point 0 to colour 1 at point 1 along the line between them, constant beyond.
    static func linearGradient(smooth: Bool) -> FilterDefinition {
        FilterDefinition(
            name: smooth ? "CISmoothLinearGradient" : "CILinearGradient", displayName: smooth ? "Smooth Linear Gradient" : "Linear Gradient",
            categories: gradient,
            inputs: [
                pointInput("inputPoint0", "Point 0", default: .zero), pointInput("inputPoint1", "Point 1", default: CGPoint(x: 200, y: 200)),
                colorInput("inputColor0", "Color 1", default: .white), colorInput("inputColor1", "Color 2", default: .black),
            ]
        ) { inputs in
            guard let p0 = point(inputs, "inputPoint0", .zero), let p1 = point(inputs, "inputPoint1", CGPoint(x: 200, y: 200)) else { return .empty() }
            let c0 = inputs.color("inputColor0") ?? .white, c1 = inputs.color("inputColor1") ?? .black
            let (dx, dy) = (Double(p1.x - p0.x), Double(p1.y - p0.y))
            let lengthSquared = dx * dx + dy * dy
            guard lengthSquared > 0 else { return CIImage(color: c1) }
            return CIImage(
                recipe: .computed(
                    Computation(extent: .infinite, isOpaque: c0.alpha >= 1 && c1.alpha >= 1) { context in
                        // t = (p - p0) . (p1 - p0) / |p1 - p0|^2, clipped to 0-1.
                        let xy = try context.coordinates()
                        let along = try xy.weighed([[dx / lengthSquared, dy / lengthSquared]])
                        var t = try clamp(try along - Double(p0.x) * dx / lengthSquared - Double(p0.y) * dy / lengthSquared, 0, 1)
                        if smooth { t = try t * t * (3 - 2 * t) }
                        return try colours(t, from: c0, to: c1)
                    }))
        }
    }

    /// The distance of each pixel's centre from a point: one band.
    static func distance(_ context: ComputationContext, from centre: CGPoint) throws -> Pixels {
        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
        return try sqrt(try (offset * offset).weighed([[1, 1]]))
    }

    static let radialGradient = FilterDefinition(
        name: "CIRadialGradient", displayName: "Radial Gradient", categories: gradient,
        inputs: [
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar("inputRadius0", "Radius 1", default: 5, min: 0, sliderMin: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
            .scalar("inputRadius1", "Radius 2", default: 100, min: 0, sliderMin: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
            colorInput("inputColor0", "Color 1", default: .white), colorInput("inputColor1", "Color 2", default: .black),
        ]
    ) { inputs in
        // Colour 0 inside radius 0, colour 1 outside radius 1, interpolated by distance between.
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let r0 = max(0, inputs.number("inputRadius0") ?? 5), r1 = max(0, inputs.number("inputRadius1") ?? 100)
        let c0 = inputs.color("inputColor0") ?? .white, c1 = inputs.color("inputColor1") ?? .black
        return CIImage(
            recipe: .computed(
                Computation(extent: .infinite, isOpaque: c0.alpha >= 1 && c1.alpha >= 1) { context in
                    let d = try distance(context, from: centre)
                    let t = r1 == r0 ? try d > r0 : try clamp(try (d - r0) / (r1 - r0), 0, 1)
                    return try colours(t, from: c0, to: c1)
                }))
    }

    static let gaussianGradient = FilterDefinition(
        name: "CIGaussianGradient", displayName: "Gaussian Gradient", categories: gradient,
        inputs: [
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            colorInput("inputColor0", "Color 1", default: .white), colorInput("inputColor1", "Color 2", default: CIColor(red: 0, green: 0, blue: 0, alpha: 0)),
            .scalar(kCIInputRadiusKey, "Radius", default: 300, min: 0, sliderMin: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Colour 0 at the centre to colour 1 with distance, by a Gaussian whose standard deviation
        // is a third of the radius (so that at the radius it is 1% of the way from colour 1).
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 300)
        let c0 = inputs.color("inputColor0") ?? .white, c1 = inputs.color("inputColor1") ?? CIColor(red: 0, green: 0, blue: 0, alpha: 0)
        guard radius > 0 else { return CIImage(color: c1) }
        let sigma = radius / 3
        return CIImage(
            recipe: .computed(
                Computation(extent: .infinite, isOpaque: c0.alpha >= 1 && c1.alpha >= 1) { context in
                    let d = try distance(context, from: centre)
                    let weight = try exp(try d * d * (-1 / (2 * sigma * sigma)))
                    return try colours(try 1 - weight, from: c0, to: c1)
                }))
    }

    static let randomGenerator = FilterDefinition(
        name: "CIRandomGenerator", displayName: "Random Generator", categories: generator, inputs: []
    ) { _ in
        // Each band of each pixel a value from 0 to 1, uniformly distributed and the same wherever
        // the image is rendered from: a hash of the pixel's position (the fraction of a large
        // multiple of a sine), a different one for each band. Alpha is random too, as Apple's is.
        CIImage(
            recipe: .computed(
                Computation(extent: .infinite) { context in
                    let xy = try context.coordinates()
                    var bands: [Pixels] = []
                    for (a, b) in [(12.9898, 78.233), (39.3467, 11.135), (73.156, 52.235), (27.3491, 93.871)] {
                        // Positions taken modulo 4096, so that float keeps the sine's argument exact enough.
                        let wrapped = try xy - floor(try xy / 4096) * 4096
                        let s = try sin(try wrapped.weighed([[a / 64, b / 64]])) * 43758.5453
                        let fraction = try s - floor(s)
                        // A value 0 to 1 scrambled again, for an even distribution.
                        let again = try sin(try fraction * 6283.185 + wrapped.weighed([[0.0131, 0.0173]])) * 9631.7
                        bands.append(try again - floor(again))
                    }
                    let alpha = bands[3]
                    // Premultiplied, as every image here is.
                    return try Pixels.joined([try Pixels.joined(Array(bands[0..<3])) * alpha, alpha]) * 255
                }))
    }

    static let roundedRectangleGenerator = FilterDefinition(
        name: "CIRoundedRectangleGenerator", displayName: "Rounded Rectangle Generator", categories: generator,
        inputs: [
            .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 100, w: 100), type: kCIAttributeTypeRectangle),
            .scalar(kCIInputRadiusKey, "Radius", default: 10, min: 0, sliderMin: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
            colorInput(kCIInputColorKey, "Color", default: .white),
        ]
    ) { inputs in
        // The colour inside the rectangle with its corners rounded, its edge smoothed over a pixel.
        let rect = (inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 100, height: 100)).standardized
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite, rect.width > 0, rect.height > 0 else { return .empty() }
        let radius = min(max(0, inputs.number(kCIInputRadiusKey) ?? 10), Double(min(rect.width, rect.height)) / 2)
        let color = inputs.color(kCIInputColorKey) ?? .white
        let (cx, cy) = (Double(rect.midX), Double(rect.midY)), (hx, hy) = (Double(rect.width) / 2 - radius, Double(rect.height) / 2 - radius)
        return CIImage(
            recipe: .computed(
                Computation(extent: rect) { context in
                    // The signed distance from the rounded rectangle: the distance from the inner
                    // rectangle (shrunk by the radius) less the radius.
                    let xy = try context.coordinates()
                    let q = try abs(try xy.scaled([1], plus: [-cx, -cy])).scaled([1], plus: [-hx, -hy])
                    let outside = try max(q, try q * 0)
                    let distance = try sqrt(try (outside * outside).weighed([[1, 1]])) + min(try q.rankOfBands(1), try q.bands(0) * 0) - radius
                    let coverage = try clamp(try 0.5 - distance, 0, 1)
                    return try coverage.scaled(premultiplied(color), plus: [0, 0, 0, 0])
                }))
    }
}
