import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The sharpening filters.
    static let sharpenFilters: [FilterDefinition] = [unsharpMask]

    static let unsharpMask = FilterDefinition(
        name: "CIUnsharpMask", displayName: "Unsharp Mask",
        categories: [kCICategorySharpen, kCICategoryVideo, kCICategoryStillImage, kCICategoryInterlaced, kCICategoryNonSquarePixels, kCICategoryBuiltIn],
        inputs: [
            .image(), .scalar(kCIInputRadiusKey, "Radius", default: 2.5, min: 0, sliderMax: 100, type: kCIAttributeTypeDistance),
            .scalar(kCIInputIntensityKey, "Intensity", default: 0.5, min: 0, sliderMax: 1),
        ]
    ) { inputs in
        // The image plus `intensity` times its difference from its Gaussian blur of standard deviation
        // `radius`; the blur carries the image's edge pixels on, so that its border gains no halo.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = inputs.number(kCIInputRadiusKey) ?? 2.5, intensity = inputs.number(kCIInputIntensityKey) ?? 0.5
        guard radius.isFinite, radius > 0, intensity.isFinite, intensity != 0 else { return image }
        let extent = image.extent
        let sharpened = Recipe.unsharp(image.recipe, sigma: radius, amount: intensity)
        return image.derived(extent.isInfinite ? sharpened : .crop(sharpened, extent))
    }
}
