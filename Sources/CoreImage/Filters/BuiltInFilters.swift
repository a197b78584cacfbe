import CoreGraphics
import Foundation
import FrameProcessing

extension FilterDefinition {
    /// The filters built in here, by name.
    static let builtIn: [String: FilterDefinition] = Dictionary(
        uniqueKeysWithValues: [
            gaussianBlur, colorControls, exposureAdjust, colorMatrix, colorInvert, sepiaTone, photoEffectMono, affineTransform, crop,
            lanczosScaleTransform, sourceOverCompositing, constantColorGenerator, qrCodeGenerator, vignette, perspectiveCorrection,
            perspectiveTransform,
        ].map { ($0.name, $0) } + photoEffects.map { ($0.name, $0) } + blendModes.map { ($0.name, $0) }
            + colorMatrixFilters.map { ($0.name, $0) } + sharpenFilters.map { ($0.name, $0) }
            + reductionFilters.map { ($0.name, $0) } + blurAndMorphologyFilters.map { ($0.name, $0) }
            + toneCurveFilters.map { ($0.name, $0) } + mixingFilters.map { ($0.name, $0) } + componentFilters.map { ($0.name, $0) }
            + convolutionFilters.map { ($0.name, $0) } + tileAndPatternFilters.map { ($0.name, $0) }
            + stylizeFilters.map { ($0.name, $0) } + colorAdjustmentFilters.map { ($0.name, $0) } + computedBlendModes.map { ($0.name, $0) }
            + gradientFilters.map { ($0.name, $0) } + halftoneFilters.map { ($0.name, $0) } + distortionFilters.map { ($0.name, $0) }
            + glowAndEdgeFilters.map { ($0.name, $0) } + barcodeFilters.map { ($0.name, $0) }
            + colorTableFilters.map { ($0.name, $0) } + colorArithmeticFilters.map { ($0.name, $0) }
            + morphologyFilters.map { ($0.name, $0) } + geometryFilters.map { ($0.name, $0) }
            + transitionFilters.map { ($0.name, $0) } + latticeTileFilters.map { ($0.name, $0) }
            + textFilters.map { ($0.name, $0) } + moreComputedFilters.map { ($0.name, $0) }
            + histogramFilters.map { ($0.name, $0) } + cellFilters.map { ($0.name, $0) }
            + lightAndLineFilters.map { ($0.name, $0) }
            + [perspectiveTransformWithExtent].map { ($0.name, $0) } + layoutAndPaletteFilters.map { ($0.name, $0) }
            + labAndShapeFilters.map { ($0.name, $0) } + hexagonalTileFilters.map { ($0.name, $0) }
            + surfaceFilters.map { ($0.name, $0) } + lensFilters.map { ($0.name, $0) }
            + lightGeneratorFilters.map { ($0.name, $0) } + revealTransitionFilters.map { ($0.name, $0) }
            + woodcutAndSpotColorFilters.map { ($0.name, $0) } + triangleAndPerspectiveTileFilters.map { ($0.name, $0) }
            + scaleAndToneFilters.map { ($0.name, $0) } + edgeAndDistanceFilters.map { ($0.name, $0) }
            + pageCurlFilters.map { ($0.name, $0) } + rotationAndMaskFilters.map { ($0.name, $0) })

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
            var colours = [row("inputRVector", [1, 0, 0, 0]), row("inputGVector", [0, 1, 0, 0]), row("inputBVector", [0, 0, 1, 0])]
            let alpha = row("inputAVector", [0, 0, 0, 1])
            var bias = row("inputBiasVector", [0, 0, 0, 0])
            // Apple's matrix works on colours not premultiplied: where alpha is only scaled (the
            // usual way to fade a picture), the premultiplied colours are scaled with it.
            if alpha[0] == 0, alpha[1] == 0, alpha[2] == 0, bias[3] == 0 {
                let scale = alpha[3]
                colours = colours.map { $0.map { $0 * scale } }
                for band in 0..<3 { bias[band] *= scale }
            }
            return ColorMatrix(rgbaRows: colours + [alpha], bias: bias)
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

