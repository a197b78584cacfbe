import Foundation

/// The eyes a stereo view holds.
public struct CMStereoViewComponents: OptionSet, Hashable, Sendable {
    /// The value's raw representation.
    public let rawValue: UInt64
    /// Creates components from their raw representation.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The left eye's view.
    public static let leftEye = CMStereoViewComponents(rawValue: 1 << 0)
    /// The right eye's view.
    public static let rightEye = CMStereoViewComponents(rawValue: 1 << 1)
}

/// How a stereo view's eyes are to be read.
public struct CMStereoViewInterpretationOptions: OptionSet, Hashable, Sendable {
    /// The value's raw representation.
    public let rawValue: UInt64
    /// Creates options from their raw representation.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The eyes as the stereo view components say.
    public static let `default` = CMStereoViewInterpretationOptions([])
    /// The eyes in the opposite order.
    public static let stereoOrderReversed = CMStereoViewInterpretationOptions(rawValue: 1 << 0)
    /// Views beyond the two eyes are present.
    public static let additionalViews = CMStereoViewInterpretationOptions(rawValue: 1 << 1)
}

/// A label on a media buffer or track: a category and one value of 64 bits (a number, flags or a
/// four-character code), such as which eye of a stereo pair a frame is.
open class CMTag: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The value a tag holds, with its kind.
    public enum Value: Hashable, Sendable {
        /// A signed 64-bit integer.
        case int64(Int64)
        /// A 64-bit floating-point number.
        case float64(Float64)
        /// A 64-bit set of flags.
        case flags(UInt64)
        /// A four-character code.
        case osType(OSType)
    }

    /// The category a tag belongs to, as Core Media names it (a four-character code).
    package let categoryCode: FourCharCode
    /// The tag's contained value.
    public final let rawTagValue: CMTag.Value

    package init(categoryCode: FourCharCode, value: CMTag.Value) {
        self.categoryCode = categoryCode
        rawTagValue = value
    }

    /// Creates a tag containing eye information for 3D video.
    public static func stereoView(_ value: CMStereoViewComponents) -> CMTypedTag<CMStereoViewComponents> {
        CMTypedTag(categoryCode: FourCharCode(fourCharacters: "eyes"), value: .flags(value.rawValue), typed: value)
    }

    /// Creates a tag containing a video layer ID.
    public static func videoLayerID(_ value: Int64) -> CMTypedTag<Int64> {
        CMTypedTag(categoryCode: FourCharCode(fourCharacters: "vlay"), value: .int64(value), typed: value)
    }

    /// Creates a tag containing information on how to interpret stereo view metadata.
    public static func stereoViewInterpretation(_ value: CMStereoViewInterpretationOptions) -> CMTypedTag<CMStereoViewInterpretationOptions> {
        CMTypedTag(categoryCode: FourCharCode(fourCharacters: "eyip"), value: .flags(value.rawValue), typed: value)
    }

    /// Tags are equal when their categories and values are.
    public static func == (lhs: CMTag, rhs: CMTag) -> Bool { lhs.categoryCode == rhs.categoryCode && lhs.rawTagValue == rhs.rawTagValue }

    /// Hashes the category and the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(categoryCode)
        hasher.combine(rawTagValue)
    }

    /// The tag's category and value, as Core Media prints them.
    public var description: String {
        let value: String
        switch rawTagValue {
        case .int64(let number): value = "\(number)"
        case .float64(let number): value = "\(number)"
        case .flags(let flags): value = "0x" + String(flags, radix: 16)
        case .osType(let code): value = "'\(code.fourCharacterString)'"
        }
        return "{category:'\(categoryCode.fourCharacterString)' value:\(value)}"
    }
}

/// A tag whose value is of a known type.
public final class CMTypedTag<Value>: CMTag, @unchecked Sendable {
    /// The tag's value, of its type.
    public let value: Value

    init(categoryCode: FourCharCode, value raw: CMTag.Value, typed: Value) {
        value = typed
        super.init(categoryCode: categoryCode, value: raw)
    }
}
