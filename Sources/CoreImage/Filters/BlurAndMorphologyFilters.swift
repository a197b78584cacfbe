import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The box, disc and median blurs and the rectangle morphology filters.
    static let blurAndMorphologyFilters: [FilterDefinition] = [
        boxBlur, discBlur, medianFilter, morphologyRectangle("CIMorphologyRectangleMaximum", "Morphology Rectangle Maximum", .maximum),
        morphologyRectangle("CIMorphologyRectangleMinimum", "Morphology Rectangle Minimum", .minimum),
    ]

    private static let blurCategories = [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn]

    /// The largest reach a kernel is given, in pixels: a radius beyond it is taken as it. The box
    /// costs a pixel two passes of its side; the disc and the rank windows cost their area, so
    /// they are held to Apple's slider ranges (a disc of radius 100, windows of 49 pixels).
    private static let largestReach = 500.0
    private static let largestDisc = 100.0
    private static let largestWindow = 49.0

    static let boxBlur = FilterDefinition(
        name: "CIBoxBlur", displayName: "Box Blur", categories: blurCategories,
        inputs: [.image(), .scalar(kCIInputRadiusKey, "Radius", default: 10, min: 1, sliderMax: 100, type: kCIAttributeTypeDistance)]
    ) { inputs in
        // The mean of the square of side 2 radius + 1 around each pixel.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let reach = Int(min(largestReach, max(0, inputs.number(kCIInputRadiusKey) ?? 10)).rounded())
        return reach == 0 ? image : image.derived(.convolve(image.recipe, .box(reach: reach)))
    }

    static let discBlur = FilterDefinition(
        name: "CIDiscBlur", displayName: "Disc Blur", categories: blurCategories,
        inputs: [.image(), .scalar(kCIInputRadiusKey, "Radius", default: 8, min: 0, sliderMax: 100, type: kCIAttributeTypeDistance)]
    ) { inputs in
        // The mean of the pixels whose centres lie within the radius.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let radius = min(largestDisc, max(0, inputs.number(kCIInputRadiusKey) ?? 8))
        return radius < 1 ? image : image.derived(.convolve(image.recipe, .disc(radius: radius)))
    }

    static let medianFilter = FilterDefinition(
        name: "CIMedianFilter", displayName: "Median", categories: [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image()]
    ) { inputs in
        // Each band the median of the 3 x 3 pixels around.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        return image.derived(.rank(image.recipe, width: 3, height: 3, .median))
    }

    /// A rectangle morphology filter: the maximum (dilation) or minimum (erosion) of each band
    /// over a window of odd width and height.
    private static func morphologyRectangle(_ name: String, _ displayName: String, _ rank: Rank) -> FilterDefinition {
        FilterDefinition(
            name: name, displayName: displayName, categories: [kCICategoryBlur, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: [
                .image(), .scalar(kCIInputWidthKey, "Width", default: 5, min: 1, sliderMax: 49),
                .scalar("inputHeight", "Height", default: 5, min: 1, sliderMax: 49),
            ]
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            // Rounded to the nearest odd number of pixels, as Apple's are.
            func odd(_ value: Double?) -> Int {
                let size = min(largestWindow, max(1, value ?? 5))
                return 2 * Int(((size - 1) / 2).rounded()) + 1
            }
            let (width, height) = (odd(inputs.number(kCIInputWidthKey)), odd(inputs.number("inputHeight")))
            return width == 1 && height == 1 ? image : image.derived(.rank(image.recipe, width: width, height: height, rank))
        }
    }
}
