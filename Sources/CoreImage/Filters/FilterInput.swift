import CoreGraphics
import Foundation

/// A value a typed filter's property holds, read from and written to the filter's input by key.
protocol FilterInputValue {
    /// The input's value as this type; its zero where the input is missing or of another type.
    static func read(_ key: String, of filter: CIFilter) -> Self
    /// Sets the input to this value.
    func write(_ key: String, to filter: CIFilter)
}

extension Float: FilterInputValue {
    static func read(_ key: String, of filter: CIFilter) -> Float { filter.float(key) }
    func write(_ key: String, to filter: CIFilter) { filter.setFloat(self, key) }
}

extension Int: FilterInputValue {
    static func read(_ key: String, of filter: CIFilter) -> Int { Int(filter.float(key).rounded()) }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(NSNumber(value: self), forKey: key) }
}

extension Bool: FilterInputValue {
    static func read(_ key: String, of filter: CIFilter) -> Bool { filter.float(key) != 0 }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(NSNumber(value: self), forKey: key) }
}

extension CGPoint: FilterInputValue {
    static func read(_ key: String, of filter: CIFilter) -> CGPoint {
        let vector = filter.vector(key)
        return CGPoint(x: vector.x, y: vector.y)
    }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(CIVector(cgPoint: self), forKey: key) }
}

extension CGRect: FilterInputValue {
    static func read(_ key: String, of filter: CIFilter) -> CGRect { filter.vector(key).cgRectValue }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(CIVector(cgRect: self), forKey: key) }
}

extension CIVector: FilterInputValue {
    // Typed properties are declared as CIVector itself, for which the cast cannot fail.
    static func read(_ key: String, of filter: CIFilter) -> Self { filter.vector(key) as! Self }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(self, forKey: key) }
}

extension CIColor: FilterInputValue {
    // Typed properties are declared as CIColor itself, for which the cast cannot fail.
    static func read(_ key: String, of filter: CIFilter) -> Self { filter.color(key) as! Self }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(self, forKey: key) }
}

extension Data: FilterInputValue {
    static func read(_ key: String, of filter: CIFilter) -> Data { Data(bytesOf: filter.value(forKey: key)) ?? Data() }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(self, forKey: key) }
}

extension Optional: FilterInputValue where Wrapped == CIImage {
    static func read(_ key: String, of filter: CIFilter) -> CIImage? { filter.value(forKey: key) as? CIImage }
    func write(_ key: String, to filter: CIFilter) { filter.setValue(self, forKey: key) }
}

/// A typed filter's property that reads and writes its input by Apple's key: `@Input("inputRadius") var radius: Float`.
@propertyWrapper
struct Input<Value: FilterInputValue>: Sendable {
    let key: String

    init(_ key: String) { self.key = key }

    @available(*, unavailable, message: "an input is a property of a filter")
    var wrappedValue: Value {
        get { fatalError("an input is a property of a filter") }
        set { fatalError("an input is a property of a filter") }
    }

    static subscript<Filter: CIFilter>(
        _enclosingInstance filter: Filter, wrapped value: ReferenceWritableKeyPath<Filter, Value>, storage input: ReferenceWritableKeyPath<Filter, Self>
    ) -> Value {
        get { Value.read(filter[keyPath: input].key, of: filter) }
        set { newValue.write(filter[keyPath: input].key, to: filter) }
    }
}
