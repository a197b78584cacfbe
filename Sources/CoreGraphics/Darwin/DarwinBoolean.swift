/// The Boolean type of Core Foundation and older C interfaces (`Boolean`), as Swift's Darwin
/// overlay spells it: functions such as `AudioQueueGetCurrentTime` return one.
@frozen
public struct DarwinBoolean: ExpressibleByBooleanLiteral, CustomStringConvertible, Hashable, Sendable {
    private var value: UInt8

    /// Creates a value from a Swift Boolean.
    public init(_ value: Bool) { self.value = value ? 1 : 0 }

    /// Creates a value from a Boolean literal.
    public init(booleanLiteral value: Bool) { self.init(value) }

    /// The value as a Swift Boolean.
    public var boolValue: Bool { value != 0 }

    /// `true` or `false`.
    public var description: String { boolValue.description }

    /// Whether two values are both true or both false.
    public static func == (lhs: DarwinBoolean, rhs: DarwinBoolean) -> Bool { lhs.boolValue == rhs.boolValue }

    /// Hashes the value as a Swift Boolean.
    public func hash(into hasher: inout Hasher) { hasher.combine(boolValue) }
}

extension Bool {
    /// Creates a Swift Boolean from a Darwin one.
    public init(_ value: DarwinBoolean) { self = value.boolValue }
}
