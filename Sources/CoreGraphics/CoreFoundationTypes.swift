import Foundation

// The Core Foundation spellings that Apple's media APIs use in Swift.
// On Linux, Core Foundation is not exposed to Swift, so each name stands for
// the Foundation or Swift type that plays its role.

/// A string reference, as Core Foundation spells it; bridged to `String`.
public typealias CFString = String
/// A reference to any Core Foundation object; any class instance.
public typealias CFTypeRef = AnyObject
/// A dictionary reference, as Core Foundation spells it; a Swift dictionary, so that `as Dictionary?`, `as? [String: Any]` and `as NSDictionary` all read it.
public typealias CFDictionary = [AnyHashable: Any]
/// A data reference, as Core Foundation spells it; bridged to `Data`.
public typealias CFData = Data
/// A mutable data reference, as Core Foundation spells it: `NSMutableData`, which writers fill.
public typealias CFMutableData = NSMutableData
/// An array reference, as Core Foundation spells it; a Swift array, so that `as? [String]` reads it.
public typealias CFArray = [Any]
/// A URL reference, as Core Foundation spells it; bridged to `URL`.
public typealias CFURL = URL
/// A Core Foundation index or count.
public typealias CFIndex = Int
/// A range of items, as Core Foundation spells it: where it starts and how many it holds.
public struct CFRange: Equatable, Sendable {
    /// The first item's index.
    public var location: CFIndex
    /// The number of items.
    public var length: CFIndex
    /// Creates an empty range at zero.
    public init() {
        location = 0
        length = 0
    }
    /// Creates a range.
    public init(location: CFIndex, length: CFIndex) {
        self.location = location
        self.length = length
    }
}

/// Creates a range.
public func CFRangeMake(_ loc: CFIndex, _ len: CFIndex) -> CFRange { CFRange(location: loc, length: len) }

/// A four-character code identifying a type or format.
public typealias FourCharCode = UInt32
/// A four-character code identifying an operating system type.
public typealias OSType = FourCharCode
/// A result code: zero for success, negative for an error.
public typealias OSStatus = Int32
/// The result code that means no error occurred.
public let noErr: OSStatus = 0

/// A memory allocator, as Core Foundation spells it; the default is `nil`.
public final class CFAllocator: Sendable {
    private init() {}
}
/// The default allocator.
public let kCFAllocatorDefault: CFAllocator? = nil

extension FourCharCode {
    /// Creates a four-character code from its four ASCII characters, such as `"420v"`.
    package init(fourCharacters string: StaticString) {
        precondition(string.utf8CodeUnitCount == 4, "a four-character code needs four characters")
        var value: UInt32 = 0
        string.withUTF8Buffer { for byte in $0 { value = (value << 8) | UInt32(byte) } }
        self = value
    }

    /// The code's four characters, or its number where they are not printable.
    package var fourCharacterString: String {
        let bytes = [24, 16, 8, 0].map { UInt8((self >> $0) & 0xFF) }
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return "\(self)"
    }
}