    /// Apple's blend modes and compositing operators that libvips's compositing carries out, with
    /// the W3C's formulas Apple's documentation names: the input image blended over the background.
    static let blendModes: [FilterDefinition] = [
        ("CIMultiplyBlendMode", "Multiply Blend Mode", BlendMode.multiply), ("CIScreenBlendMode", "Screen Blend Mode", .screen),
        ("CIOverlayBlendMode", "Overlay Blend Mode", .overlay), ("CIDarkenBlendMode", "Darken Blend Mode", .darken),
        ("CILightenBlendMode", "Lighten Blend Mode", .lighten), ("CIColorDodgeBlendMode", "Color Dodge Blend Mode", .colorDodge),
        ("CIColorBurnBlendMode", "Color Burn Blend Mode", .colorBurn), ("CIHardLightBlendMode", "Hard Light Blend Mode", .hardLight),
        ("CISoftLightBlendMode", "Soft Light Blend Mode", .softLight), ("CIDifferenceBlendMode", "Difference Blend Mode", .difference),
        ("CIExclusionBlendMode", "Exclusion Blend Mode", .exclusion), ("CIAdditionCompositing", "Addition", .addition),
        ("CISourceInCompositing", "Source In", .sourceIn), ("CISourceOutCompositing", "Source Out", .sourceOut),
        ("CISourceAtopCompositing", "Source Atop", .sourceAtop), ("CIMultiplyCompositing", "Multiply", .multiplyCompositing),
    ].map { name, displayName, mode in
        FilterDefinition(
            name: name, displayName: displayName, categories: [kCICategoryCompositeOperation] + everyday,
            inputs: [.image(), .image(kCIInputBackgroundImageKey, "Background Image")]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey), let background = inputs.image(kCIInputBackgroundImageKey) else { return nil }
            return image.derived(Recipe.blending(image.recipe, background.recipe, mode))
        }
    }

    /// The blend modes and compositing operators computed by formula, by Apple's names.
    static let computedBlendNames: [(String, String, ComputedBlend)] = [
        ("CIDivideBlendMode", "Divide Blend Mode", .divide), ("CISubtractBlendMode", "Subtract Blend Mode", .subtract),
        ("CILinearBurnBlendMode", "Linear Burn Blend Mode", .linearBurn), ("CILinearDodgeBlendMode", "Linear Dodge Blend Mode", .linearDodge),
        ("CILinearLightBlendMode", "Linear Light Blend Mode", .linearLight), ("CIPinLightBlendMode", "Pin Light Blend Mode", .pinLight),
        ("CIVividLightBlendMode", "Vivid Light Blend Mode", .vividLight), ("CIHueBlendMode", "Hue Blend Mode", .hue),
        ("CISaturationBlendMode", "Saturation Blend Mode", .saturation), ("CIColorBlendMode", "Color Blend Mode", .color),
        ("CILuminosityBlendMode", "Luminosity Blend Mode", .luminosity), ("CIMaximumCompositing", "Maximum", .componentMax),
        ("CIMinimumCompositing", "Minimum", .componentMin),
    ]

    static let computedBlendModes: [FilterDefinition] = computedBlendNames.map { name, displayName, blend in
        FilterDefinition(
            name: name, displayName: displayName, categories: [kCICategoryCompositeOperation] + everyday,
            inputs: [.image(), .image(kCIInputBackgroundImageKey, "Background Image")]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey), let background = inputs.image(kCIInputBackgroundImageKey) else { return nil }
            return image.derived(blend.recipe(image.recipe, background.recipe))
        }
    }

    /// The blend mode or compositing operator of this name.
    static func blendMode(_ name: String) -> FilterDefinition { (blendModes + computedBlendModes).first { $0.name == name }! }

    /// The built-in filter of this name, one the package defines.
    static func named(_ name: String) -> FilterDefinition { builtIn[name]! }

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
        guard let message = message(inputs) else { return nil }
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

    // MARK: Photo effects, vignette and perspective

    /// A look made of a colour matrix: saturation toward luma, a gain for each of red, green and
    /// blue, contrast about middle grey, and a lift of the blacks.
    private static func look(saturation: Double, gains: [Double] = [1, 1, 1], contrast: Double = 1, lift: Double = 0) -> ColorMatrix {
        var matrix = ColorMatrix.saturation(saturation)
        // Rows are B, G, R, A; gains are given red, green, blue.
        for (row, gain) in [gains[2], gains[1], gains[0]].enumerated() {
            for column in 0..<4 { matrix.rows[row][column] *= gain * contrast }
            matrix.rows[row][3] += 0.5 * (1 - contrast) + lift
        }
        return matrix
    }

    /// Apple's photo effects other than Mono, as looks in their spirit (Apple does not publish
    /// their curves): colour matrices, so that a chain of them fuses into one.
    static let photoEffects: [FilterDefinition] = [
        ("CIPhotoEffectChrome", "Photo Effect Chrome", look(saturation: 1.25, contrast: 1.1)),
        ("CIPhotoEffectFade", "Photo Effect Fade", look(saturation: 0.75, contrast: 0.8, lift: 0.06)),
        ("CIPhotoEffectInstant", "Photo Effect Instant", look(saturation: 0.85, gains: [1.06, 1, 0.9], contrast: 0.95, lift: 0.03)),
        ("CIPhotoEffectNoir", "Photo Effect Noir", look(saturation: 0, contrast: 1.35)),
        ("CIPhotoEffectProcess", "Photo Effect Process", look(saturation: 0.9, gains: [0.95, 1.02, 1.1], contrast: 1.1)),
        ("CIPhotoEffectTonal", "Photo Effect Tonal", look(saturation: 0, contrast: 0.9)),
        ("CIPhotoEffectTransfer", "Photo Effect Transfer", look(saturation: 1.1, gains: [1.08, 1, 0.88], contrast: 1.05)),
    ].map { name, displayName, matrix in
        FilterDefinition(name: name, displayName: displayName, categories: [kCICategoryColorEffect] + everyday, inputs: [.image()]) { inputs in
            colorFilter(inputs) { _ in matrix }
        }
    }

    static let vignette = FilterDefinition(
        name: "CIVignette", displayName: "Vignette", categories: [kCICategoryColorEffect] + everyday,
        inputs: [
            .image(), .scalar(kCIInputIntensityKey, "Intensity", default: 0, min: -1, max: 1),
            .scalar(kCIInputRadiusKey, "Radius", default: 1, min: 0, max: 2, type: kCIAttributeTypeScalar),
        ]
    ) { inputs in
        // Darkening that grows with the square of the distance from the middle, reaching its full
        // intensity at `radius` times half the diagonal; a negative intensity lightens.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let extent = image.extent
        let intensity = min(1, max(-1, inputs.number(kCIInputIntensityKey) ?? 0)), radius = max(0, inputs.number(kCIInputRadiusKey) ?? 1)
        guard intensity != 0, !extent.isInfinite, !extent.isNull else { return image }
        let halfDiagonal = (Double(extent.width * extent.width + extent.height * extent.height)).squareRoot() / 2
        let reach = radius * halfDiagonal, (cx, cy) = (Double(extent.midX), Double(extent.midY))
        let recipe = image.recipe
        // The factor 1 - intensity t^2, t the distance over the reach (at most 1), as libvips
        // arithmetic over the region; colours times it, kept within alpha, alpha as it was.
        return image.derived(
            .computed(
                Computation(extent: extent, isOpaque: recipe.isOpaque) { context in
                    let offset = try context.coordinates().scaled([1], plus: [-cx, -cy])
                    let squared = try (offset * offset).weighed([[1, 1]])
                    // t² is held at 1 only where the region reaches beyond the reach.
                    let r = context.region
                    let farthest = [(r.x, r.y), (r.maxX, r.y), (r.x, r.maxY), (r.maxX, r.maxY)].map {
                        (Double($0.0) - cx) * (Double($0.0) - cx) + (Double($0.1) - cy) * (Double($0.1) - cy)
                    }.max()!
                    let factor: Pixels
                    if reach <= 0 {
                        factor = try context.constant([1 - intensity])
                    } else if farthest <= reach * reach {
                        factor = try squared.scaled([-intensity / (reach * reach)], plus: [1])
                    } else {
                        factor = try min(try squared / (reach * reach), try context.constant([1])).scaled([-intensity], plus: [1])
                    }
                    let pixels = try context.pixels(recipe)
                    // A darkening (intensity 0-1) keeps colours within alpha: one product of all four bands.
                    if intensity >= 0 { return try pixels * (try Pixels.joined([factor, factor, factor, try context.constant([1])])) }
                    let alpha = try pixels.bands(3)
                    return try Pixels.joined([try min(try pixels.bands(0, 3) * factor, alpha), alpha])
                }))
    }

    /// The four corner inputs of the perspective filters, with Apple's defaults (immutable, read only).
    nonisolated(unsafe) private static let corners: [Input] = [
        .vector("inputTopLeft", "Top Left", default: CIVector(x: 118, y: 484), type: kCIAttributeTypePosition),
        .vector("inputTopRight", "Top Right", default: CIVector(x: 646, y: 507), type: kCIAttributeTypePosition),
        .vector("inputBottomRight", "Bottom Right", default: CIVector(x: 548, y: 140), type: kCIAttributeTypePosition),
        .vector("inputBottomLeft", "Bottom Left", default: CIVector(x: 155, y: 153), type: kCIAttributeTypePosition),
    ]

    /// The four corners given, top left, top right, bottom right, bottom left.
    private static func points(_ inputs: FilterInputs) -> [CGPoint] {
        zip(["inputTopLeft", "inputTopRight", "inputBottomRight", "inputBottomLeft"], corners).map { key, input in
            (inputs.vector(key) ?? (input.defaultValue as? CIVector)).map { CGPoint(x: $0.x, y: $0.y) } ?? .zero
        }
    }

    /// The map taking the unit square to a rectangle.
    static func square(to rect: CGRect) -> Projection {
        Projection(m: [[Double(rect.width), 0, Double(rect.minX)], [0, Double(rect.height), Double(rect.minY)], [0, 0, 1]])
    }

    /// The bounding box of points, in whole pixels.
    private static func bounds(_ points: [CGPoint]) -> CGRect {
        let xs = points.map(\.x), ys = points.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!).integral
    }

    static let perspectiveCorrection = FilterDefinition(
        name: "CIPerspectiveCorrection", displayName: "Perspective Correction", categories: [kCICategoryGeometryAdjustment] + everyday,
        inputs: [.image()] + corners + [.scalar("inputCrop", "Crop", default: 1, min: 0, max: 1, type: kCIAttributeTypeBoolean)]
    ) { inputs in
        // The quadrilateral the corners make is drawn into an upright rectangle as wide and tall as its longer sides.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let p = points(inputs)
        func distance(_ a: CGPoint, _ b: CGPoint) -> Double { Double(hypot(a.x - b.x, a.y - b.y)) }
        let width = max(distance(p[0], p[1]), distance(p[3], p[2])).rounded(), height = max(distance(p[0], p[3]), distance(p[1], p[2])).rounded()
        let rect = CGRect(x: 0, y: 0, width: width, height: height)
        guard width >= 1, height >= 1, let quad = Projection.squareTo(p[3], p[2], p[1], p[0]), let fromRect = square(to: rect).inverted else {
            return .empty()
        }
        let inverse = quad.after(fromRect)
        var extent = rect
        if (inputs.number("inputCrop") ?? 1) == 0, let forward = inverse.inverted, !image.extent.isInfinite, !image.extent.isNull {
            // Uncropped: everything of the image the map keeps in front of the viewer.
            let e = image.extent
            let mapped = [(e.minX, e.minY), (e.maxX, e.minY), (e.maxX, e.maxY), (e.minX, e.maxY)].compactMap { forward.apply(Double($0.0), Double($0.1)) }
            if mapped.count == 4 { extent = bounds(mapped.map { CGPoint(x: $0.0, y: $0.1) }).union(rect) }
        }
        return image.derived(.project(image.recipe, inverse: inverse, extent: extent))
    }

    static let perspectiveTransform = FilterDefinition(
        name: "CIPerspectiveTransform", displayName: "Perspective Transform", categories: [kCICategoryGeometryAdjustment] + everyday,
        inputs: [.image()] + corners
    ) { inputs in
        // The image's extent drawn into the quadrilateral the corners make.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let e = image.extent
        guard !e.isInfinite, !e.isNull, e.width > 0, e.height > 0 else { return image }
        let p = points(inputs)
        guard let quad = Projection.squareTo(p[3], p[2], p[1], p[0]), let toSquare = square(to: e).inverted, let inverse = quad.after(toSquare).inverted
        else { return .empty() }
        return image.derived(.project(image.recipe, inverse: inverse, extent: bounds(p)))
    }

    static let perspectiveTransformWithExtent = FilterDefinition(
        name: "CIPerspectiveTransformWithExtent", displayName: "Perspective Transform with Extent",
        categories: [kCICategoryGeometryAdjustment] + everyday,
        inputs: [.image(), .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 300, w: 300), type: kCIAttributeTypeRectangle)] + corners
    ) { inputs in
        // The extent given (rather than the image's) drawn into the quadrilateral the corners
        // make, the image moving with it.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let e = (inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 300, height: 300)).standardized
        guard e.minX.isFinite, e.minY.isFinite, e.width.isFinite, e.height.isFinite, e.width > 0, e.height > 0 else { return .empty() }
        let p = points(inputs)
        guard let quad = Projection.squareTo(p[3], p[2], p[1], p[0]), let toSquare = square(to: e).inverted, let inverse = quad.after(toSquare).inverted
        else { return .empty() }
        return image.derived(.project(image.recipe, inverse: inverse, extent: bounds(p)))
    }
}
