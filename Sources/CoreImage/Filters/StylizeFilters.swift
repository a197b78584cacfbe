import CoreGraphics
import Foundation

extension FilterDefinition {
    /// Pixellate, motion blur and luminance sharpening.
    static let stylizeFilters: [FilterDefinition] = [pixellate, motionBlur, sharpenLuminance]

    static let pixellate = FilterDefinition(
        name: "CIPixellate", displayName: "Pixellate", categories: [kCICategoryStylize, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .vector(kCIInputCenterKey, "Center", default: CIVector(x: 150, y: 150), type: kCIAttributeTypePosition),
            .scalar(kCIInputScaleKey, "Scale", default: 8, min: 1, sliderMax: 100, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // Square blocks of the scale on a grid through the centre, each the mean of its pixels.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let size = Int(min(1000, max(1, inputs.number(kCIInputScaleKey) ?? 8)).rounded())
        let centre = inputs.vector(kCIInputCenterKey).map { CGPoint(x: $0.x, y: $0.y) } ?? CGPoint(x: 150, y: 150)
        guard size > 1, centre.x.isFinite, centre.y.isFinite, !image.extent.isInfinite else { return image }
        return image.derived(.crop(.pixellate(image.recipe, size: size, origin: centre), image.extent))
    }

    static let motionBlur = FilterDefinition(
        name: "CIMotionBlur", displayName: "Motion Blur", categories: [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .scalar(kCIInputRadiusKey, "Radius", default: 20, min: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
            .scalar(kCIInputAngleKey, "Angle", default: 0, sliderMin: -Double.pi, sliderMax: Double.pi, type: kCIAttributeTypeAngle),
        ]
    ) { inputs in
        // The mean along a line of the radius each way at the angle, as a camera moving that way sees.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = min(100, max(0, inputs.number(kCIInputRadiusKey) ?? 20)), angle = inputs.number(kCIInputAngleKey) ?? 0
        return radius < 0.5 ? image : image.derived(.convolve(image.recipe, .line(radius: radius, angle: angle)))
    }

    static let sharpenLuminance = FilterDefinition(
        name: "CISharpenLuminance", displayName: "Sharpen Luminance",
        categories: [kCICategorySharpen, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryBuiltIn],
        inputs: [
            .image(), .scalar(kCIInputSharpnessKey, "Sharpness", default: 0.4, min: 0, sliderMax: 2),
            .scalar(kCIInputRadiusKey, "Radius", default: 1.69, min: 0, sliderMax: 20, type: kCIAttributeTypeDistance),
        ]
    ) { inputs in
        // The image plus sharpness times the difference of its luma from its blur's luma, added to
        // red, green and blue alike, so that the colours keep their hue.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let sharpness = inputs.number(kCIInputSharpnessKey) ?? 0.4, radius = inputs.number(kCIInputRadiusKey) ?? 1.69
        guard sharpness != 0, radius > 0 else { return image }
        let extent = image.extent
        let blurred = Recipe.blur(extent.isInfinite ? image.recipe : .clamp(image.recipe), sigma: radius)
        // Luma in red, green and blue, nothing in alpha.
        let luma = [0.2126, 0.7152, 0.0722]
        let toLuma = ColorMatrix(rgbaRows: [luma + [0], luma + [0], luma + [0], [0, 0, 0, 0]])
        let detail = Recipe.mix(image.recipe.recombined(toLuma), blurred.recombined(toLuma), a: sharpness, b: -sharpness)
        let sharpened = Recipe.mix(image.recipe, detail, a: 1, b: 1)
        return image.derived(extent.isInfinite ? sharpened : .crop(sharpened, extent))
    }
}
