import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The filters that mix two images by an amount or through a mask, and the dissolve transition.
    static let mixingFilters: [FilterDefinition] = [mix, dissolveTransition, blendWithMask(alpha: false), blendWithMask(alpha: true)]

    private static let mixing = [kCICategoryCompositeOperation, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    static let mix = FilterDefinition(
        name: "CIMix", displayName: "Mix", categories: mixing,
        inputs: [
            .image(), .image(kCIInputBackgroundImageKey, "Background Image"), .scalar(kCIInputAmountKey, "Amount", default: 1, sliderMin: 0, sliderMax: 1),
        ]
    ) { inputs in
        // The background plus amount times the difference: 0 the background, 1 the image.
        guard let image = inputs.image(kCIInputImageKey), let background = inputs.image(kCIInputBackgroundImageKey) else { return nil }
        let amount = inputs.number(kCIInputAmountKey) ?? 1
        return image.derived(.mix(image.recipe, background.recipe, a: amount, b: 1 - amount))
    }

    static let dissolveTransition = FilterDefinition(
        name: "CIDissolveTransition", displayName: "Dissolve",
        categories: [kCICategoryTransition, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            .image(), .image(kCIInputTargetImageKey, "Target Image"), .scalar(kCIInputTimeKey, "Time", default: 0, min: 0, max: 1, type: kCIAttributeTypeTime),
        ]
    ) { inputs in
        // The image fading into the target as time goes from 0 to 1.
        guard let image = inputs.image(kCIInputImageKey), let target = inputs.image(kCIInputTargetImageKey) else { return nil }
        let time = min(1, max(0, inputs.number(kCIInputTimeKey) ?? 0))
        return image.derived(.mix(image.recipe, target.recipe, a: 1 - time, b: time))
    }

    /// CIBlendWithMask (the mask's luma) or CIBlendWithAlphaMask (its alpha): the image where the
    /// mask is, the background where it is not.
    private static func blendWithMask(alpha: Bool) -> FilterDefinition {
        FilterDefinition(
            name: alpha ? "CIBlendWithAlphaMask" : "CIBlendWithMask", displayName: alpha ? "Blend With Alpha Mask" : "Blend With Mask",
            categories: mixing,
            inputs: [.image(), .image(kCIInputBackgroundImageKey, "Background Image"), .image(kCIInputMaskImageKey, "Mask Image")]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey), let background = inputs.image(kCIInputBackgroundImageKey),
                let mask = inputs.image(kCIInputMaskImageKey)
            else { return nil }
            return image.derived(.masked(image.recipe, background: background.recipe, mask: mask.recipe, byAlpha: alpha))
        }
    }
}
