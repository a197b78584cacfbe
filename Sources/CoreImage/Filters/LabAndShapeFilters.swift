import CoreGraphics
import Foundation

extension FilterDefinition {
    /// CIE L*a*b* conversions and differences, Sobel's gradients, colour curves, and stroked and
    /// blurred rectangles.
    static let labAndShapeFilters: [FilterDefinition] = [
        convertRGBToLab, convertLabToRGB, labDeltaE, sobelGradients, colorCurves, roundedRectangleStrokeGenerator, blurredRectangleGenerator,
    ]

    private static let colorAdjustment = [kCICategoryColorAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// sRGB's linear red, green and blue to CIE XYZ (D65), rows X, Y, Z over B, G, R.
    private static let toXYZ: [[Double]] = [[0.1804375, 0.3575761, 0.4124564], [0.0721750, 0.7151522, 0.2126729], [0.9503041, 0.1191920, 0.0193339]]
    /// CIE XYZ (D65) to sRGB's linear B, G, R, rows B, G, R over X, Y, Z.
    private static let fromXYZ: [[Double]] = [[0.0556434, -0.2040259, 1.0572252], [-0.9692660, 1.8760108, 0.0415560], [3.2404542, -1.5371385, -0.4985314]]
    /// D65's white in XYZ.
    private static let white = (x: 0.95047, y: 1.0, z: 1.08883)

    /// sRGB's encoded values (0-1, B, G, R) to linear light.
    private static func decoded(_ v: Pixels) throws -> Pixels {
        try choose(try v < 0.04045, try v / 12.92, try pow(try (v + 0.055) / 1.055, try v * 0 + 2.4))
    }

    /// Linear light (B, G, R) to sRGB's encoded values.
    private static func encoded(_ v: Pixels) throws -> Pixels {
        let positive = try max(v, try v * 0)
        return try choose(try positive < 0.0031308, try positive * 12.92, try pow(positive, try positive * 0 + 1 / 2.4) * 1.055 - 0.055)
    }

    /// Colours (0-1, not premultiplied, B G R) to L*, a*, b* (three bands).
    static func lab(_ colour: Pixels) throws -> Pixels {
        let xyz = try decoded(try clamp(colour, 0, 1)).weighed(toXYZ).scaled([1 / white.x, 1 / white.y, 1 / white.z], plus: [0, 0, 0])
        // f(t) = t^(1/3) above (6/29)^3, else t / (3 (6/29)^2) + 4/29.
        let f = try choose(try xyz > 0.008856, try pow(try max(xyz, try xyz * 0 + 1e-9), try xyz * 0 + 1 / 3.0), try xyz * 7.787 + 16.0 / 116)
        let (fx, fy, fz) = (try f.bands(0), try f.bands(1), try f.bands(2))
        return try Pixels.joined([try fy * 116 - 16, try (fx - fy) * 500, try (fy - fz) * 200])
    }

    /// L*, a*, b* (three bands) to colours (0-1, B G R, clipped).
    static func rgb(fromLab lab: Pixels) throws -> Pixels {
        let fy = try (lab.bands(0) + 16) / 116
        let fx = try fy + lab.bands(1) / 500, fz = try fy - lab.bands(2) / 200
        func inverse(_ f: Pixels) throws -> Pixels { try choose(try f > 0.206893, try f * f * f, try (f - 16.0 / 116) / 7.787) }
        let xyz = try Pixels.joined([try inverse(fx) * white.x, try inverse(fy) * white.y, try inverse(fz) * white.z])
        return try clamp(try encoded(try xyz.weighed(fromXYZ)), 0, 1)
    }

    static let convertRGBToLab = FilterDefinition(
        name: "CIConvertRGBtoLab", displayName: "Convert RGB to Lab", categories: colorAdjustment,
        inputs: [.image(), .scalar("inputNormalize", "Normalize", default: 0, type: kCIAttributeTypeBoolean)]
    ) { inputs in
        // L* (0-100) in red, a* in green, b* in blue (about -128 to 127), as floats; normalized,
        // L* over 100 and a* and b* moved from -128...127 to 0...1. Alpha kept.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let normalize = (inputs.number("inputNormalize") ?? 0) != 0
        return recoloured(image, clipped: false) { colour, _ in
            let values = try lab(colour)
            let (l, a, b) = (try values.bands(0), try values.bands(1), try values.bands(2))
            // Out in B, G, R order: b* in blue, a* in green, L* in red.
            return try Pixels.joined(normalize ? [try (b + 128) / 255, try (a + 128) / 255, try l / 100] : [b, a, l])
        }
    }

    static let convertLabToRGB = FilterDefinition(
        name: "CIConvertLabToRGB", displayName: "Convert Lab to RGB", categories: colorAdjustment,
        inputs: [.image(), .scalar("inputNormalize", "Normalize", default: 0, type: kCIAttributeTypeBoolean)]
    ) { inputs in
        // The inverse: L* in red, a* in green, b* in blue (normalized or not) back to sRGB.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let normalize = (inputs.number("inputNormalize") ?? 0) != 0
        return recoloured(image, clipped: false) { stored, _ in
            let (b, a, l) = (try stored.bands(0), try stored.bands(1), try stored.bands(2))
            let values = normalize ? try Pixels.joined([try l * 100, try a * 255 - 128, try b * 255 - 128]) : try Pixels.joined([l, a, b])
            return try rgb(fromLab: values)
        }
    }

    static let labDeltaE = FilterDefinition(
        name: "CILabDeltaE", displayName: "Lab ΔE", categories: colorAdjustment, inputs: [.image(), .image("inputImage2", "Image 2")]
    ) { inputs in
        // CIE 1994's colour difference (graphic arts) between the two images' colours, 0-100 (2
        // just noticeable), in red, green and blue as floats; opaque where both are.
        guard let image = inputs.image(kCIInputImageKey), let other = inputs.image("inputImage2") else { return nil }
        let (first, second) = (image.recipe, other.recipe)
        return image.derived(
            .computed(
                Computation(extent: first.extent.intersection(second.extent)) { context in
                    let p = try context.pixels(first) / 255, q = try context.pixels(second) / 255
                    let one = try lab(try p.bands(0, 3) / p.bands(3)), two = try lab(try q.bands(0, 3) / q.bands(3))
                    let difference = try one - two
                    let (dl, da, db) = (try difference.bands(0), try difference.bands(1), try difference.bands(2))
                    let c1 = try sqrt(try (one.bands(1, 2) * one.bands(1, 2)).weighed([[1, 1]]))
                    let c2 = try sqrt(try (two.bands(1, 2) * two.bands(1, 2)).weighed([[1, 1]]))
                    let dc = try c1 - c2
                    let dh2 = try max(try da * da + db * db - dc * dc, try dc * 0)
                    let sc = try c1 * 0.045 + 1, sh = try c1 * 0.015 + 1
                    let delta = try sqrt(try dl * dl + (dc / sc) * (dc / sc) + dh2 / (sh * sh))
                    let alpha = try p.bands(3) * q.bands(3)
                    return try Pixels.joined([try delta * alpha, try delta * alpha, try delta * alpha, alpha]) * 255
                }))
    }

    static let sobelGradients = FilterDefinition(
        name: "CISobelGradients", displayName: "Sobel Gradients",
        categories: [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image()]
    ) { inputs in
        // Sobel's 3 x 3 gradients of red, green and blue (0-1 values, so a step from 0 to 1 gives
        // 4): across in red, up in green, each the band's of largest magnitude, signed, as floats; opaque.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let recipe = image.recipe
        return image.derived(
            .computed(
                Computation(extent: recipe.extent, isOpaque: true) { context in
                    let wide = try context.pixels(recipe, margin: 1).bands(0, 3) / 255
                    let (across, up) = try wide.sobel(width: context.region.width, height: context.region.height)
                    // The band of largest magnitude, sign kept.
                    func strongest(_ g: Pixels) throws -> Pixels {
                        let (b, gr, r) = (try g.bands(0), try g.bands(1), try g.bands(2))
                        let first = try choose(try abs(b) < abs(gr), gr, b)
                        return try choose(try abs(first) < abs(r), r, first)
                    }
                    let (horizontal, vertical) = (try strongest(across), try strongest(up))
                    // B, G, R, A: nothing in blue, the vertical gradient in green, the horizontal in red.
                    return try Pixels.joined([try vertical * 0, vertical, horizontal, try context.constant([1])]) * 255
                }))
    }

    static let colorCurves = FilterDefinition(
        name: "CIColorCurves", displayName: "Color Curves", categories: colorAdjustment,
        inputs: [
            .image(), Input(key: "inputCurvesData", className: "NSData", defaultValue: identityCurvesData, displayName: "Curves Data"),
            .vector("inputCurvesDomain", "Curves Domain", default: CIVector(x: 0, y: 1)),
            Input(key: "inputColorSpace", className: "NSObject", displayName: "Color Space"),
        ]
    ) { inputs in
        // Each band of the colours through its curve: the curves data's red, green and blue
        // floats for evenly spaced inputs over the domain, interpolated linearly, clamped at the
        // ends. (The colour space is taken as sRGB, which every image here is worked in.)
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let data = Data(bytesOf: inputs.values["inputCurvesData"]) ?? identityCurvesData
        let domain = inputs.vector("inputCurvesDomain").map { (Double($0.x), Double($0.y)) } ?? (0, 1)
        let count = data.count / 12
        guard count >= 2, domain.1 > domain.0, domain.0.isFinite, domain.1.isFinite else { return .empty() }
        let values: [Float] = data.withUnsafeBytes { raw in (0..<(count * 3)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
        func curve(_ band: Int) -> (Double) -> Double {
            { v in
                let position = min(1, max(0, (v - domain.0) / (domain.1 - domain.0))) * Double(count - 1)
                let low = min(count - 2, Int(position)), t = position - Double(low)
                let (a, b) = (Double(values[low * 3 + band]), Double(values[(low + 1) * 3 + band]))
                return a.isFinite && b.isFinite ? a + (b - a) * t : 0
            }
        }
        return image.derived(.curves(image.recipe, Curves(red: curve(0), green: curve(1), blue: curve(2))))
    }

    /// Curves data that leaves colours as they are: two points, 0 and 1.
    static var identityCurvesData: Data { [Float(0), 0, 0, 1, 1, 1].withUnsafeBytes { Data($0) } }

    static let roundedRectangleStrokeGenerator = FilterDefinition(
        name: "CIRoundedRectangleStrokeGenerator", displayName: "Rounded Rectangle Stroke Generator",
        categories: [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn],
        inputs: [
            .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 100, w: 100), type: kCIAttributeTypeRectangle),
            .scalar(kCIInputRadiusKey, "Radius", default: 10, min: 0, sliderMin: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
            colorInput(kCIInputColorKey, "Color", default: .white),
            .scalar(kCIInputWidthKey, "Width", default: 10, min: 0, sliderMin: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // The rounded rectangle's outline, `width` wide, centred on its edge, smoothed over a pixel.
        let rect = (inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 100, height: 100)).standardized
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite, rect.width > 0, rect.height > 0 else { return .empty() }
        let radius = min(max(0, inputs.number(kCIInputRadiusKey) ?? 10), Double(min(rect.width, rect.height)) / 2)
        let width = min(1000, max(0, inputs.number(kCIInputWidthKey) ?? 10)), color = inputs.color(kCIInputColorKey) ?? .white
        guard width > 0 else { return .empty() }
        let (cx, cy) = (Double(rect.midX), Double(rect.midY)), (hx, hy) = (Double(rect.width) / 2 - radius, Double(rect.height) / 2 - radius)
        return CIImage(
            recipe: .computed(
                Computation(extent: rect.insetBy(dx: -CGFloat(width / 2) - 1, dy: -CGFloat(width / 2) - 1)) { context in
                    let xy = try context.coordinates()
                    let q = try abs(try xy.scaled([1], plus: [-cx, -cy])).scaled([1], plus: [-hx, -hy])
                    let outside = try max(q, try q * 0)
                    let distance = try sqrt(try (outside * outside).weighed([[1, 1]])) + min(try q.rankOfBands(1), try q.bands(0) * 0) - radius
                    let coverage = try clamp(try width / 2 + 0.5 - abs(distance), 0, 1)
                    return try coverage.scaled(premultiplied(color), plus: [0, 0, 0, 0])
                }))
    }

    static let blurredRectangleGenerator = FilterDefinition(
        name: "CIBlurredRectangleGenerator", displayName: "Blurred Rectangle Generator",
        categories: [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryHighDynamicRange, kCICategoryBuiltIn],
        inputs: [
            .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 100, w: 100), type: kCIAttributeTypeRectangle),
            .scalar("inputSigma", "Sigma", default: 10, min: 0, sliderMin: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
            colorInput(kCIInputColorKey, "Color", default: .white),
        ]
    ) { inputs in
        // A rectangle of the colour blurred by a Gaussian of the sigma.
        let rect = (inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 100, height: 100)).standardized
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite, rect.width > 0, rect.height > 0 else { return .empty() }
        let sigma = min(1000, max(0, inputs.number("inputSigma") ?? 10))
        let shape = CIImage(color: inputs.color(kCIInputColorKey) ?? .white).cropped(to: rect)
        return sigma > 0 ? shape.applyingGaussianBlur(sigma: sigma) : shape
    }
}
