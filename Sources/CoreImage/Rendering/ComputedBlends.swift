import CoreGraphics
import Foundation

/// The blend modes and compositing operators libvips has no mode for, as formulas of pixel
/// arithmetic: the separable and non-separable blend modes of the W3C's compositing
/// specification and Adobe's PDF reference, and the component-wise extremes.
///
/// A blend mode's result, premultiplied, is (1 - αb) S + (1 - αs) B + αs αb f(Cb, Cs), its alpha
/// αs + αb - αs αb, where S and B are the source's and background's premultiplied colours, Cs and
/// Cb their colours, and f the mode's function, clipped to 0-1.
enum ComputedBlend: Sendable, CaseIterable {
    /// The background divided by the source.
    case divide
    /// The source subtracted from the background.
    case subtract
    /// The sum less one (darker than multiply).
    case linearBurn
    /// The sum (lighter than screen).
    case linearDodge
    /// The background plus twice the source, less one.
    case linearLight
    /// The darker where the source is dark, the lighter where it is light.
    case pinLight
    /// A colour burn where the source is dark, a colour dodge where it is light.
    case vividLight
    /// The source's hue, the background's saturation and luminosity.
    case hue
    /// The source's saturation, the background's hue and luminosity.
    case saturation
    /// The source's hue and saturation, the background's luminosity.
    case color
    /// The source's luminosity, the background's hue and saturation.
    case luminosity
    /// The larger of each band, alpha included, premultiplied.
    case componentMax
    /// The smaller of each band, alpha included, premultiplied.
    case componentMin
    /// Each band 1 where the two colours' bands sum to 1 or more, else 0.
    case hardMix
    /// The colour of lower luminosity, whole.
    case darkerColor
    /// The colour of higher luminosity, whole.
    case lighterColor
    /// Porter and Duff's clear: nothing.
    case clear
    /// Porter and Duff's source: the source alone.
    case source
    /// Porter and Duff's destination: the background alone.
    case destination
    /// Porter and Duff's exclusive or: each where the other is not.
    case exclusiveOr

    /// The recipe of `source` blended over `background`.
    func recipe(_ source: Recipe, _ background: Recipe) -> Recipe {
        let extent = source.extent.union(background.extent)
        return .computed(
            Computation(extent: extent, isOpaque: source.isOpaque && background.isOpaque && source.extent == background.extent) { context in
                let top = try context.pixels(source), bottom = try context.pixels(background)
                switch self {
                case .componentMax: return try max(top, bottom)
                case .componentMin: return try min(top, bottom)
                case .clear: return try top * 0
                case .source: return top
                case .destination: return bottom
                case .exclusiveOr:
                    // S (1 - ab) + B (1 - as), alpha included.
                    return try top * (1 - bottom.bands(3) / 255) + bottom * (1 - top.bands(3) / 255)
                default: return try blended(top / 255, bottom / 255)
                }
            })
    }

    /// Two images (0-1, premultiplied) blended, on a 0-255 scale.
    private func blended(_ top: Pixels, _ bottom: Pixels) throws -> Pixels {
        let s = try top.bands(0, 3), αs = try top.bands(3), b = try bottom.bands(0, 3), αb = try bottom.bands(3)
        // Colours not premultiplied (0 where alpha is: libvips's division by zero gives zero).
        let cs = try s / αs, cb = try b / αb
        let mixed = try clamp(try function(cb, cs), 0, 1)
        let colour = try (1 - αb) * s + (1 - αs) * b + αs * αb * mixed
        let alpha = try αs + αb - αs * αb
        return try Pixels.joined([colour, alpha]) * 255
    }

    /// The mode's function of the background's and the source's colours (three bands, 0-1).
    private func function(_ cb: Pixels, _ cs: Pixels) throws -> Pixels {
        switch self {
        case .divide: return try cb / max(cs, try cs * 0 + 1e-6)
        case .subtract: return try cb - cs
        case .linearBurn: return try cb + cs - 1
        case .linearDodge: return try cb + cs
        case .linearLight: return try cb + 2 * cs - 1
        case .pinLight: return try choose(try cs < 0.5, try min(cb, 2 * cs), try max(cb, 2 * cs - 1))
        case .vividLight:
            // Burn by twice the source below a half; dodge by twice the source less one above.
            let tiny = try cs * 0 + 1e-6
            let burn = try 1 - min(try (1 - cb) / max(2 * cs, tiny), try tiny * 0 + 1)
            let dodge = try min(try cb / max(2 - 2 * cs, tiny), try tiny * 0 + 1)
            return try choose(try cs < 0.5, burn, dodge)
        case .hue: return try Self.withLuminosity(try Self.withSaturation(cs, try Self.saturation(cb)), try Self.luminosity(cb))
        case .saturation: return try Self.withLuminosity(try Self.withSaturation(cb, try Self.saturation(cs)), try Self.luminosity(cb))
        case .color: return try Self.withLuminosity(cs, try Self.luminosity(cb))
        case .luminosity: return try Self.withLuminosity(cb, try Self.luminosity(cs))
        case .hardMix: return try (try (cb + cs) > 0.999999) * 1
        case .darkerColor, .lighterColor:
            let sourceIsDarker = try Self.luminosity(cs) < Self.luminosity(cb)
            return self == .darkerColor ? try choose(sourceIsDarker, cs, cb) : try choose(sourceIsDarker, cb, cs)
        case .componentMax, .componentMin, .clear, .source, .destination, .exclusiveOr: return cb
        }
    }

    /// The W3C's luminosity of B, G, R colours: 0.11 B + 0.59 G + 0.3 R.
    static func luminosity(_ colour: Pixels) throws -> Pixels { try colour.weighed([[0.11, 0.59, 0.3]]) }

    /// The W3C's saturation: the largest band less the smallest.
    private static func saturation(_ colour: Pixels) throws -> Pixels { try colour.rankOfBands(2) - colour.rankOfBands(0) }

    /// A colour with its saturation set: its bands moved so that the smallest is 0 and the largest `saturation` (grey stays 0).
    private static func withSaturation(_ colour: Pixels, _ saturation: Pixels) throws -> Pixels {
        let smallest = try colour.rankOfBands(0), largest = try colour.rankOfBands(2)
        return try (colour - smallest) * saturation / (largest - smallest)
    }

    /// A colour moved to a luminosity, then brought back inside 0-1 along the line to its grey (the W3C's ClipColor).
    private static func withLuminosity(_ colour: Pixels, _ luminosity: Pixels) throws -> Pixels {
        let moved = try colour + (luminosity - Self.luminosity(colour))
        let l = try Self.luminosity(moved), smallest = try moved.rankOfBands(0), largest = try moved.rankOfBands(2)
        let raised = try choose(try smallest < 0, try l + (moved - l) * l / (l - smallest), moved)
        return try choose(try largest > 1, try l + (raised - l) * (1 - l) / (largest - l), raised)
    }
}
