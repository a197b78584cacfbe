import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The colour adjustments a photo editor's panel has besides exposure and colour controls:
    /// temperature and tint, vibrance, highlights and shadows.
    static let colorAdjustmentFilters: [FilterDefinition] = [temperatureAndTint, vibrance, highlightShadowAdjust]

    private static let adjustment = [
        kCICategoryColorAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryBuiltIn,
    ]

    static let temperatureAndTint = FilterDefinition(
        name: "CITemperatureAndTint", displayName: "Temperature and Tint", categories: adjustment,
        inputs: [
            .image(), .vector("inputNeutral", "Neutral", default: CIVector(x: 6500, y: 0), type: kCIAttributeTypeOffset),
            .vector("inputTargetNeutral", "Target Neutral", default: CIVector(x: 6500, y: 0), type: kCIAttributeTypeOffset),
        ]
    ) { inputs in
        // The white of the neutral's temperature and tint becomes the target's: a von Kries
        // adaptation in the Bradford space (WhitePoint.adaptation), in linear light.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let neutral = inputs.vector("inputNeutral") ?? CIVector(x: 6500, y: 0), target = inputs.vector("inputTargetNeutral") ?? CIVector(x: 6500, y: 0)
        guard let from = WhitePoint(temperature: Double(neutral.x), tint: Double(neutral.y)),
            let to = WhitePoint(temperature: Double(target.x), tint: Double(target.y))
        else { return image }
        let matrix = WhitePoint.adaptation(from: from, to: to)
        guard matrix != WhitePoint.identity else { return image }
        return image.derived(.linearMix(image.recipe, WhitePoint.bgrOrder(matrix)))
    }

    static let vibrance = FilterDefinition(
        name: "CIVibrance", displayName: "Vibrance", categories: adjustment,
        inputs: [.image(), .scalar(kCIInputAmountKey, "Amount", default: 0, min: -1, max: 1)]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let amount = min(1, max(-1, inputs.number(kCIInputAmountKey) ?? 0))
        return amount == 0 ? image : image.derived(.vibrance(image.recipe, amount: amount))
    }

    static let highlightShadowAdjust = FilterDefinition(
        name: "CIHighlightShadowAdjust", displayName: "Highlight and Shadow Adjust", categories: adjustment,
        inputs: [
            .image(), .scalar(kCIInputRadiusKey, "Radius", default: 0, min: 0, sliderMax: 10, type: kCIAttributeTypeScalar),
            .scalar("inputShadowAmount", "Shadow Amount", default: 0, min: -1, max: 1),
            .scalar("inputHighlightAmount", "Highlight Amount", default: 1, min: 0, max: 1, sliderMin: 0.3),
        ]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = max(0, min(100, inputs.number(kCIInputRadiusKey) ?? 0))
        let shadows = min(1, max(-1, inputs.number("inputShadowAmount") ?? 0)), highlights = min(1, max(0, inputs.number("inputHighlightAmount") ?? 1))
        guard shadows != 0 || highlights != 1 else { return image }
        return image.derived(.shadowsHighlights(image.recipe, sigma: radius, shadows: shadows, highlights: highlights))
    }
}

