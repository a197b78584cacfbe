import Foundation

/// A type of Apple's string constants (`AVMetadataKey`, `AVMediaType`, `AVCaptureSession.Preset`,
/// ...) that bridges to `NSString`, as those types do on Apple's platforms, so that
/// `AVMetadataKey.commonKeyLocation as NSString` compiles and gives the key's string.
public protocol _StringConstantBridging: RawRepresentable, _ObjectiveCBridgeable where RawValue == String, _ObjectiveCType == NSString {}

extension _StringConstantBridging {
    /// The constant's string as an `NSString`.
    public func _bridgeToObjectiveC() -> NSString { NSString(string: rawValue) }

    /// The constant named by `source`.
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout Self?) {
        result = Self(rawValue: String(source))
    }

    /// The constant named by `source`; whether there is one.
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout Self?) -> Bool {
        result = Self(rawValue: String(source))
        return result != nil
    }

    /// The constant named by `source`, or by the empty string.
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> Self {
        guard let value = Self(rawValue: source.map { String($0) } ?? "") else {
            preconditionFailure("\(Self.self) has no constant \(source.map { String($0) } ?? "nil")")
        }
        return value
    }
}
