import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The transitions beside the dissolve: an edge or bars sweeping the target in, a light bar
    /// copying it in, and a mask's values deciding when each pixel changes.
    static let transitionFilters: [FilterDefinition] = [sweep(copyMachine: false), sweep(copyMachine: true), barsSwipe, disintegrateWithMask]

    private static let transition = [kCICategoryTransition, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// The time input, clipped to 0-1.
    private static func time(_ inputs: FilterInputs) -> Double { min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0)) }

    private static var timeInput: Input { .scalar(kCIInputTimeKey, "Time", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1, type: kCIAttributeTypeTime) }

    /// Where each pixel's centre lies along a direction: x cos a + y sin a (one band).
    private static func along(_ context: ComputationContext, angle: Double) throws -> Pixels {
        try context.coordinates().weighed([[cos(angle), sin(angle)]])
    }

    /// The range of x cos a + y sin a over a rectangle's corners.
    private static func span(of rect: CGRect, angle: Double) -> (low: Double, high: Double) {
        let values = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)].map {
            Double($0.0) * cos(angle) + Double($0.1) * sin(angle)
        }
        return (values.min()!, values.max()!)
    }

    /// CISwipeTransition, or CICopyMachineTransition (`copyMachine`): an edge at right angles to
    /// the angle's direction sweeps across the extent as time goes from 0 to 1, the target behind
    /// it, the image ahead of it. Over the band of the width just behind the edge the two are
    /// mixed, and the colour is laid over at the opacity (the swipe's: the colour mixed in; the copy
    /// machine's: added, a light bar brightest at the edge).
    private static func sweep(copyMachine: Bool) -> FilterDefinition {
        FilterDefinition(
            name: copyMachine ? "CICopyMachineTransition" : "CISwipeTransition", displayName: copyMachine ? "Copy Machine" : "Swipe", categories: transition,
            inputs: [
                .image(), .image(kCIInputTargetImageKey, "Target Image"),
                .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 300, w: 300), type: kCIAttributeTypeRectangle),
                colorInput(kCIInputColorKey, "Color", default: copyMachine ? CIColor(red: 0.6, green: 1, blue: 1) : .white), timeInput,
                .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
                .scalar(kCIInputWidthKey, "Width", default: copyMachine ? 200 : 300, min: 0.1, sliderMin: 0.1, sliderMax: 500, type: kCIAttributeTypeDistance),
                .scalar("inputOpacity", "Opacity", default: copyMachine ? 1.3 : 0, min: 0, sliderMin: 0, sliderMax: copyMachine ? 3 : 1),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
            let time = time(inputs), angle = inputs.number(kCIInputAngleKey) ?? 0
            let width = max(0.1, inputs.number(kCIInputWidthKey) ?? (copyMachine ? 200 : 300))
            let opacity = max(0, inputs.number("inputOpacity") ?? (copyMachine ? 1.3 : 0))
            let colour = premultiplied(inputs.color(kCIInputColorKey) ?? (copyMachine ? CIColor(red: 0.6, green: 1, blue: 1) : .white))
            let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 300, height: 300)
            guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return .empty() }
            let (low, high) = span(of: rect, angle: angle)
            // The edge runs from the extent's near side at 0 to a width beyond its far side at 1.
            let edge = low + time * (high - low + width)
            let (from, to) = (image.recipe, target.recipe)
            return image.derived(
                .computed(
                    Computation(extent: from.extent.union(to.extent)) { context in
                        let u = try along(context, angle: angle)
                        // 0 at the band's back (the target), 1 at the edge and beyond (the image).
                        let f = try clamp(try (u - (edge - width)) / width, 0, 1)
                        let mixed = try interpolate(try context.pixels(to), try context.pixels(from), f)
                        let inBand = try (try u > (edge - width)) * (try u < edge)
                        let colourImage = try context.constant(colour)
                        if copyMachine {
                            // A light bar: the colour added, strongest at the edge.
                            return try clamp(try mixed + colourImage * (inBand * f * (opacity / 3)), 0, 255)
                        }
                        return try interpolate(mixed, colourImage, try inBand * min(opacity, 1))
                    }))
        }
    }

    static let barsSwipe = FilterDefinition(
        name: "CIBarsSwipeTransition", displayName: "Bars Swipe", categories: transition,
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"),
            .scalar(kCIInputAngleKey, "Angle", default: 3.14159, sliderMin: 0, sliderMax: 2 * Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputWidthKey, "Width", default: 30, min: 2, sliderMin: 2, sliderMax: 300, type: kCIAttributeTypeDistance),
            .scalar("inputBarOffset", "Bar Offset", default: 10, min: 1, sliderMin: 1, sliderMax: 100), timeInput,
        ]
    ) { inputs in
        // Bars of the width, along the angle's direction, each sweeping the target in along that
        // direction; every other bar a bar offset behind its neighbours. At 0 the image, at 1 the target.
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
        let time = time(inputs), angle = inputs.number(kCIInputAngleKey) ?? 3.14159
        let width = max(2, inputs.number(kCIInputWidthKey) ?? 30), offset = max(1, inputs.number("inputBarOffset") ?? 10)
        let (from, to) = (image.recipe, target.recipe)
        let extent = from.extent.union(to.extent)
        guard !extent.isInfinite, !extent.isNull else { return image.derived(.mix(from, to, a: 1 - time, b: time)) }
        let (low, high) = span(of: extent, angle: angle)
        return image.derived(
            .computed(
                Computation(extent: extent) { context in
                    let u = try along(context, angle: angle)
                    // Across the bars: which bar, and whether it is an odd one (held back by the offset).
                    let v = try context.coordinates().weighed([[-sin(angle), cos(angle)]]) / width
                    let odd = try (v - 2 * floor(try v / 2)) > 1
                    let edge = try low + time * (high - low + offset) - odd * offset
                    return try choose(try u < edge, try context.pixels(to), try context.pixels(from))
                }))
    }

    static let disintegrateWithMask = FilterDefinition(
        name: "CIDisintegrateWithMaskTransition", displayName: "Disintegrate with Mask", categories: transition,
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"), .image(kCIInputMaskImageKey, "Mask Image"), timeInput,
            .scalar("inputShadowRadius", "Shadow Radius", default: 8, min: 0, sliderMin: 0, sliderMax: 50, type: kCIAttributeTypeDistance),
            .scalar("inputShadowDensity", "Shadow Density", default: 0.65, min: 0, max: 1, sliderMin: 0, sliderMax: 1),
            .vector("inputShadowOffset", "Shadow Offset", default: CIVector(x: 0, y: -10), type: kCIAttributeTypeOffset),
        ]
    ) { inputs in
        // Each pixel changes to the target once the time is past the mask's luma there: dark parts
        // of the mask first, light ones last. Beside the pixels still to change, a soft shadow of
        // them (blurred by the radius, moved by the offset, darkening by the density) falls on the target.
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey),
            let mask = inputs.image(kCIInputMaskImageKey)
        else { return nil }
        let time = time(inputs)
        if time >= 1 { return target }
        let radius = max(0, inputs.number("inputShadowRadius") ?? 8), density = min(1, max(0, inputs.number("inputShadowDensity") ?? 0.65))
        let offset = inputs.vector("inputShadowOffset").map { CGPoint(x: $0.x, y: $0.y) } ?? CGPoint(x: 0, y: -10)
        let (from, to, weights) = (image.recipe, target.recipe, mask.recipe)
        // The share of each pixel still to change, as a mask image (its alpha), then its shadow.
        let remaining: Recipe = .computed(
            Computation(extent: weights.extent) { context in
                let luma = try ComputedBlend.luminosity(try context.pixels(weights).bands(0, 3)) / 255
                let still = try (1 - (try luma < time)) * 255
                return try Pixels.joined([still, still, still, still])
            })
        let moved: Recipe = .transform(remaining, CGAffineTransform(translationX: offset.x.isFinite ? offset.x : 0, y: offset.y.isFinite ? offset.y : 0))
        let shadow: Recipe = radius > 0 ? .blur(moved, sigma: radius / 2) : moved
        return image.derived(
            .computed(
                Computation(extent: from.extent.union(to.extent)) { context in
                    let still = try context.pixels(remaining).bands(3)
                    let darkness = try context.pixels(shadow).bands(3) * (density / 255)
                    let after = try context.pixels(to)
                    let shaded = try Pixels.joined([try after.bands(0, 3) * (1 - darkness), try after.bands(3)])
                    return try choose(still, try context.pixels(from), shaded)
                }))
    }
}
