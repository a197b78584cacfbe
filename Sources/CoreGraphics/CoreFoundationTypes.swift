import Foundation

// The Core Foundation spellings that Apple's media APIs use in Swift.
// On Linux, Core Foundation is not exposed to Swift, so each name stands for the Foundation
// class that Apple's Core Foundation type is toll-free bridged to: a CF type is a class, as on
// Apple's platforms, so `Unmanaged<CFString>`, `unsafeBitCast(_:to: CFDictionary.self)` and the
// C-style functions in CoreFoundationFunctions.swift work, while `as String`, `as NSString`,
// `as CFDictionary` and `as? [String: Any]` bridge as they do there.

/// A string reference, as Core Foundation spells it: `NSString`, bridged to `String` with `as`.
public typealias CFString = NSString
/// A mutable string reference, as Core Foundation spells it.
public typealias CFMutableString = NSMutableString
/// A reference to any Core Foundation object; any class instance.
public typealias CFTypeRef = AnyObject
/// A property list object (a string, number, date, data, array or dictionary), as Core Foundation spells it.
public typealias CFPropertyList = AnyObject
/// A dictionary reference, as Core Foundation spells it: `NSDictionary`, which `as? [String: Any]` reads.
public typealias CFDictionary = NSDictionary
/// A mutable dictionary reference, as Core Foundation spells it.
public typealias CFMutableDictionary = NSMutableDictionary
/// A data reference, as Core Foundation spells it: `NSData`, bridged to `Data` with `as`.
public typealias CFData = NSData
/// A mutable data reference, as Core Foundation spells it: `NSMutableData`, which writers fill.
public typealias CFMutableData = NSMutableData
/// An array reference, as Core Foundation spells it: `NSArray`, which `as? [String]` reads.
public typealias CFArray = NSArray
/// A mutable array reference, as Core Foundation spells it.
public typealias CFMutableArray = NSMutableArray
/// A number reference, as Core Foundation spells it: `NSNumber`.
public typealias CFNumber = NSNumber
/// A Boolean reference, as Core Foundation spells it: one of the two `NSNumber`s `kCFBooleanTrue` and `kCFBooleanFalse`.
public typealias CFBoolean = NSNumber
/// A URL reference, as Core Foundation spells it: `NSURL`, bridged to `URL` with `as`.
public typealias CFURL = NSURL
/// A time interval in seconds, as Core Foundation spells it.
public typealias CFTimeInterval = Double
/// A time in seconds since the first instant of 1 January 2001, GMT.
public typealias CFAbsoluteTime = CFTimeInterval
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
/// The system's default allocator.
public let kCFAllocatorSystemDefault: CFAllocator? = nil
/// The allocator that uses malloc and free.
public let kCFAllocatorMalloc: CFAllocator? = nil
/// The allocator that neither allocates nor frees: memory given with it stays the caller's (block
/// buffers here copy such memory, so the caller may free it as soon as the call returns).
public let kCFAllocatorNull: CFAllocator? = nil

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
