import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The transitions that reveal the target through light, holes, a wave or a fold: a flash
    /// that fills the frame and fades, holes that open, a ripple spreading from a point, and the
    /// image folding down like an accordion.
    static let revealTransitionFilters: [FilterDefinition] = [flashTransition, modTransition, rippleTransition, accordionFoldTransition]

    private static let transitioning = [kCICategoryTransition, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    private static var timeInput: Input { .scalar(kCIInputTimeKey, "Time", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1, type: kCIAttributeTypeTime) }

    /// The farthest corner of a rectangle from a point.
    private static func farthest(_ rect: CGRect, from point: CGPoint) -> Double {
        [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)].map {
            hypot(Double($0.0 - point.x), Double($0.1 - point.y))
        }.max()!
    }

    /// The extent both images cover, or the given one where either is endless.
    private static func covered(_ from: Recipe, _ to: Recipe, or rect: CGRect) -> CGRect {
        let union = from.extent.union(to.extent)
        return union.isInfinite || union.isNull ? rect : union
    }

    static let flashTransition = FilterDefinition(
        name: "CIFlashTransition", displayName: "Flash", categories: transitioning,
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 300, w: 300), type: kCIAttributeTypeRectangle),
            colorInput(kCIInputColorKey, "Color", default: CIColor(red: 1, green: 0.8, blue: 0.6)), timeInput,
            .scalar("inputMaxStriationRadius", "Maximum Striation Radius", default: 2.58, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar("inputStriationStrength", "Striation Strength", default: 0.5, min: 0, sliderMin: 0, sliderMax: 3),
            .scalar("inputStriationContrast", "Striation Contrast", default: 1.375, min: 0, sliderMin: 0, sliderMax: 5),
            .scalar("inputFadeThreshold", "Fade Threshold", default: 0.85, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // Until the fade threshold, a flash of the colour spreads from the centre over the image:
        // a sun (as the sunbeams generator draws it) whose radius grows as (time / threshold)²
        // until it covers the extent's farthest corner. After it, the colour fades into the
        // target, evenly over the rest of the time.
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0)), threshold = min(1, max(0, inputs.number("inputFadeThreshold") ?? 0.85))
        let color = inputs.color(kCIInputColorKey) ?? CIColor(red: 1, green: 0.8, blue: 0.6)
        let reach = min(1000, max(0, inputs.number("inputMaxStriationRadius") ?? 2.58))
        let strength = max(0, inputs.number("inputStriationStrength") ?? 0.5), contrast = max(0, inputs.number("inputStriationContrast") ?? 1.375)
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 300, height: 300)
        guard reach.isFinite, strength.isFinite, contrast.isFinite, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite
        else { return .empty() }
        let (from, to) = (image.recipe, target.recipe)
        let colour = premultiplied(color)
        if time >= threshold {
            let fade = threshold >= 1 ? 1 : (time - threshold) / (1 - threshold)
            return image.derived(
                .computed(
                    Computation(extent: covered(from, to, or: rect)) { context in
                        try interpolate(try context.constant(colour), try context.pixels(to), try context.constant([fade]))
                    }))
        }
        let radius = farthest(rect, from: centre) * Foundation.pow(time / max(threshold, 1e-9), 2)
        return image.derived(
            .computed(
                Computation(extent: covered(from, to, or: rect)) { context in
                    let light = try sunlight(context, centre: centre, radius: radius, reach: reach, strength: strength, contrast: contrast, time: time)
                    return try interpolate(try context.pixels(from), try context.constant(colour), try radius > 0 ? light : light * 0)
                }))
    }

    static let modTransition = FilterDefinition(
        name: "CIModTransition", displayName: "Mod", categories: transitioning,
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            timeInput, .scalar(kCIInputAngleKey, "Angle", default: 2, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputRadiusKey, "Radius", default: 150, min: 1, sliderMin: 1, sliderMax: 200, type: kCIAttributeTypeDistance),
            .scalar("inputCompression", "Compression", default: 300, min: 1, sliderMin: 1, sliderMax: 800, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Holes open onto the target: in the plane turned by the angle about the centre, the
        // field g = (1 + sin(2π u / radius) sin(2π v / compression)) / 2 of each pixel's (u, v)
        // is a lattice of oval cells; a pixel shows the target once the time reaches g there, so
        // the holes open from the cells' darkest points and meet when the time is 1.
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0)), angle = inputs.number(kCIInputAngleKey) ?? 2
        let radius = max(1, inputs.number(kCIInputRadiusKey) ?? 150), compression = max(1, inputs.number("inputCompression") ?? 300)
        guard angle.isFinite, radius.isFinite, compression.isFinite else { return .empty() }
        let (from, to) = (image.recipe, target.recipe)
        if time <= 0 { return image }
        if time >= 1 { return target }
        return image.derived(
            .computed(
                Computation(extent: from.extent.union(to.extent)) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let uv = try offset.weighed([
                        [cos(angle) * 2 * Double.pi / radius, sin(angle) * 2 * Double.pi / radius],
                        [-sin(angle) * 2 * Double.pi / compression, cos(angle) * 2 * Double.pi / compression],
                    ])
                    let g = try (try sin(try uv.bands(0)) * sin(try uv.bands(1)) + 1) * 0.5
                    return try choose(try g < time, try context.pixels(to), try context.pixels(from))
                }))
    }

    static let rippleTransition = FilterDefinition(
        name: "CIRippleTransition", displayName: "Ripple", categories: transitioning,
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"), .image("inputShadingImage", "Shading Image"),
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 300, w: 300), type: kCIAttributeTypeRectangle), timeInput,
            .scalar(kCIInputWidthKey, "Width", default: 100, min: 1, sliderMin: 1, sliderMax: 300, type: kCIAttributeTypeDistance),
            .scalar(kCIInputScaleKey, "Scale", default: 50, min: -50, sliderMin: -50, sliderMax: 50),
        ]
    ) { inputs in
        // A wave of the width spreads from the centre, its front at time × (the extent's farthest
        // corner + width): behind the wave the target, ahead of it the image; within it, the phase
        // φ from 0 at the front to 1 at the back, the picture (the image in the front half, the
        // target in the back) moved outwards by scale × sin(πφ) and lit by the shading image's
        // brightness at the same phase along its middle row, as a lens's highlight (none without one).
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0)), width = max(1, inputs.number(kCIInputWidthKey) ?? 100)
        let scale = max(-50, inputs.number(kCIInputScaleKey) ?? 50)
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 300, height: 300)
        guard width.isFinite, scale.isFinite, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return .empty() }
        let (from, to) = (image.recipe, target.recipe)
        let shading = inputs.image("inputShadingImage")?.recipe
        let front = time * (farthest(rect, from: centre) + width)
        let reach = CGRect(
            x: Double(centre.x) - front - abs(scale), y: Double(centre.y) - front - abs(scale), width: 2 * (front + abs(scale)),
            height: 2 * (front + abs(scale)))
        return image.derived(
            .computed(
                Computation(extent: covered(from, to, or: rect)) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let d = try sqrt(try (offset * offset).weighed([[1, 1]]))
                    let phase = try clamp(try (d * -1 + front) / width, 0, 1)
                    let inWave = try (try d < front) * (try d > front - width)
                    let push = try sin(try phase * Double.pi) * scale
                    let moved = try (offset * (try (d + push) / max(d, try d * 0 + 1e-6))).scaled([1], plus: [Double(centre.x), Double(centre.y)])
                    let region = reach.union(context.region.rect).insetBy(dx: -CGFloat(abs(scale)), dy: -CGFloat(abs(scale)))
                    let waved = try choose(
                        try phase < 0.5, try sampled(from, at: moved, reaching: region, context), try sampled(to, at: moved, reaching: region, context))
                    var lit = waved
                    if let shading, !shading.extent.isInfinite, !shading.extent.isNull, shading.extent.width >= 1 {
                        let box = shading.extent
                        let along = try Pixels.joined([
                            try phase.scaled([Double(box.width) - 1], plus: [Double(box.minX) + 0.5]), try phase * 0 + Double(box.midY),
                        ])
                        let highlight = try sampled(shading, at: along, reaching: box, context)
                        // Added as light, in proportion to the shading's alpha-weighted luma.
                        let luma = try ComputedBlend.luminosity(try highlight.bands(0, 3)) / 255
                        lit = try clamp(try waved + (try Pixels.joined([luma, luma, luma, try luma * 0])) * (try waved.bands(3)), 0, 255)
                    }
                    let outside = try choose(try d < front, try context.pixels(to), try context.pixels(from))
                    return try choose(inWave, lit, outside)
                }))
    }

    static let accordionFoldTransition = FilterDefinition(
        name: "CIAccordionFoldTransition", displayName: "Accordion Fold Transition", categories: transitioning,
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"),
            .scalar("inputBottomHeight", "Bottom Height", default: 0, min: 0, sliderMin: 0, sliderMax: 10, type: kCIAttributeTypeDistance),
            .scalar("inputNumberOfFolds", "Number Of Folds", default: 3, min: 1, max: 50, sliderMin: 1, sliderMax: 10),
            .scalar("inputFoldShadowAmount", "Fold Shadow Amount", default: 0.1, min: 0, max: 1, sliderMin: 0, sliderMax: 1), timeInput,
        ]
    ) { inputs in
        // The image above the bottom height folds down onto it like an accordion, uncovering the
        // target above: its height shrinks to (1 - time) of itself, every row read from the row
        // it came from (the folds are evenly squeezed), and the panels between folds (two to a
        // fold) face away from the light in turn, darkened by the shadow amount times the time.
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0)), bottom = max(0, inputs.number("inputBottomHeight") ?? 0)
        let folds = min(50, max(1, inputs.number("inputNumberOfFolds") ?? 3)), shadow = min(1, max(0, inputs.number("inputFoldShadowAmount") ?? 0.1))
        guard bottom.isFinite else { return .empty() }
        let (from, to) = (image.recipe, target.recipe)
        let box = from.extent
        guard !box.isInfinite, !box.isNull, box.height > 0 else { return image }
        if time <= 0 { return image }
        let base = Double(box.minY) + min(bottom, Double(box.height))
        let full = Double(box.maxY) - base
        let folded = full * (1 - time)
        return image.derived(
            .computed(
                Computation(extent: from.extent.union(to.extent)) { context in
                    let xy = try context.coordinates()
                    let (x, y) = (try xy.bands(0), try xy.bands(1))
                    // Where a row of the folded part came from, and which panel it is in.
                    let fraction = try clamp(try (y - base) / max(folded, 1e-6), 0, 1)
                    let sourceY = try fraction * full + base
                    let panel = try floor(try fraction * (2 * folds))
                    let odd = try panel - 2 * floor(try panel / 2)
                    let darkness = try odd * (shadow * time)
                    let taken = try sampled(from, at: try Pixels.joined([x, sourceY]), reaching: box, context)
                    let shaded = try Pixels.joined([try taken.bands(0, 3) * (1 - darkness), try taken.bands(3)])
                    let inFolds = try (try y > base) * (try y < base + folded)
                    let below = try y < base
                    let above = try choose(inFolds, shaded, try context.pixels(to))
                    return try choose(below, try context.pixels(from), above)
                }))
    }
}
