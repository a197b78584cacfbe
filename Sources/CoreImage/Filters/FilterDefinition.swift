import CoreGraphics
import Foundation

/// What a built-in filter is: its name, categories, inputs with their defaults and ranges, and
/// the recipe it makes of them.
struct FilterDefinition: @unchecked Sendable {
    /// One input of a filter, as its attributes describe it.
    struct Input {
        var key: String
        var className: String
        var defaultValue: Any?
        var minimum: Double?
        var maximum: Double?
        var sliderMinimum: Double?
        var sliderMaximum: Double?
        var type: String?
        var displayName: String

        static func image(_ key: String = kCIInputImageKey, _ displayName: String = "Image") -> Input {
            Input(key: key, className: "CIImage", displayName: displayName)
        }

        static func scalar(
            _ key: String, _ displayName: String, default value: Double, min: Double? = nil, max: Double? = nil, sliderMin: Double? = nil,
            sliderMax: Double? = nil, type: String = kCIAttributeTypeScalar
        ) -> Input {
            Input(
                key: key, className: "NSNumber", defaultValue: NSNumber(value: value), minimum: min, maximum: max, sliderMinimum: sliderMin ?? min,
                sliderMaximum: sliderMax ?? max, type: type, displayName: displayName)
        }

        static func vector(_ key: String, _ displayName: String, default value: CIVector?, type: String? = nil) -> Input {
            Input(key: key, className: "CIVector", defaultValue: value, type: type, displayName: displayName)
        }

        /// The input's attribute dictionary.
        var attributes: [String: Any] {
            var attributes: [String: Any] = [kCIAttributeClass: className, kCIAttributeDisplayName: displayName]
            if let defaultValue { attributes[kCIAttributeDefault] = defaultValue }
            if let minimum { attributes[kCIAttributeMin] = NSNumber(value: minimum) }
            if let maximum { attributes[kCIAttributeMax] = NSNumber(value: maximum) }
            if let sliderMinimum { attributes[kCIAttributeSliderMin] = NSNumber(value: sliderMinimum) }
            if let sliderMaximum { attributes[kCIAttributeSliderMax] = NSNumber(value: sliderMaximum) }
            if let type { attributes[kCIAttributeType] = type }
            return attributes
        }
    }

    var name: String
    var displayName: String
    var categories: [String]
    var inputs: [Input]
    /// The output image for a set of inputs; nil when one it needs is missing.
    var output: (FilterInputs) -> CIImage?

    /// The filter's attribute dictionary.
    var attributes: [String: Any] {
        var attributes: [String: Any] = [
            kCIAttributeFilterName: name, kCIAttributeFilterDisplayName: displayName, kCIAttributeFilterCategories: categories,
        ]
        for input in inputs { attributes[input.key] = input.attributes }
        return attributes
    }
}
