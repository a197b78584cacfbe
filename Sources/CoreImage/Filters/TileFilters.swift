import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The tiles and the kaleidoscope: the image near a centre repeated over the plane by a
    /// lattice's translations, reflections and rotations, each output pixel sampled from the
    /// base cell its point folds back into.
    static let latticeTileFilters: [FilterDefinition] = Lattice.allCases.map(latticeTile) + [kaleidoscope]

    /// How a lattice tile folds the plane back into its base cell.
    enum Lattice: CaseIterable {
        case fourfoldTranslated, fourfoldReflected, fourfoldRotated, eightfoldReflected, glideReflected, parallelogram

        var name: String {
            switch self {
            case .fourfoldTranslated: return "CIFourfoldTranslatedTile"
            case .fourfoldReflected: return "CIFourfoldReflectedTile"
            case .fourfoldRotated: return "CIFourfoldRotatedTile"
            case .eightfoldReflected: return "CIEightfoldReflectedTile"
            case .glideReflected: return "CIGlideReflectedTile"
            case .parallelogram: return "CIParallelogramTile"
            }
        }

        var displayName: String {
            switch self {
            case .fourfoldTranslated: return "Fourfold Translated Tile"
            case .fourfoldReflected: return "Fourfold Reflected Tile"
            case .fourfoldRotated: return "Fourfold Rotated Tile"
            case .eightfoldReflected: return "Eightfold Reflected Tile"
            case .glideReflected: return "Glide Reflected Tile"
            case .parallelogram: return "Parallelogram Tile"
            }
        }

        /// Whether the lattice takes an acute angle between its sides.
        var hasAcuteAngle: Bool { self == .fourfoldTranslated || self == .fourfoldReflected || self == .parallelogram }
    }

    /// The inputs of a tile about a centre (the hexagonal and triangle tiles): the image, the
    /// centre, the angle and the width, with Apple's defaults.
    static var centredTileInputs: [Input] {
        [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputWidthKey, "Width", default: 100, min: 0, sliderMin: 0, sliderMax: 200, type: kCIAttributeTypeDistance),
        ]
    }

    /// A centred tile's centre, angle and width; nil when they make no tile (a width under a pixel, or not finite).
    static func centredTile(_ inputs: FilterInputs) -> (centre: CGPoint, angle: Double, width: Double)? {
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return nil }
        let angle = inputs.number(kCIInputAngleKey) ?? 0, width = inputs.number(kCIInputWidthKey) ?? 100
        guard width >= 1, width.isFinite, angle.isFinite else { return nil }
        return (centre, angle, width)
    }

    /// The part of an image points of a region can reach, rendered once to be sampled many times.
    struct SampleSource {
        let pixels: Pixels?
        let region: PixelRegion

        init(_ recipe: Recipe, reaching reach: CGRect, _ context: ComputationContext) throws {
            region = PixelRegion(covering: reach.insetBy(dx: -2, dy: -2)).intersection(recipe.extent)
            pixels = region.isEmpty || !region.isRenderable ? nil : try context.pixels(recipe, in: region)
        }

        /// The image at points of the plane (two bands: x and y), bilinearly; transparent beyond what was rendered.
        func sample(at points: Pixels) throws -> Pixels {
            guard let pixels else { return try points.bands(0).scaled([0, 0, 0, 0], plus: [0, 0, 0, 0]) }
            let index = try points.scaled([1, -1], plus: [-Double(region.x) - 0.5, Double(region.maxY) - 0.5])
            return try pixels.sampled(at: index)
        }
    }

    /// The image sampled at points of the plane (two bands: x and y), the part of it they can
    /// reach rendered first; transparent where they fall outside it.
    static func sampled(_ recipe: Recipe, at points: Pixels, reaching reach: CGRect, _ context: ComputationContext) throws -> Pixels {
        try SampleSource(recipe, reaching: reach, context).sample(at: points)
    }

    /// 1 - |(s mod 2) - 1|: 0 to 1 and back, so that every other cell is a mirror image.
    private static func folded(_ s: Pixels) throws -> Pixels { try 1 - abs(try s - 2 * floor(try s / 2) - 1) }

    /// A lattice tile: the plane turned by the angle about the centre, measured in cells of the
    /// width (sides at the acute angle, or square), and each point folded into the base cell whose
    /// corner is the centre: repeated (translated), mirrored in alternate cells (reflected),
    /// turned by quarter turns about the corners of cells (rotated), mirrored again across the
    /// diagonal (eightfold), or mirrored and moved half a cell in alternate rows (glide).
    private static func latticeTile(_ lattice: Lattice) -> FilterDefinition {
        var inputs: [Input] = [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
        ]
        if lattice.hasAcuteAngle {
            inputs.append(.scalar("inputAcuteAngle", "Acute Angle", default: Double.pi / 2, sliderMin: 0, sliderMax: Double.pi, type: kCIAttributeTypeAngle))
        }
        inputs.append(.scalar(kCIInputWidthKey, "Width", default: 100, min: 0, sliderMin: 0, sliderMax: 200, type: kCIAttributeTypeDistance))
        return FilterDefinition(
            name: lattice.name, displayName: lattice.displayName,
            categories: [kCICategoryTileEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: inputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
            let angle = inputs.number(kCIInputAngleKey) ?? 0, width = inputs.number(kCIInputWidthKey) ?? 100
            let acute = lattice.hasAcuteAngle ? inputs.number("inputAcuteAngle") ?? Double.pi / 2 : Double.pi / 2
            guard width >= 1, sin(acute).magnitude > 0.01 else { return .empty() }
            let (c, s) = (cos(angle), sin(angle))
            // The base cell's sides in the plane: e1 along the angle, e2 at the acute angle to it.
            let e1 = (width * c, width * s), e2 = (width * cos(angle + acute), width * sin(angle + acute))
            let corners = [(0.0, 0.0), e1, e2, (e1.0 + e2.0, e1.1 + e2.1)].map { CGPoint(x: centre.x + $0.0, y: centre.y + $0.1) }
            let cell = CGRect(
                x: corners.map(\.x).min()!, y: corners.map(\.y).min()!, width: corners.map(\.x).max()! - corners.map(\.x).min()!,
                height: corners.map(\.y).max()! - corners.map(\.y).min()!)
            let recipe = image.recipe
            // Cell coordinates (s, t) of a plane offset (x, y): the inverse of [e1 e2].
            let determinant = e1.0 * e2.1 - e2.0 * e1.1
            let inverse = [[e2.1 / determinant, -e2.0 / determinant], [-e1.1 / determinant, e1.0 / determinant]]
            return image.derived(
                .computed(
                    Computation(extent: .infinite) { context in
                        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                        let st = try offset.weighed(inverse)
                        var (u, v) = (try st.bands(0), try st.bands(1))
                        switch lattice {
                        case .fourfoldTranslated:
                            (u, v) = (try u - floor(u), try v - floor(v))
                        case .fourfoldReflected, .parallelogram:
                            (u, v) = (try folded(u), try folded(v))
                        case .eightfoldReflected:
                            (u, v) = (try folded(u), try folded(v))
                            // Mirrored across the diagonal: the triangle below it.
                            (u, v) = (try max(u, v), try min(u, v))
                        case .glideReflected:
                            let odd = try (v - 2 * floor(try v / 2)) > 1
                            let shifted = try u + odd * 0.5
                            let across = try shifted - floor(shifted)
                            (u, v) = (try choose(odd, try 1 - across, across), try v - floor(v))
                        case .fourfoldRotated:
                            // Within each 2 x 2 block, the quadrant turned onto the first about the block's middle.
                            let (a, b) = (try u - 2 * floor(try u / 2) - 1, try v - 2 * floor(try v / 2) - 1)
                            let (left, below) = (try a < 0, try b < 0)
                            let firstU = try choose(left, try choose(below, try a * -1, b), try choose(below, try b * -1, a))
                            let firstV = try choose(left, try choose(below, try b * -1, try a * -1), try choose(below, a, b))
                            (u, v) = (firstU, firstV)
                        }
                        // Back into the plane: C + u e1 + v e2.
                        let points = try Pixels.joined([u, v]).weighed([[e1.0, e2.0], [e1.1, e2.1]]).scaled([1], plus: [Double(centre.x), Double(centre.y)])
                        return try sampled(recipe, at: points, reaching: cell, context)
                    }))
        }
    }

    static let kaleidoscope = FilterDefinition(
        name: "CIKaleidoscope", displayName: "Kaleidoscope", categories: [kCICategoryTileEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .scalar("inputCount", "Count", default: 6, min: 1, sliderMin: 1, sliderMax: 64, type: kCIAttributeTypeCount),
            pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
        ]
    ) { inputs in
        // The wedge of the image from the angle through 2π / (2 count) about the centre, mirrored
        // into the next wedge and the pair repeated count times around: each point keeps its
        // distance from the centre, its direction folded into the first wedge.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let count = max(1, (inputs.number("inputCount") ?? 6).rounded()), angle = inputs.number(kCIInputAngleKey) ?? 0
        let wedge = Double.pi / count
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: .infinite) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    let distance = try sqrt(try (offset * offset).weighed([[1, 1]]))
                    // The direction from the angle, in wedges: folded 0 to 1 and back.
                    let turns = try (atan2(try offset.bands(1), try offset.bands(0)) - angle) / wedge
                    let direction = try folded(turns) * wedge + angle
                    let points = try Pixels.joined([try distance * cos(direction), try distance * sin(direction)]).scaled(
                        [1], plus: [Double(centre.x), Double(centre.y)])
                    // Every point sampled is as far from the centre as the region's farthest corner.
                    let far = [
                        (context.region.x, context.region.y), (context.region.maxX, context.region.y), (context.region.x, context.region.maxY),
                        (context.region.maxX, context.region.maxY),
                    ].map { hypot(Double($0.0) - Double(centre.x), Double($0.1) - Double(centre.y)) }.max()!
                    let reach = CGRect(x: Double(centre.x) - far, y: Double(centre.y) - far, width: 2 * far, height: 2 * far)
                    return try sampled(recipe, at: points, reaching: reach, context)
                }))
    }
}
