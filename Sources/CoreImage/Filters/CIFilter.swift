import CoreGraphics
import Foundation

/// An image processor that produces an image by manipulating one or more input images or by
/// generating new image data.
///
/// A filter is made by name (`CIFilter(name: "CIGaussianBlur")`) or through its typed form
/// (`CIFilter.gaussianBlur()`); its inputs are set by key, and `outputImage` is a recipe over the
/// inputs, evaluated only when a context renders it. `filterNames(inCategory:)` lists the filters
/// built in here, and those an app registers with `registerName(_:constructor:classAttributes:)`.
///
/// A custom filter subclasses `CIFilter`, keeps its inputs in properties named `input...` and
/// overrides `outputImage`; where Apple's platforms set such properties by key-value coding, a
/// subclass here overrides `setValue(_:forKey:)` to set them (reading them by key works as it is).
/// Thread-safe.
open class CIFilter: NSObject, @unchecked Sendable {
    let definition: FilterDefinition
    private let lock = NSLock()
    private var inputs: [String: Any] = [:]
    /// The filter a registered constructor made, which a filter made by its name stands for.
    private var constructed: CIFilter?

    init(definition: FilterDefinition) {
        self.definition = definition
        super.init()
        setDefaults()
    }

    /// Creates a filter for a subclass: a custom filter named after its class, whose inputs are
    /// its subclass's and whose image is its subclass's `outputImage`.
    public override init() {
        definition = FilterDefinition(name: "", displayName: "", categories: [], inputs: []) { _ in nil }
        super.init()
    }

    /// Creates a filter of a built-in or registered type by name; nil for a name this system does not have.
    public convenience init?(name: String) {
        if let definition = FilterDefinition.builtIn[name] {
            self.init(definition: definition)
            return
        }
        guard let registered = RegisteredFilters.table.withLock({ $0[name] }), let made = registered.constructor.filter(withName: name) else {
            return nil
        }
        self.init(definition: FilterDefinition(name: name, displayName: name, categories: [], inputs: []) { _ in nil })
        constructed = made
    }

    /// Registers the name of a filter that a constructor makes, with the attributes of its class
    /// (its categories and display name among them), so that `init(name:)` and
    /// `filterNames(inCategory:)` find it.
    open class func registerName(_ name: String, constructor anObject: any CIFilterConstructor, classAttributes attributes: [String: Any] = [:]) {
        RegisteredFilters.table.withLock { $0[name] = RegisteredFilters.Entry(constructor: anObject, attributes: attributes) }
    }

    /// Creates a filter of a built-in type by name, with its inputs set from `params`.
    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// The name of the filter.
    open var name: String {
        if let constructed { return definition.name.isEmpty ? constructed.name : definition.name }
        return definition.name.isEmpty ? String(describing: type(of: self)) : definition.name
    }

    /// The names of the filter's inputs (a subclass's: its properties whose names begin with "input").
    open var inputKeys: [String] {
        if let constructed { return constructed.inputKeys }
        guard definition.name.isEmpty else { return definition.inputs.map(\.key) }
        return subclassProperties.map(\.key).filter { $0.hasPrefix("input") }
    }

    /// The names of the filter's outputs.
    open var outputKeys: [String] { constructed?.outputKeys ?? [kCIOutputImageKey] }

    /// The filter's attributes: its name, display name and categories, and for each input its
    /// class, default, range and type (a registered filter's: the attributes of its class).
    open var attributes: [String: Any] {
        if constructed != nil, let registered = RegisteredFilters.table.withLock({ $0[definition.name] }) {
            var attributes = constructed?.attributes ?? [:]
            for (key, value) in registered.attributes { attributes[key] = value }
            attributes[kCIAttributeFilterName] = definition.name
            return attributes
        }
        guard definition.name.isEmpty else { return definition.attributes }
        return [kCIAttributeFilterName: name, kCIAttributeFilterDisplayName: name, kCIAttributeFilterCategories: [String]()]
    }

    /// The stored properties of a subclass, by name.
    private var subclassProperties: [(key: String, value: Any)] {
        var properties: [(key: String, value: Any)] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror, current.subjectType != CIFilter.self {
            for child in current.children { if let label = child.label { properties.append((label, child.value)) } }
            mirror = current.superclassMirror
        }
        return properties
    }

    /// Sets every input to its default value (inputs with none are cleared).
    open func setDefaults() {
        if let constructed { return constructed.setDefaults() }
        lock.withLock {
            inputs = [:]
            for input in definition.inputs { if let value = input.defaultValue { inputs[input.key] = value } }
        }
    }

    /// Sets an input by key; a key the filter does not have is kept but not used.
    open func setValue(_ value: Any?, forKey key: String) {
        if let constructed { return constructed.setValue(value, forKey: key) }
        lock.withLock { inputs[key] = value }
    }

    /// The value of an input by key (a subclass's property of that name), or of `outputImage` by its key.
    open func value(forKey key: String) -> Any? {
        if let constructed { return constructed.value(forKey: key) }
        if key == kCIOutputImageKey { return outputImage }
        if let value = lock.withLock({ inputs[key] }) { return value }
        guard definition.name.isEmpty, let property = subclassProperties.first(where: { $0.key == key }) else { return nil }
        // An optional property that holds nothing is no value.
        if let optional = property.value as? OptionalValue { return optional.wrapped }
        return property.value
    }

    /// Sets inputs from a dictionary of keys and values.
    open func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value, forKey: key) }
    }

    /// The image the filter makes of its inputs, as a recipe; nil when an input it needs is missing.
    open var outputImage: CIImage? {
        if let constructed { return constructed.outputImage }
        let inputs = lock.withLock { self.inputs }
        return definition.output(FilterInputs(values: inputs))
    }

    /// The names of the built-in filters in a category; all of them for nil.
    open class func filterNames(inCategory category: String?) -> [String] {
        filterNames(inCategories: category.map { [$0] })
    }

    /// The names of the built-in and registered filters in every one of `categories`; all of them for nil or none.
    open class func filterNames(inCategories categories: [String]?) -> [String] {
        let builtIn = FilterDefinition.builtIn.values.filter { definition in (categories ?? []).allSatisfy(definition.categories.contains) }.map(\.name)
        let registered = RegisteredFilters.table.withLock { table in
            table.filter { _, entry in
                let own = entry.attributes[kCIAttributeFilterCategories] as? [String] ?? []
                return (categories ?? []).allSatisfy(own.contains)
            }.map(\.key)
        }
        return Array(Set(builtIn + registered)).sorted()
    }

    /// The display name of a built-in or registered filter.
    open class func localizedName(forFilterName filterName: String) -> String? {
        if let builtIn = FilterDefinition.builtIn[filterName] { return builtIn.displayName }
        return RegisteredFilters.table.withLock { table in
            table[filterName].map { $0.attributes[kCIAttributeFilterDisplayName] as? String ?? filterName }
        }
    }

    /// A description of the filter: its name.
    open override var description: String { "<CIFilter: \(name)>" }
}

/// A general interface for objects that produce filters.
public protocol CIFilterConstructor {
    /// Returns a filter object specified by name.
    func filter(withName name: String) -> CIFilter?
}

/// The filters an app registered by name, with their constructors and class attributes.
enum RegisteredFilters {
    struct Entry: @unchecked Sendable {
        let constructor: any CIFilterConstructor
        let attributes: [String: Any]
    }

    static let table = LockedValue<[String: Entry]>([:])
}

/// An optional seen through `Any`, so that a property holding nothing reads as no value.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { self.map { $0 as Any } }
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
