import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The filters that reduce a region of an image to a few values.
    static let reductionFilters: [FilterDefinition] = [areaAverage]

    static let areaAverage = FilterDefinition(
        name: "CIAreaAverage", displayName: "Area Average", categories: [kCICategoryReduction, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [.image(), .vector(kCIInputExtentKey, "Extent", default: CIVector(x: 0, y: 0, z: 640, w: 80), type: kCIAttributeTypeRectangle)]
    ) { inputs in
        // One pixel at the region's origin holding the mean of each band (premultiplied, as the
        // image's pixels are) over the region; what lies outside the image counts as transparent.
        guard let image = inputs.image(kCIInputImageKey) else { return nil }
        let rect = inputs.vector(kCIInputExtentKey)?.cgRectValue ?? CGRect(x: 0, y: 0, width: 640, height: 80)
        guard rect.width.isFinite, rect.height.isFinite, rect.minX.isFinite, rect.minY.isFinite, rect.width >= 1, rect.height >= 1 else { return .empty() }
        return image.derived(.areaAverage(image.recipe, rect))
    }
}
