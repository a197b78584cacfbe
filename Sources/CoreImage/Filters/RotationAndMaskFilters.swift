import CoreGraphics
import Foundation

extension FilterDefinition {
    /// A camera turned in space (perspective rotation and the keystone corrections that find its
    /// turn from guide lines), a mask made alpha, depth and disparity, and a mesh of lines.
    static let rotationAndMaskFilters: [FilterDefinition] =
        [perspectiveRotate] + KeystoneGuides.allCases.map(keystoneCorrection) + [
            maskToAlpha, depthToDisparity(inverse: false), depthToDisparity(inverse: true), meshGenerator, depthOfField,
        ]

    private static let geometric = [kCICategoryGeometryAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn]

    /// The map that shows a picture as a camera of a 35 mm-equivalent focal length would see it
    /// turned by pitch (about the horizontal axis), yaw (the vertical) and roll (the view axis),
    /// about the extent's middle: K R K⁻¹, K the camera of f = focal length × the diagonal / 43.27
    /// (the 35 mm frame's diagonal), R = roll · pitch · yaw.
    static func rotation(of extent: CGRect, focalLength: Double, pitch: Double, yaw: Double, roll: Double) -> Projection {
        let diagonal = (Double(extent.width * extent.width + extent.height * extent.height)).squareRoot()
        let f = max(1e-6, focalLength) * diagonal / 43.27
        let (cx, cy) = (Double(extent.midX), Double(extent.midY))
        let rx: [[Double]] = [[1, 0, 0], [0, cos(pitch), -sin(pitch)], [0, sin(pitch), cos(pitch)]]
        let ry: [[Double]] = [[cos(yaw), 0, sin(yaw)], [0, 1, 0], [-sin(yaw), 0, cos(yaw)]]
        let rz: [[Double]] = [[cos(roll), -sin(roll), 0], [sin(roll), cos(roll), 0], [0, 0, 1]]
        func times(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] { (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } } }
        let r = times(rz, times(rx, ry))
        let k: [[Double]] = [[f, 0, cx], [0, f, cy], [0, 0, 1]], inverseK: [[Double]] = [[1 / f, 0, -cx / f], [0, 1 / f, -cy / f], [0, 0, 1]]
        return Projection(m: times(k, times(r, inverseK)))
    }

    /// The bounding box of a rectangle's corners under a map; nil when one goes behind the viewer.
    private static func mapped(_ rect: CGRect, by map: Projection) -> CGRect? {
        let points = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)].compactMap {
            map.apply(Double($0.0), Double($0.1))
        }
        guard points.count == 4 else { return nil }
        // Corners within a thousandth of a whole pixel are on it (a quarter turn given as a Float is off by a millionth: a pixel each side).
        func snapped(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-3 ? v.rounded() : v }
        let xs = points.map { snapped($0.0) }, ys = points.map { snapped($0.1) }
        let box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!).integral
        return box.width <= 100_000 && box.height <= 100_000 ? box : nil
    }

    /// The image drawn through a map onto the bounding box of its corners.
    private static func projected(_ image: CIImage, by map: Projection) -> CIImage {
        guard let inverse = map.inverted, let box = mapped(image.extent, by: map) else { return .empty() }
        return image.derived(.project(image.recipe, inverse: inverse, extent: box))
    }

    static let perspectiveRotate = FilterDefinition(
        name: "CIPerspectiveRotate", displayName: "Perspective Rotate", categories: geometric,
        inputs: [
            .image(), .scalar("inputFocalLength", "Focal Length", default: 28, sliderMin: 0, sliderMax: 200),
            .scalar("inputPitch", "Pitch", default: 0, sliderMin: -Double.pi / 2, sliderMax: Double.pi / 2, type: kCIAttributeTypeAngle),
            .scalar("inputYaw", "Yaw", default: 0, sliderMin: -Double.pi / 2, sliderMax: Double.pi / 2, type: kCIAttributeTypeAngle),
            .scalar("inputRoll", "Roll", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
        ]
    ) { inputs in
        // The picture as the camera would see it turned (`rotation(of:...)`), on the bounding box
        // of its corners; nothing when a corner goes behind the camera.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let focal = inputs.number("inputFocalLength") ?? 28, pitch = inputs.number("inputPitch") ?? 0
        let yaw = inputs.number("inputYaw") ?? 0, roll = inputs.number("inputRoll") ?? 0
        let extent = image.extent
        guard !extent.isInfinite, !extent.isNull, [focal, pitch, yaw, roll].allSatisfy(\.isFinite), focal > 0 else { return .empty() }
        if pitch == 0, yaw == 0, roll == 0 { return image }
        return projected(image, by: rotation(of: extent, focalLength: focal, pitch: pitch, yaw: yaw, roll: roll))
    }

    /// Which guides a keystone correction straightens.
    enum KeystoneGuides: CaseIterable {
        case combined, horizontal, vertical

        var name: String {
            switch self {
            case .combined: return "CIKeystoneCorrectionCombined"
            case .horizontal: return "CIKeystoneCorrectionHorizontal"
            case .vertical: return "CIKeystoneCorrectionVertical"
            }
        }
    }

    /// The direction (radians, within a half turn) of the line from `a` to `b` under a map.
    private static func direction(_ a: CGPoint, _ b: CGPoint, _ map: Projection) -> Double? {
        guard let p = map.apply(Double(a.x), Double(a.y)), let q = map.apply(Double(b.x), Double(b.y)) else { return nil }
        let turn = atan2(q.1 - p.1, q.0 - p.0)
        return turn - Double.pi * (turn / Double.pi).rounded(.down)
    }

    /// The signed difference of two directions within a half turn, from -π/2 to π/2.
    private static func difference(_ a: Double, _ b: Double) -> Double {
        var d = a - b
        while d > Double.pi / 2 { d -= Double.pi }
        while d < -Double.pi / 2 { d += Double.pi }
        return d
    }

    /// The angle in -1.2...1.2 where a function of it crosses 0, by bisection; nil when it does not change sign.
    private static func root(_ function: (Double) -> Double?) -> Double? {
        var (low, high) = (-1.2, 1.2)
        guard var atLow = function(low), let atHigh = function(high), atLow * atHigh <= 0 else { return nil }
        for _ in 0..<60 {
            let middle = (low + high) / 2
            guard let value = function(middle) else { return nil }
            if (value < 0) == (atLow < 0) {
                (low, atLow) = (middle, value)
            } else {
                high = middle
            }
        }
        return (low + high) / 2
    }

    /// CIKeystoneCorrectionCombined, CIKeystoneCorrectionHorizontal and CIKeystoneCorrectionVertical.
    private static func keystoneCorrection(_ guides: KeystoneGuides) -> FilterDefinition {
        FilterDefinition(
            name: guides.name,
            displayName: guides == .combined
                ? "Keystone Correction Combined" : guides == .horizontal ? "Keystone Correction Horizontal" : "Keystone Correction Vertical",
            categories: geometric,
            inputs: [
                .image(), .scalar("inputFocalLength", "Focal Length", default: 28, sliderMin: 0, sliderMax: 200),
                .vector("inputTopLeft", "Top Left", default: nil, type: kCIAttributeTypePosition),
                .vector("inputTopRight", "Top Right", default: nil, type: kCIAttributeTypePosition),
                .vector("inputBottomRight", "Bottom Right", default: nil, type: kCIAttributeTypePosition),
                .vector("inputBottomLeft", "Bottom Left", default: nil, type: kCIAttributeTypePosition),
            ]
        ) { inputs in
            // The guides are lines in the picture that should be upright (left, bottom left to top
            // left; right, bottom right to top right) or level (top, bottom). The camera's turn
            // that makes the upright ones parallel (a pitch) and the level ones parallel (a yaw)
            // is found by bisection, the one pair alternately with the other for both; then a roll
            // makes them upright and level (their mean direction); the picture is drawn turned so,
            // as the perspective rotation draws it. Without the four guides, the image unchanged.
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let keys = ["inputTopLeft", "inputTopRight", "inputBottomRight", "inputBottomLeft"]
            let corners = keys.compactMap { inputs.vector($0).map { CGPoint(x: $0.x, y: $0.y) } }
            let focal = inputs.number("inputFocalLength") ?? 28
            let extent = image.extent
            guard corners.count == 4, corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), focal > 0, focal.isFinite, !extent.isInfinite, !extent.isNull
            else { return image }
            let (topLeft, topRight, bottomRight, bottomLeft) = (corners[0], corners[1], corners[2], corners[3])
            func map(_ pitch: Double, _ yaw: Double, _ roll: Double = 0) -> Projection {
                rotation(of: extent, focalLength: focal, pitch: pitch, yaw: yaw, roll: roll)
            }
            var (pitch, yaw) = (0.0, 0.0)
            let upright = guides != .horizontal, level = guides != .vertical
            for _ in 0..<(guides == .combined ? 8 : 1) {
                if upright,
                    let found = root({ p in
                        guard let left = direction(bottomLeft, topLeft, map(p, yaw)), let right = direction(bottomRight, topRight, map(p, yaw)) else {
                            return nil
                        }
                        return difference(left, right)
                    })
                {
                    pitch = found
                }
                if level,
                    let found = root({ y in
                        guard let top = direction(topLeft, topRight, map(pitch, y)), let bottom = direction(bottomLeft, bottomRight, map(pitch, y)) else {
                            return nil
                        }
                        return difference(top, bottom)
                    })
                {
                    yaw = found
                }
            }
            // The roll that turns the straightened guides upright (or level).
            let turned = map(pitch, yaw)
            var roll = 0.0
            if upright, let left = direction(bottomLeft, topLeft, turned), let right = direction(bottomRight, topRight, turned) {
                roll = difference(Double.pi / 2, (left + right) / 2 + (abs(left - right) > Double.pi / 2 ? Double.pi / 2 : 0))
            } else if let top = direction(topLeft, topRight, turned), let bottom = direction(bottomLeft, bottomRight, turned) {
                roll = difference(0, (top + bottom) / 2 + (abs(top - bottom) > Double.pi / 2 ? Double.pi / 2 : 0))
            }
            // Roll turns about the view axis after pitch and yaw: the picture turned by it about the extent's middle.
            let rolled = rotation(of: extent, focalLength: focal, pitch: 0, yaw: 0, roll: roll)
            let whole = Projection(m: (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + rolled.m[i][$1] * turned.m[$1][j] } } })
            return projected(image, by: whole)
        }
    }

    static let maskToAlpha = FilterDefinition(
        name: "CIMaskToAlpha", displayName: "Mask to Alpha",
        categories: [kCICategoryColorEffect, kCICategoryVideo, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image()]
    ) { inputs in
        // White whose alpha is the mask's luma (Rec. 601 weights of the colour, not premultiplied),
        // premultiplied: every band the luma.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let pixels = try context.pixels(recipe)
                    let alpha = try pixels.bands(3)
                    let colour = try pixels.bands(0, 3) / (try max(alpha, try alpha * 0 + 1e-6) / 255)
                    let luma = try clamp(try ComputedBlend.luminosity(colour), 0, 255) * (try alpha / 255)
                    return try Pixels.joined([luma, luma, luma, luma])
                }))
    }

    /// CIDepthToDisparity, or CIDisparityToDepth (`inverse`): each of red, green and blue one
    /// over itself (disparity is 1 / depth in metres, and back), alpha kept; 0 stays 0. Values
    /// beyond 1 need a float destination.
    private static func depthToDisparity(inverse: Bool) -> FilterDefinition {
        FilterDefinition(
            name: inverse ? "CIDisparityToDepth" : "CIDepthToDisparity", displayName: inverse ? "Disparity To Depth" : "Depth To Disparity",
            categories: [kCICategoryColorAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn], inputs: [.image()]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            return recoloured(image, clipped: false) { colour, _ in
                try choose(try colour < 1e-6, try colour * 0, try 1 / (try max(colour, try colour * 0 + 1e-6)))
            }
        }
    }

    static let meshGenerator = FilterDefinition(
        name: "CIMeshGenerator", displayName: "Mesh Generator",
        categories: [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn],
        inputs: [
            .scalar(kCIInputWidthKey, "Width", default: 1.5, min: 0, sliderMin: 0, sliderMax: 20, type: kCIAttributeTypeDistance),
            colorInput(kCIInputColorKey, "Color", default: .white),
            Input(key: "inputMesh", className: "NSArray", defaultValue: NSArray(), displayName: "Mesh"),
        ]
    ) { inputs in
        // Lines of the width in the colour, one for each vector (x0, y0, x1, y1) of the mesh, each
        // pixel covered by min(1, max(0, width / 2 + 0.5 - d)), d its centre's distance from the
        // nearest segment; the extent the segments' bounds and the width around them.
        let color = inputs.color(kCIInputColorKey) ?? .white
        let width = min(1000, max(0, inputs.number(kCIInputWidthKey) ?? 1.5))
        let vectors = (inputs.values["inputMesh"] as? [Any] ?? (inputs.values["inputMesh"] as? NSArray).map { $0.map { $0 } } ?? []).compactMap {
            $0 as? CIVector
        }
        let segments = vectors.filter { $0.count >= 4 && [$0.x, $0.y, $0.z, $0.w].allSatisfy(\.isFinite) }.prefix(10_000).map {
            (Double($0.x), Double($0.y), Double($0.z), Double($0.w))
        }
        guard !segments.isEmpty, width > 0 else { return .empty() }
        let half = width / 2 + 1
        let xs = segments.flatMap { [$0.0, $0.2] }, ys = segments.flatMap { [$0.1, $0.3] }
        let bounds = CGRect(x: xs.min()! - half, y: ys.min()! - half, width: xs.max()! - xs.min()! + 2 * half, height: ys.max()! - ys.min()! + 2 * half)
            .integral
        let colour = premultiplied(color)
        return CIImage(
            recipe: .computed(
                Computation(extent: bounds) { context in
                    let r = context.region.rect.insetBy(dx: -CGFloat(half), dy: -CGFloat(half))
                    let points = try context.coordinates()
                    var cover: Pixels?
                    for (x0, y0, x1, y1) in segments {
                        // Segments that cannot reach the region are passed over.
                        let box = CGRect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
                        guard box.intersects(r) || r.contains(CGPoint(x: x0, y: y0)) else { continue }
                        let (dx, dy) = (x1 - x0, y1 - y0)
                        let lengthSquared = max(dx * dx + dy * dy, 1e-12)
                        let offset = try points.scaled([1], plus: [-x0, -y0])
                        let u = try clamp(try offset.weighed([[dx / lengthSquared, dy / lengthSquared]]), 0, 1)
                        let apart = try offset - u.scaled([dx, dy], plus: [0, 0])
                        let d = try sqrt(try (apart * apart).weighed([[1, 1]]))
                        let covered = try clamp(try (try d * -1) + (width / 2 + 0.5), 0, 1)
                        cover = try cover.map { try max($0, covered) } ?? covered
                    }
                    guard let cover else { return try context.constant([0, 0, 0, 0]) }
                    return try cover.scaled(colour, plus: [0, 0, 0, 0])
                }))
    }

    static let depthOfField = FilterDefinition(
        name: "CIDepthOfField", displayName: "Depth of Field", categories: [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), pointInput("inputPoint0", "Point 0", default: CGPoint(x: 0, y: 300)),
            pointInput("inputPoint1", "Point 1", default: CGPoint(x: 300, y: 300)),
            .scalar(kCIInputSaturationKey, "Saturation", default: 1.5, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar("inputUnsharpMaskRadius", "Unsharp Mask Radius", default: 2.5, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar("inputUnsharpMaskIntensity", "Unsharp Mask Intensity", default: 0.5, min: 0, sliderMin: 0, sliderMax: 10),
            .scalar(kCIInputRadiusKey, "Radius", default: 6, min: 0, sliderMin: 0, sliderMax: 30, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // A tilt-shift: along the line through the two points the picture is in focus (its
        // saturation raised, then sharpened by the unsharp mask); away from it, blurred by the
        // radius (a Gaussian's sigma), reached in full at half the points' distance from the line
        // and mixed in linearly before (Apple does not publish its falloff).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let p0 = point(inputs, "inputPoint0", CGPoint(x: 0, y: 300)), let p1 = point(inputs, "inputPoint1", CGPoint(x: 300, y: 300)) else {
            return .empty()
        }
        let saturation = max(0, inputs.number(kCIInputSaturationKey) ?? 1.5), radius = min(500, max(0, inputs.number(kCIInputRadiusKey) ?? 6))
        let sharpRadius = min(500, max(0, inputs.number("inputUnsharpMaskRadius") ?? 2.5)),
            sharpAmount = max(0, inputs.number("inputUnsharpMaskIntensity") ?? 0.5)
        let (dx, dy) = (Double(p1.x - p0.x), Double(p1.y - p0.y))
        let length = (dx * dx + dy * dy).squareRoot()
        guard saturation.isFinite, sharpAmount.isFinite, length > 0 else { return image }
        let recipe = image.recipe
        let extent = recipe.extent
        var sharp = recipe.recombined(.saturation(saturation))
        if sharpRadius > 0, sharpAmount > 0 { sharp = .unsharp(sharp, sigma: sharpRadius, amount: sharpAmount) }
        let source: Recipe = extent.isInfinite ? recipe : .clamp(recipe)
        let blurred: Recipe = radius > 0 ? .blur(source, sigma: radius) : recipe
        // The distance from the line: |(p - p0) x (p1 - p0)| / |p1 - p0|, over half the points' distance.
        let falloff = length / 2
        return image.derived(
            .computed(
                Computation(extent: extent) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-Double(p0.x), -Double(p0.y)])
                    let away = try clamp(try abs(try offset.weighed([[-dy / length, dx / length]])) / falloff, 0, 1)
                    return try interpolate(try context.pixels(sharp), try context.pixels(blurred), away)
                }))
    }
}
