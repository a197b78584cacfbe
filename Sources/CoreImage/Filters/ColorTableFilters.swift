import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The filters that look colours up in a table: colour cubes, a gradient image, and the
    /// thermal and X-ray maps.
    static let colorTableFilters: [FilterDefinition] = [
        colorCube(withColorSpace: false), colorCube(withColorSpace: true), colorCubesMixedWithMask, colorMap, thermal, xRay,
    ]

    private static let colorEffect = [
        kCICategoryColorEffect, kCICategoryVideo, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryStillImage, kCICategoryBuiltIn,
    ]

    /// A colour cube as the renderer samples it: `dimension` planes of `dimension` x `dimension`
    /// cells stacked downwards (the plane of blue b, row green g, column red r), each cell
    /// premultiplied B, G, R, A on a 0-255 scale.
    final class ColorCube: @unchecked Sendable {
        let dimension: Int
        let cells: UnsafeMutablePointer<Float>

        /// The cube of Apple's cube data: RGBA float cells, red varying fastest, then green, then
        /// blue; nil when the data is not dimension^3 cells or the dimension is outside 2-128.
        init?(dimension: Int, data: Data) {
            guard (2...128).contains(dimension), data.count == dimension * dimension * dimension * 16 else { return nil }
            self.dimension = dimension
            let count = dimension * dimension * dimension
            cells = UnsafeMutablePointer<Float>.allocate(capacity: count * 4)
            data.withUnsafeBytes { raw in
                for cell in 0..<count {
                    func value(_ band: Int) -> Float {
                        let v = raw.loadUnaligned(fromByteOffset: (cell * 4 + band) * 4, as: Float.self)
                        return v.isFinite ? v * 255 : 0
                    }
                    (cells[cell * 4], cells[cell * 4 + 1], cells[cell * 4 + 2], cells[cell * 4 + 3]) = (value(2), value(1), value(0), value(3))
                }
            }
        }

        /// The identity cube of a dimension, as Apple's default data.
        static func identityData(dimension: Int) -> Data {
            var values: [Float] = []
            for b in 0..<dimension {
                for g in 0..<dimension {
                    for r in 0..<dimension {
                        values += [Float(r), Float(g), Float(b)].map { $0 / Float(dimension - 1) } + [1]
                    }
                }
            }
            return values.withUnsafeBytes { Data($0) }
        }

        deinit { cells.deallocate() }

        /// Colours (0-1, not premultiplied: B, G, R) looked up with trilinear interpolation: premultiplied cells, 0-255.
        func lookUp(_ colour: Pixels, pass: RenderPass) throws -> Pixels {
            pass.keep(self)
            let n = Double(dimension)
            let table = try Pixels.floats(cells, width: dimension, height: dimension * dimension, bands: 4)
            let scaled = try clamp(colour, 0, 1) * (n - 1)
            let (b, g, r) = (try scaled.bands(0), try scaled.bands(1), try scaled.bands(2))
            let lower = try floor(b), upper = try min(try floor(b) + 1, try b * 0 + (n - 1))
            // Bilinear within the two planes of blue either side, then linear between them.
            let near = try table.sampled(at: try Pixels.joined([r, try g + lower * n]))
            let far = try table.sampled(at: try Pixels.joined([r, try g + upper * n]))
            return try interpolate(near, far, try b - lower)
        }
    }

    /// The cube of a filter's dimension and data inputs; nil when they do not make one.
    private static func cube(_ inputs: FilterInputs, dimensionKey: String = "inputCubeDimension", dataKey: String = "inputCubeData") -> ColorCube? {
        let dimension = Int((inputs.number(dimensionKey) ?? 2).rounded())
        let data = Data(bytesOf: inputs.values[dataKey]) ?? ColorCube.identityData(dimension: 2)
        return ColorCube(dimension: dimension, data: data)
    }

    /// An image's colours through a cube: looked up by the colour, not premultiplied; the cube's
    /// premultiplied value scaled by the pixel's alpha.
    static func throughCube(_ image: CIImage, _ table: ColorCube) -> CIImage {
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    let pixels = try context.pixels(recipe) / 255
                    let alpha = try pixels.bands(3)
                    return try table.lookUp(try pixels.bands(0, 3) / alpha, pass: context.pass) * alpha
                }))
    }

    private static var cubeInputs: [Input] {
        [
            .image(),
            .scalar("inputCubeDimension", "Cube Dimension", default: 2, min: 2, max: 128, sliderMin: 2, sliderMax: 64, type: kCIAttributeTypeCount),
            Input(key: "inputCubeData", className: "NSData", defaultValue: ColorCube.identityData(dimension: 2), displayName: "Cube Data"),
            .scalar("inputExtrapolate", "Extrapolate", default: 0, type: kCIAttributeTypeBoolean),
        ]
    }

    /// CIColorCube, or CIColorCubeWithColorSpace (its colour space taken as sRGB, which every image here is worked in).
    private static func colorCube(withColorSpace: Bool) -> FilterDefinition {
        FilterDefinition(
            name: withColorSpace ? "CIColorCubeWithColorSpace" : "CIColorCube", displayName: withColorSpace ? "Color Cube with ColorSpace" : "Color Cube",
            categories: colorEffect,
            inputs: cubeInputs + (withColorSpace ? [Input(key: "inputColorSpace", className: "NSObject", displayName: "Color Space")] : [])
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let table = cube(inputs) else { return .empty() }
            return throughCube(image, table)
        }
    }

    static let colorCubesMixedWithMask = FilterDefinition(
        name: "CIColorCubesMixedWithMask", displayName: "Color Cubes Mixed With Mask", categories: colorEffect,
        inputs: [
            .image(), .image(kCIInputMaskImageKey, "Mask Image"),
            .scalar("inputCubeDimension", "Cube Dimension", default: 2, min: 2, max: 128, sliderMin: 2, sliderMax: 64, type: kCIAttributeTypeCount),
            Input(key: "inputCube0Data", className: "NSData", defaultValue: ColorCube.identityData(dimension: 2), displayName: "Cube 0 Data"),
            Input(key: "inputCube1Data", className: "NSData", defaultValue: ColorCube.identityData(dimension: 2), displayName: "Cube 1 Data"),
            Input(key: "inputColorSpace", className: "NSObject", displayName: "Color Space"),
        ]
    ) { inputs in
        // Cube 0 where the mask's luma is 0, cube 1 where it is 1, mixed between.
        guard let image = inputs.image(kCIInputImageKey), let mask = inputs.image(kCIInputMaskImageKey) else { return nil }
        guard let first = cube(inputs, dataKey: "inputCube0Data"), let second = cube(inputs, dataKey: "inputCube1Data") else { return .empty() }
        let (one, other) = (throughCube(image, first).recipe, throughCube(image, second).recipe)
        let weights = mask.recipe
        return image.derived(
            .computed(
                Computation(extent: image.extent) { context in
                    let m = try ComputedBlend.luminosity(try context.pixels(weights).bands(0, 3)) / 255
                    return try interpolate(try context.pixels(one), try context.pixels(other), try clamp(m, 0, 1))
                }))
    }

    /// An image's colours replaced by a gradient's, the luma choosing the place along it: `stops`
    /// of (position 0-1, premultiplied B, G, R, A 0-255), or a gradient image's middle row.
    private static func mapped(_ image: CIImage, through gradient: Recipe) -> CIImage {
        let recipe = image.recipe
        let whole = PixelRegion(covering: gradient.extent)
        return image.derived(
            .computed(
                Computation(extent: recipe.extent) { context in
                    guard !whole.isEmpty, whole.isRenderable, whole.width <= 65536 else { return try context.constant([0, 0, 0, 0]) }
                    let pixels = try context.pixels(recipe) / 255
                    let alpha = try pixels.bands(3)
                    let luma = try clamp(try ComputedBlend.luminosity(try pixels.bands(0, 3) / alpha), 0, 1)
                    let row = PixelRegion(x: whole.x, y: whole.y + whole.height / 2, width: whole.width, height: 1)
                    let table = try context.pixels(gradient, in: row)
                    let index = try Pixels.joined([try luma * Double(whole.width - 1), try luma * 0])
                    return try table.sampled(at: index) * alpha
                }))
    }

    static let colorMap = FilterDefinition(
        name: "CIColorMap", displayName: "Color Map", categories: colorEffect,
        inputs: [.image(), .image("inputGradientImage", "Gradient Image")]
    ) { inputs in
        // The luma from 0 to 1 runs across the gradient image's middle row, left to right.
        guard let image = inputs.image(kCIInputImageKey), let gradient = inputs.image("inputGradientImage") else { return nil }
        return mapped(image, through: gradient.recipe)
    }

    /// A gradient of evenly spaced colours (R, G, B, 0-1) as a recipe a pixel wide each.
    private static func gradient(_ colours: [(Double, Double, Double)]) -> Recipe {
        let pixels = OwnedPixels(width: colours.count, height: 1) { memory in
            for (index, (r, g, b)) in colours.enumerated() {
                (memory[index * 4], memory[index * 4 + 1], memory[index * 4 + 2], memory[index * 4 + 3]) =
                    (UInt8((b * 255).rounded()), UInt8((g * 255).rounded()), UInt8((r * 255).rounded()), 255)
            }
        }
        return .pixels(pixels.source(width: colours.count, height: 1))
    }

    /// The thermal camera's palette: black through blue, magenta, red and yellow to white, by luma.
    private static let thermalPalette = gradient([(0, 0, 0), (0.1, 0, 0.5), (0.5, 0, 0.6), (0.85, 0.1, 0.2), (1, 0.55, 0), (1, 0.9, 0.2), (1, 1, 1)])
    /// The X-ray's palette: the luma inverted, with a cold blue tint.
    private static let xRayPalette = gradient([(0.95, 0.98, 1), (0.55, 0.65, 0.75), (0.2, 0.27, 0.35), (0, 0.02, 0.05)])

    static let thermal = FilterDefinition(name: "CIThermal", displayName: "Thermal", categories: colorEffect, inputs: [.image()]) { inputs in
        // Apple's palette is not published: this one runs from black (cold) to white (hot).
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return mapped(image, through: thermalPalette)
    }

    static let xRay = FilterDefinition(name: "CIXRay", displayName: "X-Ray", categories: colorEffect, inputs: [.image()]) { inputs in
        // Apple's palette is not published: this one inverts the luma, light to near black, in cold blues.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return mapped(image, through: xRayPalette)
    }
}
