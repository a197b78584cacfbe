/// A colour operation as a 4x4 matrix over premultiplied B, G, R, A: the form every colour
/// filter here takes, and two in a row fuse into one.
struct ColorMatrix: Equatable {
    /// Rows by output band, columns by input band, both B, G, R, A.
    var rows: [[Double]]

    /// The matrix that changes nothing.
    static let identity = ColorMatrix(rows: (0..<4).map { i in (0..<4).map { $0 == i ? 1 : 0 } })

    /// A matrix given as Apple's colour matrices are, by red, green, blue and alpha rows over
    /// red, green, blue and alpha, with a bias for each output (0-1, multiplied by alpha, since
    /// pixels are premultiplied).
    init(rgbaRows: [[Double]], bias: [Double] = [0, 0, 0, 0]) {
        // B, G, R, A in RGBA order.
        let order = [2, 1, 0, 3]
        rows = order.map { out in order.map { rgbaRows[out][$0] } }
        for (row, out) in order.enumerated() { rows[row][3] += bias[out] }
    }

    init(rows: [[Double]]) { self.rows = rows }

    /// Colour rows that mix toward luma (Rec. 709 weights) by `saturation` (1 changes nothing, 0 is grey).
    static func saturation(_ saturation: Double) -> ColorMatrix {
        let luma = [0.2126, 0.7152, 0.0722]
        var rows = (0..<3).map { out in (0..<3).map { (1 - saturation) * luma[$0] + ($0 == out ? saturation : 0) } + [0] }
        rows.append([0, 0, 0, 1])
        return ColorMatrix(rgbaRows: rows)
    }

    /// This matrix applied after `first`.
    func after(_ first: ColorMatrix) -> ColorMatrix {
        ColorMatrix(rows: (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + rows[i][$1] * first.rows[$1][j] } } })
    }

    /// The sixteen values, row by row, as the renderer takes them.
    var values: [Double] { rows.flatMap { $0 } }
}

extension Recipe {
    /// A recipe with a colour matrix applied, fused with one already applied last.
    func recombined(_ matrix: ColorMatrix) -> Recipe {
        if matrix == .identity { return self }
        if case .recombine(let inner, let values) = self {
            let first = ColorMatrix(rows: (0..<4).map { Array(values[$0 * 4..<$0 * 4 + 4]) })
            return .recombine(inner, matrix.after(first).values)
        }
        return .recombine(self, matrix.values)
    }
}

extension Recipe {
    /// An opaque constant colour's B, G, R, where it covers a region: a colour, or a colour cropped to a rectangle around the region.
    func opaqueColour(covering region: PixelRegion) -> (b: Double, g: Double, r: Double)? {
        switch self {
        case .color(let b, let g, let r, let a) where a >= 1: return (b, g, r)
        case .crop(.color(let b, let g, let r, let a), let rect) where a >= 1 && region.intersection(rect.standardized) == region: return (b, g, r)
        default: return nil
        }
    }

    /// An opaque constant colour's B, G, R over `extent`: a colour, or a colour cropped to exactly that extent.
    private func opaqueColour(over extent: CGRect) -> (b: Double, g: Double, r: Double)? {
        switch self {
        case .color(let b, let g, let r, let a) where a >= 1 && extent.isInfinite: return (b, g, r)
        case .crop(.color(let b, let g, let r, let a), let rect) where a >= 1 && rect.standardized == extent: return (b, g, r)
        default: return nil
        }
    }

    /// `top` blended over `bottom` in `mode`; a multiply of an opaque image by an opaque colour of
    /// the same extent is a product of bands, made a colour matrix (which fuses with the ones around it).
    static func blending(_ top: Recipe, _ bottom: Recipe, _ mode: BlendMode) -> Recipe {
        guard mode == .multiply else { return .blend(top, bottom, mode) }
        for (image, colour) in [(top, bottom), (bottom, top)] {
            guard image.isOpaque, let (b, g, r) = colour.opaqueColour(over: image.extent) else { continue }
            return image.recombined(ColorMatrix(rows: [[b, 0, 0, 0], [0, g, 0, 0], [0, 0, r, 0], [0, 0, 0, 1]]))
        }
        return .blend(top, bottom, mode)
    }
}
