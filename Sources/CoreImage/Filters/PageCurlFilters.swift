import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The page curls: the image lifted off the target around a cylinder rolling across it, its
    /// back showing the backside image, with or without a shadow on the target.
    static let pageCurlFilters: [FilterDefinition] = [pageCurl(shadowed: false), pageCurl(shadowed: true)]

    private static let curling = [kCICategoryTransition, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// 1 where a point (two bands) lies within a rectangle, else 0.
    private static func within(_ points: Pixels, _ rect: CGRect) throws -> Pixels {
        let (x, y) = (try points.bands(0), try points.bands(1))
        return try (try x > Double(rect.minX)) * (try x < Double(rect.maxX)) * (try y > Double(rect.minY)) * (try y < Double(rect.maxY))
    }

    /// CIPageCurlTransition, or CIPageCurlWithShadowTransition (`shadowed`).
    ///
    /// The page (the image) is rolled up around a cylinder of the radius whose axis lies across
    /// the angle's direction d, the fold line at L along d. A point of the page a distance q
    /// beyond the fold lies on the cylinder at the angle θ = q / radius (at L + radius sin θ along
    /// d, showing its face up to a quarter turn, its back after), and beyond half a turn lies flat
    /// on top again, back up, at L - (q - π radius). Looking down at a point s past the fold: past
    /// the cylinder (s > radius), the target; over it, the back at θ = π - asin(s / radius) if the
    /// page reaches so far, else the face at asin(s / radius); before it, the back lying on top if
    /// the page reaches, else the page itself. The fold moves from a radius beyond the extent's far
    /// side at time 0 to where the whole page has rolled off it at 1. The back shows the backside
    /// image (the image when there is none), two thirds lit lying flat and fully at the cylinder's top; the shading
    /// image's brightness along its middle row, at θ / π, lights the cylinder. With the shadow,
    /// the target darkens by the shadow amount ahead of the cylinder, fading over twice the shadow
    /// size times the radius, within the shadow extent (everywhere when it is empty).
    private static func pageCurl(shadowed: Bool) -> FilterDefinition {
        var inputs: [Input] = [
            .image(), .image(kCIInputTargetImageKey, "Target Image"), .image("inputBacksideImage", "Backside Image"),
        ]
        if !shadowed { inputs.append(.image("inputShadingImage", "Shading Image")) }
        inputs += [
            .vector(
                kCIInputExtentKey, "Extent", default: shadowed ? CIVector(x: 0, y: 0, z: 0, w: 0) : CIVector(x: 0, y: 0, z: 300, w: 300),
                type: kCIAttributeTypeRectangle),
            .scalar(kCIInputTimeKey, "Time", default: 0, min: 0, max: 1, sliderMin: 0, sliderMax: 1, type: kCIAttributeTypeTime),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputRadiusKey, "Radius", default: 100, min: 0.01, sliderMin: 0.01, sliderMax: 400, type: kCIAttributeTypeDistance),
        ]
        if shadowed {
            inputs += [
                .scalar("inputShadowSize", "Shadow Size", default: 0.5, min: 0, max: 1, sliderMin: 0, sliderMax: 1, type: kCIAttributeTypeDistance),
                .scalar("inputShadowAmount", "Shadow Amount", default: 0.7, min: 0, max: 1, sliderMin: 0, sliderMax: 1, type: kCIAttributeTypeDistance),
                .vector("inputShadowExtent", "Shadow Extent", default: CIVector(x: 0, y: 0, z: 0, w: 0), type: kCIAttributeTypeRectangle),
            ]
        }
        return FilterDefinition(
            name: shadowed ? "CIPageCurlWithShadowTransition" : "CIPageCurlTransition",
            displayName: shadowed ? "Page Curl With Shadow" : "Page Curl", categories: curling, inputs: inputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
            let backside = inputs.image("inputBacksideImage") ?? image
            let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0)), angle = inputs.number(kCIInputAngleKey) ?? 0
            let radius = max(0.01, inputs.number(kCIInputRadiusKey) ?? 100)
            var page = (inputs.vector(kCIInputExtentKey)?.cgRectValue ?? (shadowed ? .zero : CGRect(x: 0, y: 0, width: 300, height: 300))).standardized
            // An empty extent (the shadowed form's default) is the image's own.
            if page.width <= 0 || page.height <= 0 { page = image.extent }
            guard angle.isFinite, radius.isFinite, radius <= 100_000, !page.isInfinite, !page.isNull, page.minX.isFinite, page.minY.isFinite,
                page.width.isFinite, page.height.isFinite
            else { return .empty() }
            let shadowSize = min(1, max(0, inputs.number("inputShadowSize") ?? 0.5)), shadowAmount = min(1, max(0, inputs.number("inputShadowAmount") ?? 0.7))
            let shadowRect = (inputs.vector("inputShadowExtent")?.cgRectValue ?? .zero).standardized
            let (from, to, back) = (image.recipe, target.recipe, backside.recipe)
            let shading = shadowed ? nil : inputs.image("inputShadingImage")?.recipe
            let (dx, dy) = (cos(angle), sin(angle))
            let spans = [(page.minX, page.minY), (page.maxX, page.minY), (page.minX, page.maxY), (page.maxX, page.maxY)].map {
                Double($0.0) * dx + Double($0.1) * dy
            }
            let (low, high) = (spans.min()!, spans.max()!)
            let fold = (high + radius) - time * (high - low + 2 * radius + Double.pi * radius)
            let extent = page.union(to.extent.isInfinite ? page : to.extent)
            return image.derived(
                .computed(
                    Computation(extent: extent) { context in
                        let points = try context.coordinates()
                        let s = try points.weighed([[dx, dy]]) - fold
                        /// The page point q past the fold behind each output point: p + (q - s) d.
                        func pagePoint(_ q: Pixels) throws -> Pixels {
                            let shift = try q - s
                            return try points + (try Pixels.joined([try shift * dx, try shift * dy]))
                        }
                        let reach = page.insetBy(dx: -2, dy: -2)
                        // Over the cylinder: the two layers' angles.
                        let ratio = try clamp(try s / radius, 0, 1)
                        let lower = try atan2(ratio, try sqrt(try 1 - ratio * ratio))
                        let upper = try (try lower * -1) + Double.pi
                        let before = try s < 0
                        // The back on top: over the cylinder at the upper angle, before it flat at π radius - s.
                        let backQ = try choose(before, try (try s * -1) + Double.pi * radius, try upper * radius)
                        let backPoint = try pagePoint(backQ)
                        let backThere = try within(backPoint, page) * (1 - (try s > radius))
                        let frontPoint = try pagePoint(try lower * radius)
                        let frontThere = try within(frontPoint, page) * (1 - before) * (1 - (try s > radius))
                        // The back is in the page's own shade: two thirds of its light lying flat, all of it at the cylinder's top.
                        let backLight = try choose(before, try context.constant([2.0 / 3]), try sin(upper) * (1.0 / 3) + (2.0 / 3))
                        var backColour = try sampled(back, at: backPoint, reaching: reach.intersection(back.extent.insetBy(dx: -2, dy: -2)), context)
                        backColour = try Pixels.joined([try backColour.bands(0, 3) * backLight, try backColour.bands(3)])
                        var frontColour = try sampled(from, at: frontPoint, reaching: reach, context)
                        if let shading, !shading.extent.isInfinite, !shading.extent.isNull, shading.extent.width >= 1 {
                            // The shading image's brightness along its middle row at θ / π, added as light.
                            let box = shading.extent
                            func lit(_ colour: Pixels, _ theta: Pixels) throws -> Pixels {
                                let along = try Pixels.joined([
                                    try (theta / Double.pi).scaled([Double(box.width) - 1], plus: [Double(box.minX) + 0.5]), try theta * 0 + Double(box.midY),
                                ])
                                let highlight = try sampled(shading, at: along, reaching: box, context)
                                let luma = try ComputedBlend.luminosity(try highlight.bands(0, 3)) / 255
                                return try clamp(try colour + (try Pixels.joined([luma, luma, luma, try luma * 0])) * (try colour.bands(3)), 0, 255)
                            }
                            frontColour = try lit(frontColour, lower)
                            backColour = try choose(before, backColour, try lit(backColour, upper))
                        }
                        var below = try context.pixels(to)
                        if shadowed, shadowAmount > 0 {
                            let length = max(1e-6, 2 * shadowSize * radius)
                            let fade = try clamp(try (s - radius) / length, 0, 1)
                            var darkness = try (try fade * -1 + 1) * shadowAmount * (try s > radius)
                            if shadowRect.width > 0, shadowRect.height > 0 { darkness = try darkness * within(points, shadowRect) }
                            below = try Pixels.joined([try below.bands(0, 3) * (try darkness * -1 + 1), try below.bands(3)])
                        }
                        // Before the fold with nothing on top, the page itself; past the cylinder, the target.
                        let unrolled = try choose(try before * within(points, page), try context.pixels(from), below)
                        return try choose(backThere, backColour, try choose(frontThere, frontColour, unrolled))
                    }))
        }
    }
}
