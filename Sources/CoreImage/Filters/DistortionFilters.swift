import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The distortions about a centre: each output pixel shows the image at a point moved along
    /// its radius or turned about the centre, within a radius.
    static let distortionFilters: [FilterDefinition] = Distortion.allCases.map(distortion)

    /// A distortion about a centre.
    enum Distortion: CaseIterable {
        case twirl, vortex, pinch, bump, hole, circleSplash

        var name: String {
            switch self {
            case .twirl: return "CITwirlDistortion"
            case .vortex: return "CIVortexDistortion"
            case .pinch: return "CIPinchDistortion"
            case .bump: return "CIBumpDistortion"
            case .hole: return "CIHoleDistortion"
            case .circleSplash: return "CICircleSplashDistortion"
            }
        }

        var displayName: String {
            switch self {
            case .twirl: return "Twirl Distortion"
            case .vortex: return "Vortex Distortion"
            case .pinch: return "Pinch Distortion"
            case .bump: return "Bump Distortion"
            case .hole: return "Hole Distortion"
            case .circleSplash: return "Circle Splash Distortion"
            }
        }

        var defaultRadius: Double { self == .hole || self == .circleSplash ? 150 : 300 }

        /// The input besides the centre and radius: an angle or a scale, with its default and range.
        var amount: Input? {
            switch self {
            case .twirl:
                return .scalar(kCIInputAngleKey, "Angle", default: Double.pi, sliderMin: -4 * Double.pi, sliderMax: 4 * Double.pi, type: kCIAttributeTypeAngle)
            case .vortex: return .scalar(kCIInputAngleKey, "Angle", default: 56.55, sliderMin: -94.25, sliderMax: 94.25, type: kCIAttributeTypeAngle)
            case .pinch: return .scalar(kCIInputScaleKey, "Scale", default: 0.5, min: 0, max: 2, sliderMin: 0, sliderMax: 2)
            case .bump: return .scalar(kCIInputScaleKey, "Scale", default: 0.5, sliderMin: -1, sliderMax: 1)
            case .hole, .circleSplash: return nil
            }
        }
    }

    /// A distortion: the output at P shows the image at C + f (P - C), or at P - C turned by an
    /// angle, where d = |P - C| and t = d / radius:
    /// - twirl: turned by angle (1 - t) inside the radius;
    /// - vortex: turned by angle (1 - t)^2 inside the radius;
    /// - pinch: f = 1 + scale (1 - t)^2 inside (the middle drawn in);
    /// - bump: f = 1 - scale (1 - t)^2 inside (the middle swollen);
    /// - hole: f = sqrt(d^2 - radius^2) / d outside, transparent inside (the image pushed out of a hole);
    /// - circle splash: f = radius / d outside (the circle's edge drawn out to infinity), the image inside.
    private static func distortion(_ kind: Distortion) -> FilterDefinition {
        var inputs: [Input] = [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputRadiusKey, "Radius", default: kind.defaultRadius, min: 0, sliderMin: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
        ]
        if let amount = kind.amount { inputs.append(amount) }
        return FilterDefinition(
            name: kind.name, displayName: kind.displayName,
            categories: [kCICategoryDistortionEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: inputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
            let radius = max(0, inputs.number(kCIInputRadiusKey) ?? kind.defaultRadius)
            let amount = kind.amount.flatMap { inputs.number($0.key) ?? ($0.defaultValue as? NSNumber)?.doubleValue } ?? 0
            guard radius > 0 else { return image }
            let recipe = image.recipe
            let circle = CGRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius)
            let extent = kind == .circleSplash && !recipe.extent.isNull ? CGRect.infinite : recipe.extent
            return image.derived(
                .computed(
                    Computation(extent: extent) { context in
                        let region = context.region
                        // Outside the circle's box, only the hole and the splash move anything.
                        if kind != .hole, kind != .circleSplash, !region.rect.intersects(circle) { return try context.pixels(recipe) }
                        // Every point sampled lies in the region, in the circle's box, or between the centre and the region.
                        let reach = region.rect.union(circle).union(CGRect(origin: centre, size: .zero))
                        let source = PixelRegion(covering: reach).intersection(recipe.extent)
                        guard !source.isEmpty, source.isRenderable else { return try context.constant([0, 0, 0, 0]) }
                        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                        let d = try sqrt(try (offset * offset).weighed([[1, 1]]))
                        let t = try d / radius
                        let inside = try clamp(try 1 - t, 0, 1)
                        var moved: Pixels
                        var mask: Pixels?
                        switch kind {
                        case .twirl, .vortex:
                            let theta = kind == .twirl ? try inside * amount : try inside * inside * amount
                            let (c, s) = (try cos(theta), try sin(theta))
                            let (x, y) = (try offset.bands(0), try offset.bands(1))
                            moved = try Pixels.joined([try x * c - y * s, try x * s + y * c])
                        case .pinch: moved = try offset * (try inside * inside * amount + 1)
                        case .bump: moved = try offset * (1 - (try inside * inside * amount))
                        case .hole:
                            let outsideDistance = try sqrt(try max(try d * d - radius * radius, try d * 0))
                            moved = try offset * (outsideDistance / d)
                            mask = try d > radius
                        case .circleSplash:
                            moved = try offset * (try choose(try d > radius, try radius / max(d, try d * 0 + 1e-6), try d * 0 + 1))
                        }
                        // Into the source's pixels: its first pixel's centre at 0, 0, rows downwards.
                        let index = try moved.scaled(
                            [1, -1], plus: [Double(centre.x) - Double(source.x) - 0.5, Double(source.maxY) - Double(centre.y) - 0.5])
                        var sampled = try context.pixels(recipe, in: source).sampled(at: index)
                        if let mask { sampled = try sampled * mask }
                        return sampled
                    }))
        }
    }
}
