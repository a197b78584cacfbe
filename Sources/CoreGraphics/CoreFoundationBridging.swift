import Foundation

// How the project's own code reads the Core Foundation values Apple's API hands it: attribute and
// property dictionaries keyed by CFString constants. Package-internal: Apple's code spells
// these conversions out (`key as String`, `as? [String: Any]`), and so must code that uses ours.

extension Dictionary where Key == String {
    /// The value for a Core Foundation string key, such as `kCVPixelBufferWidthKey`.
    package subscript(key: NSString) -> Value? {
        get { self[key as String] }
        set { self[key as String] = newValue }
    }
}

extension NSDictionary {
    /// The dictionary's entries under string keys, as Swift values; entries under other keys are left out.
    package var stringKeyed: [String: Any] {
        if let bridged = self as? [String: Any] { return bridged }
        var result: [String: Any] = [:]
        for (key, value) in self {
            if let key = key as? String { result[key] = value }
        }
        return result
    }
}

// Apple's Foundation makes a string object and the Swift string it bridges to the same
// `AnyHashable`, so that a `[AnyHashable: Any]` read from a CF dictionary answers to a CFString
// key (`properties[kCGImagePropertyOrientation]`); Linux's Foundation does not, and CF strings are
// string objects here too.
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The string's `AnyHashable` representation: the Swift string it bridges to, as on Apple's platforms.
    public func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(self as String) }
}

extension Data {
    /// The bytes of `data`, copied at once: on Linux, Foundation's `data as Data` copies an `NSData`
    /// one byte at a time (a quarter of a second for 2 MB), so the project's own code never bridges one.
    package init(copying data: NSData) { self.init(bytes: data.bytes, count: data.length) }

    /// A value that is `Data` or an `NSData` (a `CFData`), as `Data`; nil for anything else.
    package init?(bytesOf value: Any?) {
        guard let value else { return nil }
        if type(of: value) == Data.self, let data = value as? Data {
            self = data
        } else if let data = value as? NSData {
            self.init(copying: data)
        } else {
            return nil
        }
    }
}
