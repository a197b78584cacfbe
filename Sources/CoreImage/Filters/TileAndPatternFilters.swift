import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The affine clamp and tile, and the checkerboard and stripes generators.
    static let tileAndPatternFilters: [FilterDefinition] = [affineClamp, affineTile, checkerboardGenerator, stripesGenerator]

    /// The transform input of the affine tile filters, identity by default.
    private static var transformInput: Input {
        Input(
            key: kCIInputTransformKey, className: "NSAffineTransform", defaultValue: CGAffineTransform.identity, type: kCIAttributeTypeTransform,
            displayName: "Transform")
    }

    static let affineClamp = FilterDefinition(
        name: "CIAffineClamp", displayName: "Affine Clamp", categories: [kCICategoryTileEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), transformInput]
    ) { inputs in
        // The image transformed, then its edge pixels carried on without end.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return image.transformed(by: inputs.transform(kCIInputTransformKey) ?? .identity).clampedToExtent()
    }

    static let affineTile = FilterDefinition(
        name: "CIAffineTile", displayName: "Affine Tile", categories: [kCICategoryTileEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), transformInput]
    ) { inputs in
        // The image transformed, then repeated without end (the tile is the transformed image's
        // bounding box: a turned image's corners repeat transparent).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let moved = image.transformed(by: inputs.transform(kCIInputTransformKey) ?? .identity)
        guard !moved.extent.isInfinite else { return moved }
        return moved.derived(.tile(moved.recipe))
    }

    /// The inputs the pattern generators share, with Apple's defaults.
    private static var patternInputs: [Input] {
        [
            .vector(kCIInputCenterKey, "Center", default: CIVector(x: 150, y: 150), type: kCIAttributeTypePosition),
            Input(
                key: "inputColor0", className: "CIColor", defaultValue: CIColor(red: 1, green: 1, blue: 1), type: kCIAttributeTypeColor, displayName: "Color 1"),
            Input(
                key: "inputColor1", className: "CIColor", defaultValue: CIColor(red: 0, green: 0, blue: 0), type: kCIAttributeTypeColor, displayName: "Color 2"),
            .scalar(kCIInputWidthKey, "Width", default: 80, min: 0, sliderMax: 800, type: kCIAttributeTypeDistance),
            .scalar(kCIInputSharpnessKey, "Sharpness", default: 1, min: 0, max: 1),
        ]
    }

    /// A pattern's centre, colours and whole-pixel width (1 to 4096), or nil when the width is nothing.
    private static func pattern(_ inputs: FilterInputs) -> (centre: CGPoint, first: CIColor, second: CIColor, width: CGFloat)? {
        let centre = inputs.vector(kCIInputCenterKey).map { CGPoint(x: $0.x, y: $0.y) } ?? CGPoint(x: 150, y: 150)
        guard centre.x.isFinite, centre.y.isFinite else { return nil }
        let width = (inputs.number(kCIInputWidthKey) ?? 80).rounded()
        guard width >= 1 else { return nil }
        let first = inputs.color("inputColor0") ?? CIColor(red: 1, green: 1, blue: 1),
            second = inputs.color("inputColor1") ?? CIColor(red: 0, green: 0, blue: 0)
        return (CGPoint(x: centre.x.rounded(), y: centre.y.rounded()), first, second, CGFloat(min(4096, width)))
    }

    static let checkerboardGenerator = FilterDefinition(
        name: "CICheckerboardGenerator", displayName: "Checkerboard",
        categories: [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: patternInputs
    ) { inputs in
        // Squares of the width, the first colour's with a corner at the centre (edges are hard,
        // whatever the sharpness).
        guard let (centre, first, second, width) = pattern(inputs) else { return .empty() }
        func square(_ color: CIColor, _ column: CGFloat, _ row: CGFloat) -> CIImage {
            CIImage(color: color).cropped(to: CGRect(x: centre.x + column * width, y: centre.y + row * width, width: width, height: width))
        }
        let tile = square(first, 0, 0).composited(over: square(first, 1, 1)).composited(over: square(second, 1, 0)).composited(over: square(second, 0, 1))
        return tile.derived(.tile(tile.recipe))
    }

    static let stripesGenerator = FilterDefinition(
        name: "CIStripesGenerator", displayName: "Stripes", categories: [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: patternInputs
    ) { inputs in
        // Upright stripes of the width, the first colour's starting at the centre (edges are hard,
        // whatever the sharpness).
        guard let (centre, first, second, width) = pattern(inputs) else { return .empty() }
        let stripe = { (color: CIColor, column: CGFloat) in
            CIImage(color: color).cropped(to: CGRect(x: centre.x + column * width, y: centre.y, width: width, height: 1))
        }
        let tile = stripe(first, 0).composited(over: stripe(second, 1))
        return tile.derived(.tile(tile.recipe))
    }
}
