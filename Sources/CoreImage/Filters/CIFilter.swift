import CoreGraphics
import Foundation

/// An image processor that produces an image by manipulating one or more input images or by
/// generating new image data.
///
/// A filter is made by name (`CIFilter(name: "CIGaussianBlur")`) or through its typed form
/// (`CIFilter.gaussianBlur()`); its inputs are set by key, and `outputImage` is a recipe over the
/// inputs, evaluated only when a context renders it. `filterNames(inCategory:)` lists the filters
/// built in here. Thread-safe.
open class CIFilter: NSObject, @unchecked Sendable {
    let definition: FilterDefinition
    private let lock = NSLock()
    private var inputs: [String: Any] = [:]

    init(definition: FilterDefinition) {
        self.definition = definition
        super.init()
        setDefaults()
    }

    /// Creates a filter of a built-in type by name; nil for a name this system does not have.
    public convenience init?(name: String) {
        guard let definition = FilterDefinition.builtIn[name] else { return nil }
        self.init(definition: definition)
    }

    /// Creates a filter of a built-in type by name, with its inputs set from `params`.
    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// The name of the filter.
    open var name: String { definition.name }

    /// The names of the filter's inputs.
    open var inputKeys: [String] { definition.inputs.map(\.key) }

    /// The names of the filter's outputs.
    open var outputKeys: [String] { [kCIOutputImageKey] }

    /// The filter's attributes: its name, display name and categories, and for each input its
    /// class, default, range and type.
    open var attributes: [String: Any] { definition.attributes }

    /// Sets every input to its default value (inputs with none are cleared).
    open func setDefaults() {
        lock.withLock {
            inputs = [:]
            for input in definition.inputs { if let value = input.defaultValue { inputs[input.key] = value } }
        }
    }

    /// Sets an input by key; a key the filter does not have is kept but not used.
    open func setValue(_ value: Any?, forKey key: String) {
        lock.withLock { inputs[key] = value }
    }

    /// The value of an input by key, or of `outputImage` by its key.
    open func value(forKey key: String) -> Any? {
        if key == kCIOutputImageKey { return outputImage }
        return lock.withLock { inputs[key] }
    }

    /// Sets inputs from a dictionary of keys and values.
    open func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value, forKey: key) }
    }

    /// The image the filter makes of its inputs, as a recipe; nil when an input it needs is missing.
    open var outputImage: CIImage? {
        let inputs = lock.withLock { self.inputs }
        return definition.output(FilterInputs(values: inputs))
    }

    /// The names of the built-in filters in a category; all of them for nil.
    open class func filterNames(inCategory category: String?) -> [String] {
        filterNames(inCategories: category.map { [$0] })
    }

    /// The names of the built-in filters in every one of `categories`; all of them for nil or none.
    open class func filterNames(inCategories categories: [String]?) -> [String] {
        FilterDefinition.builtIn.values.filter { definition in (categories ?? []).allSatisfy(definition.categories.contains) }.map(\.name).sorted()
    }

    /// The display name of a built-in filter.
    open class func localizedName(forFilterName filterName: String) -> String? { FilterDefinition.builtIn[filterName]?.displayName }

    /// A description of the filter: its name.
    open override var description: String { "<CIFilter: \(name)>" }
}

/// A filter's inputs, read as the types filters take (numbers may be any numeric type).
struct FilterInputs {
    let values: [String: Any]

    /// An input image.
    func image(_ key: String) -> CIImage? { values[key] as? CIImage }

    /// A number, from any numeric type; nil when absent, not a number, or not finite.
    func number(_ key: String) -> Double? {
        let value: Double?
        switch values[key] {
        case let number as NSNumber: value = number.doubleValue
        case let number as Double: value = number
        case let number as Float: value = Double(number)
        case let number as CGFloat: value = Double(number)
        case let number as Int: value = Double(number)
        default: value = nil
        }
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A vector.
    func vector(_ key: String) -> CIVector? { values[key] as? CIVector }

    /// A colour.
    func color(_ key: String) -> CIColor? { values[key] as? CIColor }

    /// An affine transform, given as itself or as a vector of six values.
    func transform(_ key: String) -> CGAffineTransform? {
        switch values[key] {
        case let transform as CGAffineTransform: return transform
        case let vector as CIVector: return vector.cgAffineTransformValue
        default: return nil
        }
    }
}
