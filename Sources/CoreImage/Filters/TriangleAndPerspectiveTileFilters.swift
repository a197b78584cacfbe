import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The tiles by triangles, by op-art squares and in perspective: the plane folded into a
    /// triangle mirrored across its edges, cut into squares each showing the image about its own
    /// middle, or the image repeated and seen in perspective.
    static let triangleAndPerspectiveTileFilters: [FilterDefinition] = [triangleTile, triangleKaleidoscope, opTile, perspectiveTile]

    private static let tiling = [kCICategoryTileEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// The point of an equilateral triangle each point of the plane folds into when the triangle
    /// is mirrored across its edges to fill the plane: the triangle has a corner at `corner`, its
    /// sides `side` long, its first side along `angle`.
    ///
    /// In the lattice of the triangle's sides (e1 along the angle, e2 at 60° to it), a point
    /// (i + s, j + t) lies in the triangle of corners (i, j), (i + 1, j), (i, j + 1) when s + t < 1,
    /// else in (i + 1, j + 1), (i + 1, j), (i, j + 1), with barycentric weights (1 - s - t, s, t) or
    /// (s + t - 1, 1 - t, 1 - s). The lattice's corners take three colours, (i - j) mod 3, that
    /// mirroring keeps: each weight goes to the base triangle's corner of its corner's colour.
    static func foldedIntoTriangle(_ points: Pixels, corner: CGPoint, side: Double, angle: Double) throws -> Pixels {
        let e1 = (side * cos(angle), side * sin(angle)), e2 = (side * cos(angle + Double.pi / 3), side * sin(angle + Double.pi / 3))
        let determinant = e1.0 * e2.1 - e2.0 * e1.1
        let inverse = [[e2.1 / determinant, -e2.0 / determinant], [-e1.1 / determinant, e1.0 / determinant]]
        let st = try points.scaled([1], plus: [-Double(corner.x), -Double(corner.y)]).weighed(inverse)
        let (u, v) = (try st.bands(0), try st.bands(1))
        let (i, j) = (try floor(u), try floor(v))
        let (s, t) = (try u - i, try v - j)
        let upper = try (try s + t) > 1
        // The weights of the triangle's corners of colours c0, c0 + 1 and c0 + 2.
        let w0 = try choose(upper, try s + t - 1, try 1 - s - t)
        let w1 = try choose(upper, try 1 - t, s)
        let w2 = try choose(upper, try 1 - s, t)
        let difference = try i - j
        let c0 = try difference - floor(try difference / 3) * 3
        // Each weight to its colour's corner of the base triangle: colour 0 at 0, 1 at e1, 2 at e2.
        let (isZero, isOne) = (try c0 < 0.5, try (try c0 < 1.5) * (try c0 > 0.5))
        let weightOf1 = try choose(isZero, w1, try choose(isOne, w0, w2))
        let weightOf2 = try choose(isZero, w2, try choose(isOne, w1, w0))
        return try Pixels.joined([weightOf1, weightOf2]).weighed([[e1.0, e2.0], [e1.1, e2.1]]).scaled([1], plus: [Double(corner.x), Double(corner.y)])
    }

    /// The bounding box of the triangle `foldedIntoTriangle` folds into.
    private static func triangleBox(corner: CGPoint, side: Double, angle: Double) -> CGRect {
        let corners = [(0.0, 0.0), (side * cos(angle), side * sin(angle)), (side * cos(angle + Double.pi / 3), side * sin(angle + Double.pi / 3))]
        let xs = corners.map { Double(corner.x) + $0.0 }, ys = corners.map { Double(corner.y) + $0.1 }
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    static let triangleTile = FilterDefinition(
        name: "CITriangleTile", displayName: "Triangle Tile", categories: tiling,
        inputs: centredTileInputs
    ) { inputs in
        // The equilateral triangle of the width with a corner at the centre and a side along the
        // angle, mirrored across its edges over the whole plane.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let (centre, angle, width) = centredTile(inputs) else { return .empty() }
        let recipe = image.recipe
        let box = triangleBox(corner: centre, side: width, angle: angle)
        return image.derived(
            .computed(
                Computation(extent: .infinite) { context in
                    let folded = try foldedIntoTriangle(try context.coordinates(), corner: centre, side: width, angle: angle)
                    return try sampled(recipe, at: folded, reaching: box, context)
                }))
    }

    static let triangleKaleidoscope = FilterDefinition(
        name: "CITriangleKaleidoscope", displayName: "Triangle Kaleidoscope", categories: tiling,
        inputs: [
            .image(), pointInput("inputPoint", "Point", default: CGPoint(x: 150, y: 150)),
            .scalar("inputSize", "Size", default: 700, sliderMin: 0, sliderMax: 1000),
            .scalar("inputRotation", "Rotation", default: 5.924285296593801, sliderMin: -Double.pi, sliderMax: 2 * Double.pi, type: kCIAttributeTypeAngle),
            .scalar("inputDecay", "Decay", default: 0.85, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // The triangle of the size with a corner at the point, its first side along the rotation,
        // mirrored across its edges as a kaleidoscope's mirrors do; each reflection fainter by the
        // decay: the colour times decay^(distance from the triangle's middle / the size).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let corner = point(inputs, "inputPoint", CGPoint(x: 150, y: 150)) else { return .empty() }
        let size = inputs.number("inputSize") ?? 700, rotation = inputs.number("inputRotation") ?? 5.924285296593801
        let decay = min(1, max(0, inputs.number("inputDecay") ?? 0.85))
        guard size >= 1, size.isFinite, rotation.isFinite else { return .empty() }
        let recipe = image.recipe
        let box = triangleBox(corner: corner, side: size, angle: rotation)
        // The triangle's middle: a third of the way along the sum of its sides from the corner.
        let middle = (
            Double(corner.x) + size * (cos(rotation) + cos(rotation + Double.pi / 3)) / 3,
            Double(corner.y) + size * (sin(rotation) + sin(rotation + Double.pi / 3)) / 3
        )
        return image.derived(
            .computed(
                Computation(extent: .infinite) { context in
                    let points = try context.coordinates()
                    let folded = try foldedIntoTriangle(points, corner: corner, side: size, angle: rotation)
                    let colours = try sampled(recipe, at: folded, reaching: box, context)
                    guard decay < 1 else { return colours }
                    let offset = try points.scaled([1], plus: [-middle.0, -middle.1])
                    let distance = try sqrt(try (offset * offset).weighed([[1, 1]])) / size
                    // decay^d = exp(d log decay); no light at all when the decay is 0.
                    let fade = decay > 0 ? try exp(try distance * Foundation.log(decay)) : try distance < 0.5
                    return try colours * fade
                }))
    }

    static let opTile = FilterDefinition(
        name: "CIOpTile", displayName: "Op Tile", categories: tiling,
        inputs: [
            .image(), pointInput(kCIInputCenterKey, "Center", default: CGPoint(x: 150, y: 150)),
            .scalar(kCIInputScaleKey, "Scale", default: 2.8, min: 0, sliderMin: 0.1, sliderMax: 10),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -2 * Double.pi, sliderMax: 2 * Double.pi, type: kCIAttributeTypeAngle),
            .scalar(kCIInputWidthKey, "Width", default: 65, min: 0, sliderMin: 0, sliderMax: 1000, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Squares of the width, turned by the angle about the centre (one has its middle there),
        // each showing the image about the square's own middle M, shrunk by the scale: a pixel P
        // takes the image at M + (P - M) × scale.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let centre = point(inputs, kCIInputCenterKey, CGPoint(x: 150, y: 150)) else { return .empty() }
        let scale = max(0, inputs.number(kCIInputScaleKey) ?? 2.8), angle = inputs.number(kCIInputAngleKey) ?? 0
        let width = inputs.number(kCIInputWidthKey) ?? 65
        guard width >= 1, width.isFinite, angle.isFinite, scale.isFinite, scale <= 1000 else { return .empty() }
        let recipe = image.recipe
        let (c, s) = (cos(angle), sin(angle))
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                    // Into the squares' frame (turned back by the angle), in widths.
                    let local = try offset.weighed([[c / width, s / width], [-s / width, c / width]])
                    let middle = try floor(try local + 0.5)
                    let taken = try (try (local - middle) * scale + middle).weighed([[c * width, -s * width], [s * width, c * width]]).scaled(
                        [1], plus: [Double(centre.x), Double(centre.y)])
                    // Every point read lies within the scaled half square of a middle in or near the region.
                    let reach = context.region.rect.insetBy(dx: -CGFloat(width * (1 + scale)), dy: -CGFloat(width * (1 + scale)))
                    return try sampled(.clamp(recipe), at: taken, reaching: reach.intersection(recipe.extent.insetBy(dx: -2, dy: -2)), context)
                }))
    }

    static let perspectiveTile = FilterDefinition(
        name: "CIPerspectiveTile", displayName: "Perspective Tile", categories: tiling,
        inputs: [
            .image(), pointInput("inputTopLeft", "Top Left", default: CGPoint(x: 118, y: 484)),
            pointInput("inputTopRight", "Top Right", default: CGPoint(x: 646, y: 507)),
            pointInput("inputBottomRight", "Bottom Right", default: CGPoint(x: 548, y: 140)),
            pointInput("inputBottomLeft", "Bottom Left", default: CGPoint(x: 155, y: 153)),
        ]
    ) { inputs in
        // The image repeated over the plane, then seen in perspective: the image's own extent
        // drawn into the quadrilateral of the four corners, its repetitions around it. Beyond
        // the horizon, and where one pixel would cover more of the plane than can be drawn, nothing.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let e = image.extent
        guard !e.isInfinite, !e.isNull, e.width > 0, e.height > 0 else { return image }
        let keys = ["inputTopLeft", "inputTopRight", "inputBottomRight", "inputBottomLeft"]
        let defaults = [CGPoint(x: 118, y: 484), CGPoint(x: 646, y: 507), CGPoint(x: 548, y: 140), CGPoint(x: 155, y: 153)]
        let corners = zip(keys, defaults).compactMap { point(inputs, $0, $1) }
        guard corners.count == 4, let quad = Projection.squareTo(corners[3], corners[2], corners[1], corners[0]),
            let toSquare = square(to: e).inverted, let inverse = quad.after(toSquare).inverted
        else { return .empty() }
        return image.derived(.project(.tile(image.recipe), inverse: inverse, extent: .infinite))
    }
}
