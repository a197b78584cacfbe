import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The filters that pass each colour band through a curve: gamma, clamp, polynomial, the sRGB
    /// transfer functions and the tone curve.
    static let toneCurveFilters: [FilterDefinition] = [
        gammaAdjust, colorClamp, colorPolynomial, linearToSRGBToneCurve, sRGBToneCurveToLinear, toneCurve, colorPosterize,
    ]

    private static let adjustment = [kCICategoryColorAdjustment, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryBuiltIn]

    /// The image with curves made of its inputs applied to its colours (not premultiplied).
    private static func curveFilter(_ inputs: FilterInputs, _ curves: (FilterInputs) -> Curves) -> CIImage? {
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return image.derived(.curves(image.recipe, curves(inputs)))
    }

    /// A vector input's four values, or `fallback`'s.
    private static func values(_ inputs: FilterInputs, _ key: String, _ fallback: [Double]) -> [Double] {
        guard let vector = inputs.vector(key) else { return fallback }
        return (0..<4).map { index in
            let value = Double(vector.value(at: index))
            return value.isFinite ? value : fallback[index]
        }
    }

    static let colorPosterize = FilterDefinition(
        name: "CIColorPosterize", displayName: "Color Posterize",
        categories: [kCICategoryColorEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryBuiltIn],
        inputs: [.image(), .scalar("inputLevels", "Levels", default: 6, sliderMin: 2, sliderMax: 30)]
    ) { inputs in
        // Each colour band rounded to the nearest of `levels` values evenly spaced from 0 to 1.
        curveFilter(inputs) { inputs in
            let steps = max(1, (inputs.number("inputLevels") ?? 6).rounded() - 1)
            return Curves(colours: { ($0 * steps).rounded() / steps })
        }
    }

    static let gammaAdjust = FilterDefinition(
        name: "CIGammaAdjust", displayName: "Gamma Adjust", categories: adjustment,
        inputs: [.image(), .scalar("inputPower", "Power", default: 1, sliderMin: 0.25, sliderMax: 4)]
    ) { inputs in
        curveFilter(inputs) { inputs in
            let power = max(0, inputs.number("inputPower") ?? 1)
            return Curves(colours: { pow($0, power) })
        }
    }

    static let colorClamp = FilterDefinition(
        name: "CIColorClamp", displayName: "Color Clamp", categories: adjustment,
        inputs: [
            .image(), .vector("inputMinComponents", "Minimum Components", default: CIVector(x: 0, y: 0, z: 0, w: 0)),
            .vector("inputMaxComponents", "Maximum Components", default: CIVector(x: 1, y: 1, z: 1, w: 1)),
        ]
    ) { inputs in
        // Each of red, green, blue and alpha held between its minimum and maximum.
        curveFilter(inputs) { inputs in
            let low = values(inputs, "inputMinComponents", [0, 0, 0, 0]), high = values(inputs, "inputMaxComponents", [1, 1, 1, 1])
            func clamp(_ band: Int) -> (Double) -> Double { { min(high[band], max(low[band], $0)) } }
            return Curves(red: clamp(0), green: clamp(1), blue: clamp(2), alpha: clamp(3))
        }
    }

    static let colorPolynomial = FilterDefinition(
        name: "CIColorPolynomial", displayName: "Color Polynomial", categories: adjustment,
        inputs: ["inputRedCoefficients", "inputGreenCoefficients", "inputBlueCoefficients", "inputAlphaCoefficients"].reduce(into: [.image()]) {
            $0.append(.vector($1, String($1.dropFirst(5).dropLast(12)) + " Coefficients", default: CIVector(x: 0, y: 1, z: 0, w: 0)))
        }
    ) { inputs in
        // Each band c becomes a0 + a1 c + a2 c² + a3 c³ with its own coefficients.
        curveFilter(inputs) { inputs in
            func polynomial(_ key: String) -> (Double) -> Double {
                let a = values(inputs, key, [0, 1, 0, 0])
                return { c in a[0] + c * (a[1] + c * (a[2] + c * a[3])) }
            }
            return Curves(
                red: polynomial("inputRedCoefficients"), green: polynomial("inputGreenCoefficients"), blue: polynomial("inputBlueCoefficients"),
                alpha: polynomial("inputAlphaCoefficients"))
        }
    }

    static let linearToSRGBToneCurve = FilterDefinition(
        name: "CILinearToSRGBToneCurve", displayName: "Linear to sRGB Tone Curve", categories: adjustment, inputs: [.image()]
    ) { inputs in
        // sRGB's encoding of linear light (IEC 61966-2-1).
        curveFilter(inputs) { _ in Curves(colours: { $0 <= 0.003_130_8 ? 12.92 * $0 : 1.055 * pow($0, 1 / 2.4) - 0.055 }) }
    }

    static let sRGBToneCurveToLinear = FilterDefinition(
        name: "CISRGBToneCurveToLinear", displayName: "sRGB Tone Curve to Linear", categories: adjustment, inputs: [.image()]
    ) { inputs in
        // sRGB's encoded values back to linear light (IEC 61966-2-1).
        curveFilter(inputs) { _ in Curves(colours: { $0 <= 0.040_45 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }) }
    }

    /// The tone curve's five points' keys and Apple's defaults: the diagonal.
    private static let curvePoints = (0..<5).map { ("inputPoint\($0)", Double($0) / 4) }

    static let toneCurve = FilterDefinition(
        name: "CIToneCurve", displayName: "Tone Curve", categories: adjustment,
        inputs: [.image()]
            + curvePoints.map { key, place in .vector(key, "Point \(key.last!)", default: CIVector(x: place, y: place), type: kCIAttributeTypePosition) }
    ) { inputs in
        // A natural cubic spline through the five points, in the order of their x; flat beyond the ends.
        curveFilter(inputs) { inputs in
            let points = curvePoints.map { key, place -> (Double, Double) in
                guard let vector = inputs.vector(key), vector.x.isFinite, vector.y.isFinite else { return (place, place) }
                return (Double(vector.x), Double(vector.y))
            }
            let spline = NaturalSpline(points: points)
            return Curves(colours: { spline.value(at: $0) })
        }
    }
}

