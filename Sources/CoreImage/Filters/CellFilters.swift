import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Cells of one colour: hexagons, and the polygons of a jittered grid of sites.
    static let cellFilters: [FilterDefinition] = [hexagonalPixellate, crystallize(dots: false), crystallize(dots: true)]

    private static let stylizing = [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// Each value rounded to the nearest whole number.
    private static func rounded(_ value: Pixels) throws -> Pixels { try floor(try value + 0.5) }

    static let hexagonalPixellate = FilterDefinition(
        name: "CIHexagonalPixellate", displayName: "Hexagonal Pixelate", categories: stylizing,
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputScaleKey, "Scale", default: 8, min: 1, sliderMin: 1, sliderMax: 100, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Hexagons `scale` pixels from side to side, one centred on the centre, each filled with
        // the mean colour around its middle (a Gaussian blur of a third of the scale, read there).
        // The hexagons' middles are the points of two rectangular grids, (s, s sqrt 3) apart and
        // the second moved by half of that: each pixel takes the nearer of its nearest point in each.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let scale = min(10_000, max(1, inputs.number(kCIInputScaleKey) ?? 8))
        let recipe = image.recipe
        // Read from the image carried on beyond its edges, so that hexagons at the edges are filled too.
        let blurred: Recipe = .blur(.clamp(recipe), sigma: scale / 3)
        let (w, h) = (scale, scale * 3.0.squareRoot())
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let (x, y) = (try offset.bands(0), try offset.bands(1))
                    let ax = try rounded(try x / w) * w, ay = try rounded(try y / h) * h
                    let bx = try rounded(try (x - w / 2) / w) * w + w / 2, by = try rounded(try (y - h / 2) / h) * h + h / 2
                    let da = try (x - ax) * (x - ax) + (y - ay) * (y - ay), db = try (x - bx) * (x - bx) + (y - by) * (y - by)
                    let nearerA = try da < db
                    let middles = try Pixels.joined([try choose(nearerA, ax, bx), try choose(nearerA, ay, by)]).scaled(
                        [1], plus: [Double(centre.x), Double(centre.y)])
                    let reach = context.region.rect.insetBy(dx: -CGFloat(h), dy: -CGFloat(h))
                    return try sampled(blurred, at: middles, reaching: reach, context)
                }))
    }

    /// CICrystallize, or CIPointillize (`dots`): one site in each square of the radius's side (a
    /// grid through the centre; twice the radius for dots), placed at a point of the square
    /// hashed from its place; each pixel takes the colour of the image at its nearest site (the
    /// nine squares around it hold every site that can be nearest). Dots are discs of the radius
    /// about their sites, on white where no disc reaches.
    static func crystallize(dots: Bool) -> FilterDefinition {
        FilterDefinition(
            name: dots ? "CIPointillize" : "CICrystallize", displayName: dots ? "Pointillize" : "Crystallize", categories: stylizing,
            inputs: [
                .image(), .scalar(kCIInputRadiusKey, "Radius", default: 20, min: 1, sliderMin: 1, sliderMax: 100, type: kCIAttributeTypeDistance),
                pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
            let radius = min(10_000, max(1, inputs.number(kCIInputRadiusKey) ?? 20))
            let side = dots ? 2 * radius : radius
            let recipe = image.recipe
            return image.derived(
                .computed(
                    Computation(extent: recipe.extent) { context in
                        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                        let cell = try floor(try offset / side)
                        var best: (distance: Pixels, site: Pixels)?
                        for dy in -1...1 {
                            for dx in -1...1 {
                                let neighbour = try cell.scaled([1], plus: [Double(dx), Double(dy)])
                                // A point of the square from a hash of its column and row.
                                let hash = try sin(try neighbour.weighed([[12.9898, 78.233], [39.3467, 11.135]])) * 43758.5453
                                let jitter = try (hash - floor(hash)) * 0.8 + 0.1
                                let site = try (neighbour + jitter) * side
                                let difference = try offset - site
                                let distance = try (difference * difference).weighed([[1, 1]])
                                if let current = best {
                                    let nearer = try distance < current.distance
                                    best = (try choose(nearer, distance, current.distance), try choose(nearer, site, current.site))
                                } else {
                                    best = (distance, site)
                                }
                            }
                        }
                        let sites = try best!.site.scaled([1], plus: [Double(centre.x), Double(centre.y)])
                        let reach = context.region.rect.insetBy(dx: -CGFloat(2 * side), dy: -CGFloat(2 * side))
                        // Sites beyond the edges take the edge's colour.
                        let colours = try sampled(recipe.extent.isInfinite ? recipe : .clamp(recipe), at: sites, reaching: reach, context)
                        guard dots else { return colours }
                        return try choose(try best!.distance < radius * radius, colours, try context.constant([255, 255, 255, 255]))
                    }))
        }
    }
}
