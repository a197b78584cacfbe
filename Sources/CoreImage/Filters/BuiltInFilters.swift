import CoreGraphics
import Foundation
import FrameProcessing

extension FilterDefinition {
    /// The filters built in here, by name.
    static let builtIn: [String: FilterDefinition] = Dictionary(
        uniqueKeysWithValues: [
            gaussianBlur, colorControls, exposureAdjust, colorMatrix, colorInvert, sepiaTone, photoEffectMono, affineTransform, crop,
            lanczosScaleTransform, sourceOverCompositing, constantColorGenerator, qrCodeGenerator,
        ].map { ($0.name, $0) })

    private static let everyday = [kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// A colour filter: the image with a matrix applied.
    private static func colorFilter(_ inputs: FilterInputs, _ matrix: (FilterInputs) -> ColorMatrix) -> CIImage? {
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return image.derived(image.recipe.recombined(matrix(inputs)))
    }

    static let gaussianBlur = FilterDefinition(
        name: "CIGaussianBlur", displayName: "Gaussian Blur", categories: [kCICategoryBlur] + everyday,
        inputs: [.image(), .scalar(kCIInputRadiusKey, "Radius", default: 10, min: 0, sliderMax: 100, type: kCIAttributeTypeScalar)]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return image.applyingGaussianBlur(sigma: max(0, inputs.number(kCIInputRadiusKey) ?? 10))
    }

    static let colorControls = FilterDefinition(
        name: "CIColorControls", displayName: "Color Controls", categories: [kCICategoryColorAdjustment] + everyday,
        inputs: [
            .image(), .scalar(kCIInputSaturationKey, "Saturation", default: 1, min: 0, sliderMax: 2),
            .scalar(kCIInputBrightnessKey, "Brightness", default: 0, min: -1, sliderMax: 1),
            .scalar(kCIInputContrastKey, "Contrast", default: 1, min: 0, sliderMax: 4),
        ]
    ) { inputs in
        colorFilter(inputs) { inputs in
            let brightness = inputs.number(kCIInputBrightnessKey) ?? 0, contrast = inputs.number(kCIInputContrastKey) ?? 1
            // Saturation toward luma, then brightness added, then contrast about the middle grey.
            var matrix = ColorMatrix.saturation(inputs.number(kCIInputSaturationKey) ?? 1)
            for row in 0..<3 {
                for column in 0..<4 { matrix.rows[row][column] *= contrast }
                matrix.rows[row][3] += contrast * brightness + 0.5 * (1 - contrast)
            }
            return matrix
        }
    }

    static let exposureAdjust = FilterDefinition(
        name: "CIExposureAdjust", displayName: "Exposure Adjust", categories: [kCICategoryColorAdjustment] + everyday,
        inputs: [.image(), .scalar(kCIInputEVKey, "EV", default: 0, sliderMin: -10, sliderMax: 10)]
    ) { inputs in
        colorFilter(inputs) { inputs in
            // Light times 2^EV; pixels are sRGB-encoded, and sRGB's power law (2.2) carries the factor.
            let factor = pow(2, (inputs.number(kCIInputEVKey) ?? 0) / 2.2)
            return ColorMatrix(rgbaRows: [[factor, 0, 0, 0], [0, factor, 0, 0], [0, 0, factor, 0], [0, 0, 0, 1]])
        }
    }

    static let colorMatrix = FilterDefinition(
        name: "CIColorMatrix", displayName: "Color Matrix", categories: [kCICategoryColorAdjustment] + everyday,
        inputs: [
            .image(), .vector("inputRVector", "Red Vector", default: CIVector(x: 1, y: 0, z: 0, w: 0)),
            .vector("inputGVector", "Green Vector", default: CIVector(x: 0, y: 1, z: 0, w: 0)),
            .vector("inputBVector", "Blue Vector", default: CIVector(x: 0, y: 0, z: 1, w: 0)),
            .vector("inputAVector", "Alpha Vector", default: CIVector(x: 0, y: 0, z: 0, w: 1)),
            .vector("inputBiasVector", "Bias Vector", default: CIVector(x: 0, y: 0, z: 0, w: 0)),
        ]
    ) { inputs in
        colorFilter(inputs) { inputs in
            func row(_ key: String, _ fallback: [Double]) -> [Double] {
                inputs.vector(key).map { vector in (0..<4).map { Double(vector.value(at: $0)) } } ?? fallback
            }
            return ColorMatrix(
                rgbaRows: [
                    row("inputRVector", [1, 0, 0, 0]), row("inputGVector", [0, 1, 0, 0]), row("inputBVector", [0, 0, 1, 0]),
                    row("inputAVector", [0, 0, 0, 1]),
                ], bias: row("inputBiasVector", [0, 0, 0, 0]))
        }
    }

    static let colorInvert = FilterDefinition(
        name: "CIColorInvert", displayName: "Color Invert", categories: [kCICategoryColorEffect] + everyday, inputs: [.image()]
    ) { inputs in
        colorFilter(inputs) { _ in ColorMatrix(rgbaRows: [[-1, 0, 0, 0], [0, -1, 0, 0], [0, 0, -1, 0], [0, 0, 0, 1]], bias: [1, 1, 1, 0]) }
    }

    static let sepiaTone = FilterDefinition(
        name: "CISepiaTone", displayName: "Sepia Tone", categories: [kCICategoryColorEffect] + everyday,
        inputs: [.image(), .scalar(kCIInputIntensityKey, "Intensity", default: 1, min: 0, max: 1)]
    ) { inputs in
        colorFilter(inputs) { inputs in
            let amount = min(1, max(0, inputs.number(kCIInputIntensityKey) ?? 1))
            let sepia = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
            let rows = (0..<3).map { out in (0..<3).map { amount * sepia[out][$0] + (1 - amount) * ($0 == out ? 1 : 0) } + [0] }
            return ColorMatrix(rgbaRows: rows + [[0, 0, 0, 1]])
        }
    }

    static let photoEffectMono = FilterDefinition(
        name: "CIPhotoEffectMono", displayName: "Photo Effect Mono", categories: [kCICategoryColorEffect] + everyday, inputs: [.image()]
    ) { inputs in
        colorFilter(inputs) { _ in .saturation(0) }
    }

    static let affineTransform = FilterDefinition(
        name: "CIAffineTransform", displayName: "Affine Transform", categories: [kCICategoryGeometryAdjustment] + everyday,
        inputs: [
            .image(),
            Input(
                key: kCIInputTransformKey, className: "NSAffineTransform", defaultValue: CGAffineTransform.identity, type: kCIAttributeTypeTransform,
                displayName: "Transform"),
        ]
    ) { inputs in
        inputs.image(kCIInputImageKey)?.transformed(by: inputs.transform(kCIInputTransformKey) ?? .identity)
    }

    static let crop = FilterDefinition(
        name: "CICrop", displayName: "Crop", categories: [kCICategoryGeometryAdjustment] + everyday,
        inputs: [.image(), .vector("inputRectangle", "Rectangle", default: CIVector(cgRect: .infinite), type: kCIAttributeTypeRectangle)]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        guard let rect = inputs.vector("inputRectangle")?.cgRectValue else { return image }
        return image.cropped(to: rect)
    }

    static let lanczosScaleTransform = FilterDefinition(
        name: "CILanczosScaleTransform", displayName: "Lanczos Scale Transform", categories: [kCICategoryGeometryAdjustment] + everyday,
        inputs: [
            .image(), .scalar(kCIInputScaleKey, "Scale", default: 1, min: 0, sliderMin: 0.05, sliderMax: 1.5),
            .scalar(kCIInputAspectRatioKey, "Aspect Ratio", default: 1, min: 0, sliderMin: 0.05, sliderMax: 2),
        ]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let scale = inputs.number(kCIInputScaleKey) ?? 1, aspect = inputs.number(kCIInputAspectRatioKey) ?? 1
        guard scale > 0, aspect > 0 else { return .empty() }
        if scale == 1, aspect == 1 { return image }
        return image.derived(.lanczos(image.recipe, x: scale * aspect, y: scale))
    }

    static let sourceOverCompositing = FilterDefinition(
        name: "CISourceOverCompositing", displayName: "Source Over", categories: [kCICategoryCompositeOperation] + everyday,
        inputs: [.image(), .image(kCIInputBackgroundImageKey, "Background Image")]
    ) { inputs in
        guard let image = inputs.image(kCIInputImageKey), let background = inputs.image(kCIInputBackgroundImageKey) else { return nil }
        return image.composited(over: background)
    }

    static let constantColorGenerator = FilterDefinition(
        name: "CIConstantColorGenerator", displayName: "Constant Color", categories: [kCICategoryGenerator] + everyday,
        inputs: [Input(key: kCIInputColorKey, className: "CIColor", defaultValue: CIColor.black, type: kCIAttributeTypeOpaqueColor, displayName: "Color")]
    ) { inputs in
        CIImage(color: inputs.color(kCIInputColorKey) ?? .black)
    }

    static let qrCodeGenerator = FilterDefinition(
        name: "CIQRCodeGenerator", displayName: "QR Code Generator", categories: [kCICategoryGenerator, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            Input(key: "inputMessage", className: "NSData", displayName: "Message"),
            Input(key: "inputCorrectionLevel", className: "NSString", defaultValue: "M", displayName: "Correction Level"),
        ]
    ) { inputs in
        // Black modules on white, one pixel a module, a module of white around (ZXing-C++ draws it).
        let message: [UInt8]
        switch inputs.values["inputMessage"] {
        case let data as Data: message = Array(data)
        case let data as NSData: message = Array(data as Data)
        case let text as String: message = Array(text.utf8)
        default: return nil
        }
        let level = (inputs.values["inputCorrectionLevel"] as? String) ?? "M"
        guard let code = try? CodeBitmap(qrMessage: message, correctionLevel: level) else { return nil }
        let (width, height) = (code.width + 2, code.height + 2)
        let pixels = OwnedPixels(width: width, height: height) { memory in
            for y in 0..<height {
                for x in 0..<width {
                    let inside = x > 0 && y > 0 && x <= code.width && y <= code.height
                    let grey = inside ? code.pixels[(y - 1) * code.width + x - 1] : 255
                    let pixel = memory + (y * width + x) * 4
                    (pixel[0], pixel[1], pixel[2], pixel[3]) = (grey, grey, grey, 255)
                }
            }
        }
        return CIImage(recipe: .pixels(pixels.source(width: width, height: height)))
    }
}
