import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The distortions that bend the plane around a circle, a ring, a capsule or a spiral: each
    /// output pixel shows the image at a point worked out from where it lies.
    static let lensFilters: [FilterDefinition] = [circularWrap, lightTunnel, torusLensDistortion, glassLozenge, stretchCrop, droste]

    private static let distorting = [kCICategoryDistortionEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// A point's offset from a centre (two bands) and its distance from it (one band).
    private static func polar(_ context: ComputationContext, about centre: CGPoint) throws -> (offset: Pixels, distance: Pixels) {
        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
        return (offset, try sqrt(try (offset * offset).weighed([[1, 1]])))
    }

    /// The points at a distance in a direction from a centre: two bands.
    private static func points(about centre: CGPoint, distance: Pixels, direction: Pixels) throws -> Pixels {
        try Pixels.joined([try distance * cos(direction), try distance * sin(direction)]).scaled([1], plus: [Double(centre.x), Double(centre.y)])
    }

    static let circularWrap = FilterDefinition(
        name: "CICircularWrap", displayName: "Circular Wrap Distortion", categories: distorting,
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputRadiusKey, "Radius", default: 150, min: 0, sliderMin: 0, sliderMax: 600, type: kCIAttributeTypeDistance),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
        ]
    ) { inputs in
        // The image wrapped around a transparent circle: its bottom edge laid along the circle,
        // its middle column at the top turned by the angle, reading clockwise; a pixel a distance
        // d from the centre in direction θ shows the image at x = midX - (θ - π/2 - angle) radius
        // (θ taken within π of the middle) and y = minY + d - radius.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 150), angle = inputs.number(kCIInputAngleKey) ?? 0
        let recipe = image.recipe
        let source = recipe.extent
        guard radius > 0, angle.isFinite, !source.isInfinite, !source.isNull else { return image }
        let outer = radius + Double(source.height)
        let extent = CGRect(x: Double(centre.x) - outer, y: Double(centre.y) - outer, width: 2 * outer, height: 2 * outer)
        return image.derived(
            .computed(
                Computation(extent: extent) { context in
                    let (offset, d) = try polar(context, about: centre)
                    let middle = Double.pi / 2 + angle
                    // The direction from the middle, folded into -π to π.
                    let turn = try atan2(try offset.bands(1), try offset.bands(0)) - middle
                    let folded = try turn - floor(try (turn + Double.pi) / (2 * Double.pi)) * (2 * Double.pi)
                    let x = try folded * -radius + Double(source.midX), y = try d - radius + Double(source.minY)
                    let sampled = try sampled(recipe, at: try Pixels.joined([x, y]), reaching: source, context)
                    return try sampled * (try d > radius)
                }))
    }

    static let lightTunnel = FilterDefinition(
        name: "CILightTunnel", displayName: "Light Tunnel Distortion", categories: distorting,
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar("inputRotation", "Rotation", default: 0, sliderMin: -2 * Double.pi, sliderMax: 2 * Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputRadiusKey, "Radius", default: 100, min: 0, sliderMin: 1, sliderMax: 500, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // A tunnel of light around the circle: inside the radius, the image; outside, the image's
        // ring at the radius drawn outwards, each pixel at distance d taking the ring's colour in
        // its direction turned by rotation × (d - radius) / radius, a spiral of streaks.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 100), rotation = inputs.number("inputRotation") ?? 0
        guard radius > 0, rotation.isFinite else { return image }
        let recipe = image.recipe
        let circle = CGRect(x: Double(centre.x) - radius, y: Double(centre.y) - radius, width: 2 * radius, height: 2 * radius)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let (offset, d) = try polar(context, about: centre)
                    let outside = try d > radius
                    let direction = try atan2(try offset.bands(1), try offset.bands(0)) + outside * (try (d - radius) * (rotation / radius))
                    let ring = try points(about: centre, distance: try d * 0 + radius, direction: direction)
                    let onRing = try sampled(recipe, at: ring, reaching: circle, context)
                    return try choose(outside, onRing, try context.pixels(recipe))
                }))
    }

    static let torusLensDistortion = FilterDefinition(
        name: "CITorusLensDistortion", displayName: "Torus Lens Distortion", categories: distorting,
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputRadiusKey, "Radius", default: 160, min: 0, sliderMin: 0, sliderMax: 500, type: kCIAttributeTypeDistance),
            .scalar(kCIInputWidthKey, "Width", default: 80, min: 0, sliderMin: 0, sliderMax: 200, type: kCIAttributeTypeDistance),
            .scalar("inputRefraction", "Refraction", default: 1.7, min: 0, sliderMin: 0, sliderMax: 5),
        ]
    ) { inputs in
        // A ring of glass, its middle at the radius, its cross-section a half disc of the width:
        // a pixel a distance d from the centre within the ring (t = (d - radius) / (width / 2) in
        // -1...1) shows the image at distance d - (1 - 1 / refraction) (d - radius) sqrt(1 - t²),
        // the ring's middle magnified by the refraction and its edges meeting the image unmoved.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 160), half = max(0, inputs.number(kCIInputWidthKey) ?? 80) / 2
        let refraction = max(0.01, inputs.number("inputRefraction") ?? 1.7)
        guard half > 0, radius.isFinite, half.isFinite, refraction.isFinite else { return image }
        let recipe = image.recipe
        let outer = radius + half
        let ringBox = CGRect(x: Double(centre.x) - outer, y: Double(centre.y) - outer, width: 2 * outer, height: 2 * outer)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    guard context.region.rect.intersects(ringBox) else { return try context.pixels(recipe) }
                    let (offset, d) = try polar(context, about: centre)
                    let t = try clamp(try (d - radius) / half, -1, 1)
                    let bulge = try sqrt(try 1 - t * t)
                    let taken = try d - (try (d - radius) * bulge) * (1 - 1 / refraction)
                    let points = try (offset * (try taken / max(d, try d * 0 + 1e-6))).scaled([1], plus: [Double(centre.x), Double(centre.y)])
                    return try sampled(recipe, at: points, reaching: ringBox.union(context.region.rect), context)
                }))
    }

    static let glassLozenge = FilterDefinition(
        name: "CIGlassLozenge", displayName: "Glass Lozenge", categories: distorting,
        inputs: [
            .image(), pointInput("inputPoint0", "Point 0", default: CGPoint(x: 150, y: 150)),
            pointInput("inputPoint1", "Point 1", default: CGPoint(x: 350, y: 350)),
            .scalar(kCIInputRadiusKey, "Radius", default: 100, min: 0, sliderMin: 1, sliderMax: 500, type: kCIAttributeTypeDistance),
            .scalar("inputRefraction", "Refraction", default: 1.7, min: 0, sliderMin: 0, sliderMax: 5),
        ]
    ) { inputs in
        // A lozenge of glass, the points within the radius of the segment from point 0 to point 1:
        // a pixel at distance s from its nearest point N of the segment shows the image at
        // N + (P - N) (1 - (1 - 1 / refraction) sqrt(1 - (s / radius)²)), magnified along the
        // segment by the refraction and meeting the image unmoved at the lozenge's edge.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let p0 = point(inputs, "inputPoint0", CGPoint(x: 150, y: 150)), let p1 = point(inputs, "inputPoint1", CGPoint(x: 350, y: 350)) else {
            return .empty()
        }
        let radius = max(0, inputs.number(kCIInputRadiusKey) ?? 100), refraction = max(0.01, inputs.number("inputRefraction") ?? 1.7)
        guard radius > 0, radius.isFinite, refraction.isFinite else { return image }
        let recipe = image.recipe
        let (dx, dy) = (Double(p1.x - p0.x), Double(p1.y - p0.y))
        let lengthSquared = max(dx * dx + dy * dy, 1e-9)
        let box = CGRect(x: min(p0.x, p1.x), y: min(p0.y, p1.y), width: abs(p1.x - p0.x), height: abs(p1.y - p0.y)).insetBy(
            dx: -CGFloat(radius), dy: -CGFloat(radius))
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    guard context.region.rect.intersects(box) else { return try context.pixels(recipe) }
                    let offset = try context.coordinates().scaled([1], plus: [-Double(p0.x), -Double(p0.y)])
                    // The nearest point of the segment: p0 + u (p1 - p0), u clipped to 0-1.
                    let u = try clamp(try offset.weighed([[dx / lengthSquared, dy / lengthSquared]]), 0, 1)
                    let nearest = try u.scaled([dx, dy], plus: [0, 0])
                    let across = try offset - nearest
                    let s = try sqrt(try (across * across).weighed([[1, 1]]))
                    let inside = try clamp(try s / radius, 0, 1)
                    let factor = try 1 - (try sqrt(try 1 - inside * inside) * (1 - 1 / refraction))
                    let points = try (nearest + across * factor).scaled([1], plus: [Double(p0.x), Double(p0.y)])
                    return try sampled(recipe, at: points, reaching: box.union(context.region.rect), context)
                }))
    }

    static let stretchCrop = FilterDefinition(
        name: "CIStretchCrop", displayName: "Stretch Crop", categories: distorting,
        inputs: [
            .image(), .vector("inputSize", "Size", default: CIVector(x: 1280, y: 720), type: kCIAttributeTypePosition),
            .scalar("inputCropAmount", "Crop Amount", default: 0.25, min: 0, max: 1),
            .scalar("inputCenterStretchAmount", "Center Stretch Amount", default: 0.25, min: 0, max: 1),
        ]
    ) { inputs in
        // The image fitted to the size (its extent from 0, 0): the crop amount shares the
        // difference in aspect between cropping and stretching (0 stretches alone, 1 crops alone),
        // the image scaled by fit^(1 - c) fill^c and its middle kept; what is left is stretched
        // along the longer side, evenly at a centre stretch of 0, all in the middle at 1 (the
        // source position u' = (1 - a) u + a u |u| for u from -1 to 1 across the output).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let size = inputs.vector("inputSize").map { (Double($0.x), Double($0.y)) } ?? (1280, 720)
        let crop = min(1, max(0, inputs.number("inputCropAmount") ?? 0.25)), centre = min(1, max(0, inputs.number("inputCenterStretchAmount") ?? 0.25))
        let recipe = image.recipe
        let source = recipe.extent
        guard size.0.isFinite, size.1.isFinite, size.0 >= 1, size.1 >= 1, size.0 * size.1 <= 1e9, !source.isInfinite, !source.isNull, source.width > 0,
            source.height > 0
        else { return .empty() }
        let (w, h) = (Double(source.width), Double(source.height))
        let fit = min(size.0 / w, size.1 / h), fill = max(size.0 / w, size.1 / h)
        let scale = fit * Foundation.pow(fill / fit, crop)
        // The part of the image shown, in its own units, and how it is stretched across the size.
        let (shownW, shownH) = (min(w, size.0 / scale), min(h, size.1 / scale))
        let wider = size.0 / scale > w  // stretched across (else up)
        return CIImage(
            recipe: .computed(
                Computation(extent: CGRect(x: 0, y: 0, width: size.0, height: size.1)) { context in
                    let xy = try context.coordinates()
                    var u = try xy.bands(0).scaled([2 / size.0], plus: [-1]), v = try xy.bands(1).scaled([2 / size.1], plus: [-1])
                    if wider { u = try u * (1 - centre) + u * abs(u) * centre } else { v = try v * (1 - centre) + v * abs(v) * centre }
                    let x = try u.scaled([shownW / 2], plus: [Double(source.midX)]), y = try v.scaled([shownH / 2], plus: [Double(source.midY)])
                    return try sampled(.clamp(recipe), at: try Pixels.joined([x, y]), reaching: source, context)
                }))
    }

    static let droste = FilterDefinition(
        name: "CIDroste", displayName: "Droste", categories: distorting,
        inputs: [
            .image(), pointInput("inputInsetPoint0", "Inset Point 0", default: CGPoint(x: 200, y: 200)),
            pointInput("inputInsetPoint1", "Inset Point 1", default: CGPoint(x: 400, y: 400)),
            .scalar("inputStrands", "Strands", default: 1, min: -10, max: 10, sliderMin: -2, sliderMax: 2),
            .scalar("inputPeriodicity", "Periodicity", default: 1, min: 1, sliderMin: 1, sliderMax: 5),
            .scalar("inputRotation", "Rotation", default: 0, sliderMin: 0, sliderMax: 2 * Double.pi, type: kCIAttributeTypeAngle),
            .scalar("inputZoom", "Zoom", default: 1, min: 0.01, sliderMin: 0.01, sliderMax: 5),
        ]
    ) { inputs in
        // The image repeated inside itself, the inset rectangle (between the two points) holding
        // a smaller copy, and so on inwards, the copies turned into a spiral: in the complex
        // plane about the inset's middle, w = log z is turned by the strands (w' = w (1 + i s L /
        // (2π p)) / p, where L = log of the image's size over the inset's and p the periodicity),
        // moved by log zoom and the rotation, and exp(w') brought into the ring between the inset
        // and the image by whole powers of their ratio; the image is read there.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let a = point(inputs, "inputInsetPoint0", CGPoint(x: 200, y: 200)), let b = point(inputs, "inputInsetPoint1", CGPoint(x: 400, y: 400))
        else { return .empty() }
        let strands = min(10, max(-10, inputs.number("inputStrands") ?? 1)), periodicity = max(1, inputs.number("inputPeriodicity") ?? 1)
        let rotation = inputs.number("inputRotation") ?? 0, zoom = max(0.01, inputs.number("inputZoom") ?? 1)
        let recipe = image.recipe
        let source = recipe.extent
        let inset = CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
        guard !source.isInfinite, !source.isNull, inset.width >= 1, inset.height >= 1, rotation.isFinite, zoom.isFinite, strands.isFinite,
            periodicity.isFinite
        else { return image }
        let ratio = max(Double(source.width / inset.width), Double(source.height / inset.height))
        guard ratio > 1.001 else { return image }
        let period = Foundation.log(ratio)
        let centre = CGPoint(x: inset.midX, y: inset.midY)
        // w' = w × (alpha + i beta): the spiral's turn.
        let alpha = 1 / periodicity, beta = strands * period / (2 * Double.pi * periodicity)
        // The ring's inner radius: the inset's half size, along its shorter side.
        let inner = Double(min(inset.width, inset.height)) / 2
        return image.derived(
            .computed(
                Computation(extent: source) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let r = try max(try sqrt(try (offset * offset).weighed([[1, 1]])), try offset.bands(0) * 0 + 1e-6)
                    let (lr, theta) = (try log(r), try atan2(try offset.bands(1), try offset.bands(0)))
                    var re = try lr * alpha - theta * beta + Foundation.log(1 / zoom)
                    let im = try lr * beta + theta * alpha + rotation
                    // Into the ring [log inner, log inner + period).
                    let low = Foundation.log(inner)
                    re = try re - floor(try (re - low) / period) * period
                    let radius = try exp(re)
                    let points = try Pixels.joined([try radius * cos(im), try radius * sin(im)]).scaled([1], plus: [Double(centre.x), Double(centre.y)])
                    return try sampled(.clamp(recipe), at: points, reaching: source, context)
                }))
    }
}
