import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The convolution filters, on all four bands and (the RGB forms) on the colours alone.
    static let convolutionFilters: [FilterDefinition] = [false, true].flatMap { rgb in
        [("3X3", 3, 3), ("5X5", 5, 5), ("7X7", 7, 7), ("9Horizontal", 9, 1), ("9Vertical", 1, 9)].map { shape, width, height in
            convolution(name: "CIConvolution\(rgb ? "RGB" : "")\(shape)", width: width, height: height, keepsAlpha: rgb)
        }
    }

    /// A convolution by a `width` x `height` matrix of weights, the top row first, each applied to
    /// the pixel at its place around the output's, then the bias added.
    private static func convolution(name: String, width: Int, height: Int, keepsAlpha: Bool) -> FilterDefinition {
        let count = width * height
        // The identity: 1 in the middle.
        let identity = (0..<count).map { CGFloat($0 == count / 2 ? 1 : 0) }
        let displayName = "Convolution " + (keepsAlpha ? "RGB " : "") + String(name.dropFirst(keepsAlpha ? 16 : 13))
        return FilterDefinition(
            name: name, displayName: displayName, categories: [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: [
                .image(), .vector(kCIInputWeightsKey, "Weights", default: identity.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: count) }),
                .scalar(kCIInputBiasKey, "Bias", default: 0),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            let given = inputs.vector(kCIInputWeightsKey)
            // Weights that are not numbers count as nothing; a vector of another length is used as far as it goes.
            let weights = (0..<count).map { index -> Double in
                let value = Double(given.map { $0.value(at: index) } ?? identity[index])
                return value.isFinite ? value : 0
            }
            let kernel = Kernel(
                width: width, height: height, weights: weights, isSeparable: false, bias: inputs.number(kCIInputBiasKey) ?? 0, keepsAlpha: keepsAlpha)
            return image.derived(.convolve(image.recipe, kernel))
        }
    }
}
