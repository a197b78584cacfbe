import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The colour filters made of one colour matrix each, beyond the first ones: monochrome,
    /// false colour, hue and white point.
    static let colorMatrixFilters: [FilterDefinition] = [colorMonochrome, falseColor, hueAdjust, whitePointAdjust]

    /// The filters that keep the largest or smallest of a pixel's colour components.
    static let componentFilters: [FilterDefinition] = [true, false].map { maximum in
        FilterDefinition(
            name: maximum ? "CIMaximumComponent" : "CIMinimumComponent", displayName: maximum ? "Maximum Component" : "Minimum Component",
            categories: [kCICategoryColorEffect] + everyday, inputs: [.image()]
        ) { inputs in
            // A grey of the largest (or smallest) of red, green and blue.
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            return image.derived(.componentExtreme(image.recipe, maximum: maximum))
        }
    }

    private static let everyday = [kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryBuiltIn]

    /// Luma's weights for red, green and blue (Rec. 709), as the saturation matrix uses.
    private static let luma = [0.2126, 0.7152, 0.0722]

    /// A colour's red, green and blue, or those of `fallback` when the input is missing.
    private static func rgb(_ inputs: FilterInputs, _ key: String, _ fallback: CIColor) -> [Double] {
        let color = inputs.color(key) ?? fallback
        return [Double(color.red), Double(color.green), Double(color.blue)]
    }

    /// The image with a matrix made of its inputs applied.
    private static func matrixFilter(_ inputs: FilterInputs, _ matrix: (FilterInputs) -> ColorMatrix) -> CIImage? {
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return image.derived(image.recipe.recombined(matrix(inputs)))
    }

    static let colorMonochrome = FilterDefinition(
        name: "CIColorMonochrome", displayName: "Color Monochrome", categories: [kCICategoryColorEffect] + everyday,
        inputs: [
            .image(), colorInput(kCIInputColorKey, "Color", default: CIColor(red: 0.6, green: 0.45, blue: 0.3)),
            .scalar(kCIInputIntensityKey, "Intensity", default: 1, min: 0, max: 1),
        ]
    ) { inputs in
        // Luma times the colour, mixed with the image by the intensity.
        matrixFilter(inputs) { inputs in
            let color = rgb(inputs, kCIInputColorKey, CIColor(red: 0.6, green: 0.45, blue: 0.3))
            let amount = min(1, max(0, inputs.number(kCIInputIntensityKey) ?? 1))
            let rows = (0..<3).map { out in (0..<3).map { amount * color[out] * luma[$0] + (1 - amount) * ($0 == out ? 1 : 0) } + [0] }
            return ColorMatrix(rgbaRows: rows + [[0, 0, 0, 1]])
        }
    }

    static let falseColor = FilterDefinition(
        name: "CIFalseColor", displayName: "False Color", categories: [kCICategoryColorEffect] + everyday,
        inputs: [
            .image(), colorInput("inputColor0", "Color 1", default: CIColor(red: 0.3, green: 0, blue: 0)),
            colorInput("inputColor1", "Color 2", default: CIColor(red: 1, green: 0.9, blue: 0.8)),
        ]
    ) { inputs in
        // Luma mapped onto the line from the first colour (black) to the second (white).
        matrixFilter(inputs) { inputs in
            let dark = rgb(inputs, "inputColor0", CIColor(red: 0.3, green: 0, blue: 0))
            let light = rgb(inputs, "inputColor1", CIColor(red: 1, green: 0.9, blue: 0.8))
            let rows = (0..<3).map { out in luma.map { (light[out] - dark[out]) * $0 } + [0] }
            return ColorMatrix(rgbaRows: rows + [[0, 0, 0, 1]], bias: dark + [0])
        }
    }

    static let hueAdjust = FilterDefinition(
        name: "CIHueAdjust", displayName: "Hue Adjust", categories: [kCICategoryColorAdjustment] + everyday,
        inputs: [.image(), .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle)]
    ) { inputs in
        // A turn of the colours about the grey axis that keeps luma, as SVG's hueRotate defines it.
        matrixFilter(inputs) { inputs in
            let angle = inputs.number(kCIInputAngleKey) ?? 0
            let c = cos(angle), s = sin(angle)
            return ColorMatrix(rgbaRows: [
                [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0],
                [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0],
                [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0],
                [0, 0, 0, 1],
            ])
        }
    }

    static let whitePointAdjust = FilterDefinition(
        name: "CIWhitePointAdjust", displayName: "White Point Adjust", categories: [kCICategoryColorAdjustment] + everyday,
        inputs: [.image(), colorInput(kCIInputColorKey, "Color", default: CIColor(red: 1, green: 1, blue: 1))]
    ) { inputs in
        // The image's white becomes the colour, every colour scaled with it.
        matrixFilter(inputs) { inputs in
            let white = rgb(inputs, kCIInputColorKey, CIColor(red: 1, green: 1, blue: 1))
            return ColorMatrix(rgbaRows: [[white[0], 0, 0, 0], [0, white[1], 0, 0], [0, 0, white[2], 0], [0, 0, 0, 1]])
        }
    }
}
