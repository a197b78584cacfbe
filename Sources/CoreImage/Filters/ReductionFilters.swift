import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The filters that reduce a region of an image to a few values.
    static let reductionFilters: [FilterDefinition] = [
        areaAverage, areaExtreme("CIAreaMaximum", "Area Maximum"), areaExtreme("CIAreaMinimum", "Area Minimum"),
        areaExtreme("CIAreaMinMax", "Area Min and Max"),
        areaExtreme("CIAreaMinMaxRed", "Area Min Max Red"), lineAverage(rows: true), lineAverage(rows: false), areaBoundsRed,
    ]

    private static let reduction = [kCICategoryReduction, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]
    private static var extentInput: Input {
        .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 640, w: 80), type: kCIAttributeTypeRectangle)
    }

    /// The extent input's whole pixels; nil when it is not finite or smaller than a pixel.
    private static func area(_ inputs: FilterInputs) -> PixelRegion? {
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 640, height: 80)
        guard rect.width.isFinite, rect.height.isFinite, rect.minX.isFinite, rect.minY.isFinite, rect.width >= 1, rect.height >= 1 else { return nil }
        let whole = PixelRegion(covering: rect)
        return whole.isRenderable ? whole : nil
    }

    static let areaAverage = FilterDefinition(
        name: "CIAreaAverage", displayName: "Area Average", categories: reduction, inputs: [.image(), extentInput]
    ) { inputs in
        // One pixel at the region's origin holding the mean of each band (premultiplied, as the
        // image's pixels are) over the region; what lies outside the image counts as transparent.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 640, height: 80)
        guard rect.width.isFinite, rect.height.isFinite, rect.minX.isFinite, rect.minY.isFinite, rect.width >= 1, rect.height >= 1 else { return .empty() }
        return image.derived(.areaAverage(image.recipe, rect))
    }

    /// CIAreaMaximum and CIAreaMinimum (one pixel: each band's largest or smallest over the
    /// region), CIAreaMinMax (two pixels across: the smallest, then the largest) and
    /// CIAreaMinMaxRed (one pixel: red's smallest in red, its largest in green). Values are
    /// premultiplied, as the image's are; what lies outside the image counts as transparent.
    private static func areaExtreme(_ name: String, _ displayName: String) -> FilterDefinition {
        FilterDefinition(name: name, displayName: displayName, categories: reduction, inputs: [.image(), extentInput]) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let whole = area(inputs) else { return .empty() }
            let output = PixelRegion(x: whole.x, y: whole.y, width: name == "CIAreaMinMax" ? 2 : 1, height: 1)
            let recipe = image.recipe
            return image.derived(
                .computed(
                    Computation(extent: output.rect) { context in
                        // Only the part the image covers is read; what it does not cover is transparent, all zeros.
                        let covered = try readable(whole, of: recipe)
                        var (minimum, maximum) = covered.isEmpty ? ([0.0, 0, 0, 0], [0.0, 0, 0, 0]) : try context.pixels(recipe, in: covered).extremes()
                        if covered != whole {
                            minimum = minimum.map { Swift.min($0, 0) }
                            maximum = maximum.map { Swift.max($0, 0) }
                        }
                        let pixel: Pixels
                        switch name {
                        case "CIAreaMaximum": pixel = try Pixels.constant(maximum, over: output)
                        case "CIAreaMinimum": pixel = try Pixels.constant(minimum, over: output)
                        case "CIAreaMinMaxRed": pixel = try Pixels.constant([0, maximum[2], minimum[2], 255], over: output)
                        default:
                            // The smallest in the left pixel, the largest in the right.
                            let isLeft = try Pixels.coordinates(of: output).bands(0) < Double(output.x + 1)
                            pixel = try choose(isLeft, try Pixels.constant(minimum, over: output), try Pixels.constant(maximum, over: output))
                        }
                        return try context.placed(pixel, covering: output)
                    }))
        }
    }

    static let areaBoundsRed = FilterDefinition(
        name: "CIAreaBoundsRed", displayName: "Area Bounds Red", categories: reduction + [kCICategoryHighDynamicRange], inputs: [.image(), extentInput]
    ) { inputs in
        // One pixel at the region's origin: the bounding box of the region's pixels whose red is
        // not 0, as fractions of the region: its left, bottom, width and height in red, green,
        // blue and alpha (all 0 when there are none).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let whole = area(inputs) else { return .empty() }
        let output = PixelRegion(x: whole.x, y: whole.y, width: 1, height: 1)
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: output.rect) { context in
                    let covered = try readable(whole, of: recipe)
                    var box = [0.0, 0, 0, 0]
                    if !covered.isEmpty {
                        let red = try context.pixels(recipe, in: covered).bands(2) > 0
                        let xy = try Pixels.coordinates(of: covered)
                        // Pixel centres where red is set, the others pushed beyond every real one.
                        let (lows, highs) = (try choose(red, xy, try xy * 0 + 1e9).extremes().minimum, try choose(red, xy, try xy * 0 - 1e9).extremes().maximum)
                        if lows[0] < 1e8 {
                            let (w, h) = (Double(whole.width), Double(whole.height))
                            let left = lows[0] - 0.5 - Double(whole.x), bottom = lows[1] - 0.5 - Double(whole.y)
                            box = [left / w, bottom / h, (highs[0] - lows[0] + 1) / w, (highs[1] - lows[1] + 1) / h]
                        }
                    }
                    // B, G, R, A: the left in red, the bottom in green, the width in blue, the height in alpha.
                    return try context.placed(try Pixels.constant([box[2], box[1], box[0], box[3]].map { $0 * 255 }, over: output), covering: output)
                }))
    }

    /// The part of a region an image covers, which a reduction reads; an error when it is more
    /// pixels than a reduction reads (a hundred million: an image of infinite extent over a huge region).
    private static func readable(_ whole: PixelRegion, of recipe: Recipe) throws -> PixelRegion {
        let covered = whole.intersection(recipe.extent)
        guard Double(covered.width) * Double(covered.height) <= 1e8 else {
            throw RenderingError(description: "a reduction over \(covered.width)x\(covered.height) pixels is more than it reads")
        }
        return covered
    }

    /// CIRowAverage (a column of one pixel a row, each the row's mean over the region) or
    /// CIColumnAverage (a row of one pixel a column), at the region's origin.
    private static func lineAverage(rows: Bool) -> FilterDefinition {
        FilterDefinition(
            name: rows ? "CIRowAverage" : "CIColumnAverage", displayName: rows ? "Row Average" : "Column Average", categories: reduction,
            inputs: [.image(), extentInput]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let whole = area(inputs) else { return .empty() }
            let output = PixelRegion(x: whole.x, y: whole.y, width: rows ? 1 : whole.width, height: rows ? whole.height : 1)
            let recipe = image.recipe
            return image.derived(
                .computed(
                    Computation(extent: output.rect) { context in
                        // The means over the part the image covers, scaled by its share of each line (the rest is transparent).
                        let covered = try readable(whole, of: recipe)
                        guard !covered.isEmpty else { return try context.constant([0, 0, 0, 0]) }
                        let share = rows ? Double(covered.width) / Double(whole.width) : Double(covered.height) / Double(whole.height)
                        let means =
                            try context.pixels(recipe, in: covered).blockMeans(across: rows ? covered.width : 1, down: rows ? 1 : covered.height) * share
                        let lines = PixelRegion(
                            x: rows ? whole.x : covered.x, y: rows ? covered.y : whole.y, width: rows ? 1 : covered.width, height: rows ? covered.height : 1)
                        return try context.placed(means, covering: lines)
                    }))
        }
    }
}