/// A white of a colour temperature in kelvin and a tint, and the adaptation from one white to another.
package struct WhitePoint: Equatable {
    /// The white's CIE XYZ, with Y 1.
    var xyz: (x: Double, y: Double, z: Double)

    package static func == (a: WhitePoint, b: WhitePoint) -> Bool { a.xyz == b.xyz }

    /// The white of a temperature (1667 K to 25000 K, clamped) on the CIE daylight locus from 4000 K
    /// and the Planckian locus below (Kim et al.'s cubic fit), moved by `tint` across the locus in
    /// CIE 1960 (u, v), towards green above 0 (100 of tint is 0.01 of distance); nil for numbers that are not finite.
    package init?(temperature: Double, tint: Double) {
        guard temperature.isFinite, tint.isFinite else { return nil }
        let t = min(25_000, max(1_667, temperature))
        let (u, v) = Self.locus(t)
        // Across the locus: its direction where it passes, turned a quarter towards higher v (green).
        let (u1, v1) = Self.locus(t * 0.99), (u2, v2) = Self.locus(t * 1.01)
        let length = ((u2 - u1) * (u2 - u1) + (v2 - v1) * (v2 - v1)).squareRoot()
        var (nu, nv) = length > 0 ? (-(v2 - v1) / length, (u2 - u1) / length) : (0, 1)
        if nv < 0 { (nu, nv) = (-nu, -nv) }
        let shift = min(150, max(-150, tint)) * 0.0001
        let (tu, tv) = (u + nu * shift, v + nv * shift)
        let d = 2 * tu - 8 * tv + 4
        let (x, y) = (3 * tu / d, 2 * tv / d)
        guard y > 0 else { return nil }
        xyz = (x / y, 1, (1 - x - y) / y)
    }

    /// The CIE 1960 (u, v) of a temperature's white on the daylight locus (from 4000 K) or the Planckian locus (below).
    private static func locus(_ temperature: Double) -> (u: Double, v: Double) {
        let t = min(25_000, max(1_667, temperature))
        var x: Double, y: Double
        if t >= 4_000 {
            x =
                t <= 7_000
                ? -4.6070e9 / (t * t * t) + 2.9678e6 / (t * t) + 0.09911e3 / t + 0.244063
                : -2.0064e9 / (t * t * t) + 1.9018e6 / (t * t) + 0.24748e3 / t + 0.237040
            y = -3 * x * x + 2.870 * x - 0.275
        } else {
            x = -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            y =
                t <= 2_222
                ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
                : -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        }
        let d = -2 * x + 12 * y + 3
        return (4 * x / d, 6 * y / d)
    }

    package typealias Matrix = [Double]  // 3x3, row-major, over R, G, B

    static let identity: Matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    private static let bradford: Matrix = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
    private static let rgbToXYZ: Matrix = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.0721750, 0.0193339, 0.1191920, 0.9503041]

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        var product = Matrix(repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[row * 3 + k] * b[k * 3 + column] }
                product[row * 3 + column] = sum
            }
        }
        return product
    }

    static func inverse(_ m: Matrix) -> Matrix {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let c00: Double = e * i - f * h, c01: Double = c * h - b * i, c02: Double = b * f - c * e
        let c10: Double = f * g - d * i, c11: Double = a * i - c * g, c12: Double = c * d - a * f
        let c20: Double = d * h - e * g, c21: Double = b * g - a * h, c22: Double = a * e - b * d
        let det: Double = a * c00 + b * c10 + c * c20
        let cofactors: Matrix = [c00, c01, c02, c10, c11, c12, c20, c21, c22]
        return cofactors.map { $0 / det }
    }

    /// The linear sRGB matrix that takes the white `from` to the white `to` (Bradford's cone space).
    package static func adaptation(from: WhitePoint, to: WhitePoint) -> Matrix {
        func cone(_ white: WhitePoint) -> [Double] {
            (0..<3).map { row in bradford[row * 3] * white.xyz.x + bradford[row * 3 + 1] * white.xyz.y + bradford[row * 3 + 2] * white.xyz.z }
        }
        let (source, target) = (cone(from), cone(to))
        let scale: Matrix = [target[0] / source[0], 0, 0, 0, target[1] / source[1], 0, 0, 0, target[2] / source[2]]
        let xyzAdaptation = multiply(inverse(bradford), multiply(scale, bradford))
        return multiply(inverse(rgbToXYZ), multiply(xyzAdaptation, rgbToXYZ))
    }

    /// An R, G, B matrix over B, G, R, as the renderer's pixels are laid out.
    package static func bgrOrder(_ m: Matrix) -> [Double] {
        let order = [2, 1, 0]
        return (0..<9).map { index in m[order[index / 3] * 3 + order[index % 3]] }
    }
}