/// A natural cubic spline through points (second derivative zero at both ends), constant beyond
/// the first and last points; points sharing an x keep the first.
struct NaturalSpline {
    private let xs: [Double]
    private let ys: [Double]
    /// The second derivative at each point.
    private let curvature: [Double]

    init(points: [(Double, Double)]) {
        var unique: [(Double, Double)] = []
        for point in points.sorted(by: { $0.0 < $1.0 }) where unique.last.map({ point.0 - $0.0 > 1e-9 }) ?? true { unique.append(point) }
        xs = unique.map(\.0)
        ys = unique.map(\.1)
        let n = xs.count
        var second = [Double](repeating: 0, count: n)
        if n > 2 {
            // The tridiagonal system for the inner points' second derivatives, by Thomas's algorithm.
            var diagonal = [Double](repeating: 0, count: n), right = [Double](repeating: 0, count: n), upper = [Double](repeating: 0, count: n)
            for i in 1..<(n - 1) {
                let (h0, h1) = (xs[i] - xs[i - 1], xs[i + 1] - xs[i])
                diagonal[i] = 2 * (h0 + h1)
                upper[i] = h1
                right[i] = 6 * ((ys[i + 1] - ys[i]) / h1 - (ys[i] - ys[i - 1]) / h0)
                if i > 1 {
                    let factor = h0 / diagonal[i - 1]
                    diagonal[i] -= factor * upper[i - 1]
                    right[i] -= factor * right[i - 1]
                }
            }
            for i in stride(from: n - 2, through: 1, by: -1) { second[i] = (right[i] - upper[i] * second[i + 1]) / diagonal[i] }
        }
        curvature = second
    }

    /// The curve's value at `x`.
    func value(at x: Double) -> Double {
        guard let first = xs.first, let last = xs.last else { return x }
        if xs.count == 1 { return ys[0] }
        if x <= first { return ys[0] }
        if x >= last { return ys[ys.count - 1] }
        let i = max(0, (xs.lastIndex { $0 <= x } ?? 0))
        let h = xs[i + 1] - xs[i], a = (xs[i + 1] - x) / h, b = (x - xs[i]) / h
        return a * ys[i] + b * ys[i + 1] + ((a * a * a - a) * curvature[i] + (b * b * b - b) * curvature[i + 1]) * h * h / 6
    }
}
