import Foundation

// Core Foundation's C functions over the Foundation classes its types stand for here, as C-style
// Swift code calls them: values passed and returned as raw pointers to objects
// (`Unmanaged.passUnretained(key).toOpaque()`, `unsafeBitCast(_:to:)`), type IDs, numbers read
// into memory. A value a function returns by pointer lives as long as the collection holding it,
// as Core Foundation's "Get" rule says.

/// A Core Foundation type's identifier, which `CFGetTypeID(_:)` returns.
public typealias CFTypeID = UInt
/// A hash value, as Core Foundation spells it.
public typealias CFHashCode = UInt
/// A string encoding, as Core Foundation numbers them.
public typealias CFStringEncoding = UInt32

/// The string encodings every Core Foundation implementation supports.
public enum CFStringBuiltInEncodings: CFStringEncoding, Sendable {
    /// Mac OS Roman.
    case macRoman = 0
    /// Windows Latin 1.
    case windowsLatin1 = 0x0500
    /// ISO Latin 1.
    case isoLatin1 = 0x0201
    /// NextStep's encoding.
    case nextStepLatin = 0x0B01
    /// 7-bit ASCII.
    case ASCII = 0x0600
    /// UTF-16 in the machine's byte order.
    case unicode = 0x0100
    /// UTF-8.
    case UTF8 = 0x0800_0100
    /// 8-bit ASCII without checking.
    case nonLossyASCII = 0x0BFF
    /// UTF-16, big-endian.
    case UTF16BE = 0x1000_0100
    /// UTF-16, little-endian.
    case UTF16LE = 0x1400_0100
    /// UTF-32 in the machine's byte order.
    case UTF32 = 0x0C00_0100
    /// UTF-32, big-endian.
    case UTF32BE = 0x1800_0100
    /// UTF-32, little-endian.
    case UTF32LE = 0x1C00_0100
}

/// The type of a number's value, for reading and creating numbers.
public enum CFNumberType: Int, Sendable {
    /// An 8-bit signed integer.
    case sInt8Type = 1
    /// A 16-bit signed integer.
    case sInt16Type = 2
    /// A 32-bit signed integer.
    case sInt32Type = 3
    /// A 64-bit signed integer.
    case sInt64Type = 4
    /// A 32-bit floating-point number.
    case float32Type = 5
    /// A 64-bit floating-point number.
    case float64Type = 6
    /// C's `char`.
    case charType = 7
    /// C's `short`.
    case shortType = 8
    /// C's `int`.
    case intType = 9
    /// C's `long`.
    case longType = 10
    /// C's `long long`.
    case longLongType = 11
    /// C's `float`.
    case floatType = 12
    /// C's `double`.
    case doubleType = 13
    /// `CFIndex`.
    case cfIndexType = 14
    /// `NSInteger`.
    case nsIntegerType = 15
    /// `CGFloat`.
    case cgFloatType = 16

    /// The largest type number.
    public static var maxType: CFNumberType { .cgFloatType }
}

/// The callbacks a dictionary uses on its keys; Foundation's dictionaries retain and compare objects as Core Foundation's default callbacks do.
public struct CFDictionaryKeyCallBacks: Sendable {
    /// The structure's version: 0.
    public var version: CFIndex
    /// Creates the callbacks of a dictionary of Core Foundation objects.
    public init() { version = 0 }
}

/// The callbacks a dictionary uses on its values; Foundation's dictionaries retain and compare objects as Core Foundation's default callbacks do.
public struct CFDictionaryValueCallBacks: Sendable {
    /// The structure's version: 0.
    public var version: CFIndex
    /// Creates the callbacks of a dictionary of Core Foundation objects.
    public init() { version = 0 }
}

/// The callbacks an array uses on its values; Foundation's arrays retain and compare objects as Core Foundation's default callbacks do.
public struct CFArrayCallBacks: Sendable {
    /// The structure's version: 0.
    public var version: CFIndex
    /// Creates the callbacks of an array of Core Foundation objects.
    public init() { version = 0 }
}

/// The key callbacks of a dictionary of Core Foundation objects.
nonisolated(unsafe) public var kCFTypeDictionaryKeyCallBacks = CFDictionaryKeyCallBacks()
/// The key callbacks of a dictionary whose string keys are copied.
nonisolated(unsafe) public var kCFCopyStringDictionaryKeyCallBacks = CFDictionaryKeyCallBacks()
/// The value callbacks of a dictionary of Core Foundation objects.
nonisolated(unsafe) public var kCFTypeDictionaryValueCallBacks = CFDictionaryValueCallBacks()
/// The callbacks of an array of Core Foundation objects.
nonisolated(unsafe) public var kCFTypeArrayCallBacks = CFArrayCallBacks()

/// The Boolean true value.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// The Boolean false value.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)
/// The null object, for collections that must hold one.
public let kCFNull: NSNull! = NSNull()

// MARK: - Type identifiers

/// The type identifier of strings.
@discardableResult
public func CFStringGetTypeID() -> CFTypeID { 7 }
/// The type identifier of the null object.
@discardableResult
public func CFNullGetTypeID() -> CFTypeID { 16 }
/// The type identifier of dictionaries.
@discardableResult
public func CFDictionaryGetTypeID() -> CFTypeID { 18 }
/// The type identifier of arrays.
@discardableResult
public func CFArrayGetTypeID() -> CFTypeID { 19 }
/// The type identifier of data objects.
@discardableResult
public func CFDataGetTypeID() -> CFTypeID { 20 }
/// The type identifier of Booleans.
@discardableResult
public func CFBooleanGetTypeID() -> CFTypeID { 21 }
/// The type identifier of numbers.
@discardableResult
public func CFNumberGetTypeID() -> CFTypeID { 22 }
/// The type identifier of URLs.
@discardableResult
public func CFURLGetTypeID() -> CFTypeID { 29 }
/// The type identifier of dates.
@discardableResult
public func CFDateGetTypeID() -> CFTypeID { 42 }

/// Returns the type identifier of an object: a Core Foundation type's, or the identifier its class was given.
@discardableResult
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    switch cf {
    case let number as NSNumber: number === kCFBooleanTrue || number === kCFBooleanFalse ? CFBooleanGetTypeID() : CFNumberGetTypeID()
    case is NSString: CFStringGetTypeID()
    case is NSDictionary: CFDictionaryGetTypeID()
    case is NSArray: CFArrayGetTypeID()
    case is NSData: CFDataGetTypeID()
    case is NSURL: CFURLGetTypeID()
    case is NSDate: CFDateGetTypeID()
    case is NSNull: CFNullGetTypeID()
    case let object?: CoreFoundationTypeIDs.shared.identifier(of: type(of: object))
    case nil: 0
    }
}

/// The type identifiers given to classes that are not Core Foundation's own (images, pixel buffers, sample buffers, ...).
package final class CoreFoundationTypeIDs: @unchecked Sendable {
    /// The identifiers given so far.
    package static let shared = CoreFoundationTypeIDs()
    private let lock = NSLock()
    private var identifiers: [ObjectIdentifier: CFTypeID] = [:]

    /// The identifier of a class, the same for the life of the process.
    package func identifier(of type: AnyClass) -> CFTypeID {
        lock.withLock {
            if let known = identifiers[ObjectIdentifier(type)] { return known }
            let made = CFTypeID(1000 + identifiers.count)
            identifiers[ObjectIdentifier(type)] = made
            return made
        }
    }
}

// MARK: - Objects

/// Returns whether two objects are equal.
@discardableResult
public func CFEqual(_ cf1: CFTypeRef!, _ cf2: CFTypeRef!) -> Bool {
    if cf1 === cf2 { return true }
    guard let first = cf1 as? NSObject else { return false }
    return first.isEqual(cf2)
}

/// Returns an object's hash value.
@discardableResult
public func CFHash(_ cf: CFTypeRef!) -> CFHashCode {
    guard let object = cf as? NSObject else { return CFHashCode(bitPattern: ObjectIdentifier(cf).hashValue) }
    return CFHashCode(bitPattern: object.hash)
}

/// Returns a description of an object.
@discardableResult
public func CFCopyDescription(_ cf: CFTypeRef!) -> CFString! { String(describing: cf as AnyObject) as NSString }

/// Hands an object to Core Foundation code with one more retain, which `CFBridgingRelease(_:)` balances.
public func CFBridgingRetain(_ X: Any?) -> CFTypeRef? {
    guard let X else { return nil }
    return Unmanaged.passRetained(X as AnyObject).takeUnretainedValue()
}

/// Takes an object retained for Core Foundation code back into Swift's management, balancing `CFBridgingRetain(_:)`.
public func CFBridgingRelease(_ X: CFTypeRef?) -> Any? {
    guard let X else { return nil }
    Unmanaged.passUnretained(X).release()
    return X
}

// MARK: - Time

/// The seconds between the reference date (1 January 2001, GMT) and 1 January 1970.
public let kCFAbsoluteTimeIntervalSince1970: CFTimeInterval = 978_307_200
/// The seconds between the reference date (1 January 2001, GMT) and 1 January 1904.
public let kCFAbsoluteTimeIntervalSince1904: CFTimeInterval = 3_061_152_000

/// Returns the current time, in seconds since the reference date (1 January 2001, GMT), on the wall clock.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { Date().timeIntervalSinceReferenceDate }

// MARK: - Booleans and numbers

/// Returns the value of a Boolean.
@discardableResult
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool { boolean.boolValue }

/// Returns the type the number was created with.
@discardableResult
public func CFNumberGetType(_ number: CFNumber!) -> CFNumberType {
    switch number.objCType.pointee {
    case 0x63: .sInt8Type  // c
    case 0x73, 0x43: .sInt16Type  // s, C
    case 0x69, 0x53: .sInt32Type  // i, S
    case 0x66: .float32Type  // f
    case 0x64: .float64Type  // d
    default: .sInt64Type  // l, q, I, L, Q
    }
}

/// Returns whether the number holds a floating-point value.
@discardableResult
public func CFNumberIsFloatType(_ number: CFNumber!) -> Bool {
    let type = CFNumberGetType(number)
    return type == .float32Type || type == .float64Type
}

/// Returns the number of bytes a value of a number type takes.
@discardableResult
public func CFNumberGetByteSize(_ number: CFNumber!) -> CFIndex { CoreFoundationNumbers.size(of: CFNumberGetType(number)) }

/// Writes the number's value, converted to `theType`, at `valuePtr`; false when the conversion lost part of it.
@discardableResult
public func CFNumberGetValue(_ number: CFNumber!, _ theType: CFNumberType, _ valuePtr: UnsafeMutableRawPointer!) -> Bool {
    CoreFoundationNumbers.write(number, as: theType, to: valuePtr)
}

/// Creates a number from a value of `theType` at `valuePtr`.
@discardableResult
public func CFNumberCreate(_ allocator: CFAllocator!, _ theType: CFNumberType, _ valuePtr: UnsafeRawPointer!) -> CFNumber! {
    CoreFoundationNumbers.read(theType, from: valuePtr)
}

/// Numbers read and written as C types.
enum CoreFoundationNumbers {
    static func size(of type: CFNumberType) -> Int {
        switch type {
        case .sInt8Type, .charType: 1
        case .sInt16Type, .shortType: 2
        case .sInt32Type, .intType, .float32Type, .floatType: 4
        default: 8
        }
    }

    static func write(_ number: NSNumber, as type: CFNumberType, to pointer: UnsafeMutableRawPointer) -> Bool {
        let isFloat = CFNumberIsFloatType(number)
        let double = number.doubleValue
        func integer<T: FixedWidthInteger>(_: T.Type) -> Bool {
            if isFloat {
                // Truncated toward zero and clamped to the type, as Core Foundation converts; NaN is 0.
                let truncated = double.rounded(.towardZero)
                let value: T =
                    truncated.isNaN ? 0 : truncated >= Double(T.max) ? T.max : truncated <= Double(T.min) ? T.min : T(truncated)
                pointer.storeBytes(of: value, as: T.self)
                return !double.isNaN && truncated == double && Double(value) == double
            }
            let value = number.int64Value
            let fits = T(exactly: value)
            pointer.storeBytes(of: fits ?? T(truncatingIfNeeded: value), as: T.self)
            return fits != nil
        }
        switch type {
        case .sInt8Type, .charType: return integer(Int8.self)
        case .sInt16Type, .shortType: return integer(Int16.self)
        case .sInt32Type, .intType: return integer(Int32.self)
        case .sInt64Type, .longType, .longLongType, .cfIndexType, .nsIntegerType: return integer(Int64.self)
        case .float32Type, .floatType:
            let value = isFloat ? Float(double) : Float(number.int64Value)
            pointer.storeBytes(of: value, as: Float.self)
            return isFloat ? (Double(value) == double || double.isNaN) : Int64(exactly: value) == number.int64Value
        case .float64Type, .doubleType, .cgFloatType:
            let value = isFloat ? double : Double(number.int64Value)
            pointer.storeBytes(of: value, as: Double.self)
            return isFloat || Int64(exactly: value) == number.int64Value
        }
    }

    static func read(_ type: CFNumberType, from pointer: UnsafeRawPointer) -> NSNumber {
        switch type {
        case .sInt8Type, .charType: NSNumber(value: pointer.loadUnaligned(as: Int8.self))
        case .sInt16Type, .shortType: NSNumber(value: pointer.loadUnaligned(as: Int16.self))
        case .sInt32Type, .intType: NSNumber(value: pointer.loadUnaligned(as: Int32.self))
        case .sInt64Type, .longType, .longLongType, .cfIndexType, .nsIntegerType: NSNumber(value: pointer.loadUnaligned(as: Int64.self))
        case .float32Type, .floatType: NSNumber(value: pointer.loadUnaligned(as: Float.self))
        case .float64Type, .doubleType, .cgFloatType: NSNumber(value: pointer.loadUnaligned(as: Double.self))
        }
    }
}

// MARK: - Strings and data

/// Returns the number of UTF-16 code units in a string.
@discardableResult
public func CFStringGetLength(_ theString: CFString!) -> CFIndex { theString.length }

/// Creates a string from a NUL-terminated C string in an encoding; nil when the bytes are not in it.
@discardableResult
public func CFStringCreateWithCString(_ alloc: CFAllocator!, _ cStr: UnsafePointer<CChar>!, _ encoding: CFStringEncoding) -> CFString! {
    NSString(cString: cStr, encoding: String.Encoding.coreFoundation(encoding).rawValue)
}

extension String.Encoding {
    /// The Foundation encoding of a Core Foundation one (UTF-8 for those this table does not know).
    static func coreFoundation(_ encoding: CFStringEncoding) -> String.Encoding {
        switch CFStringBuiltInEncodings(rawValue: encoding) {
        case .ASCII?: .ascii
        case .isoLatin1?: .isoLatin1
        case .windowsLatin1?: .windowsCP1252
        case .macRoman?: .macOSRoman
        case .nextStepLatin?: .nextstep
        case .nonLossyASCII?: .nonLossyASCII
        case .unicode?: .utf16
        case .UTF16BE?: .utf16BigEndian
        case .UTF16LE?: .utf16LittleEndian
        case .UTF32?: .utf32
        case .UTF32BE?: .utf32BigEndian
        case .UTF32LE?: .utf32LittleEndian
        case .UTF8?, nil: .utf8
        }
    }
}

/// Creates a data object holding a copy of `length` bytes.
@discardableResult
public func CFDataCreate(_ allocator: CFAllocator!, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex) -> CFData! {
    NSData(bytes: bytes, length: length)
}

/// Creates an empty mutable data object.
@discardableResult
public func CFDataCreateMutable(_ allocator: CFAllocator!, _ capacity: CFIndex) -> CFMutableData! { NSMutableData(capacity: max(0, capacity)) }

/// Appends `length` bytes to a mutable data object.
public func CFDataAppendBytes(_ theData: CFMutableData!, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex) {
    theData.append(bytes, length: length)
}

/// Returns the number of bytes a data object holds.
@discardableResult
public func CFDataGetLength(_ theData: CFData!) -> CFIndex { theData.length }

/// Returns a pointer to a data object's bytes, valid while the object lives.
@discardableResult
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    theData.length == 0 ? nil : theData.bytes.assumingMemoryBound(to: UInt8.self)
}

// MARK: - Arrays

/// Returns the number of values in an array.
@discardableResult
public func CFArrayGetCount(_ theArray: CFArray!) -> CFIndex { theArray.count }

/// Returns the value at an index of an array, as a pointer to its object, valid while the array holds it.
@discardableResult
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: CFIndex) -> UnsafeRawPointer! {
    guard idx >= 0, idx < theArray.count else { return nil }
    return HeldObjects.shared.pointer(to: theArray.object(at: idx), at: idx, in: theArray)
}

/// Creates an empty mutable array.
@discardableResult
public func CFArrayCreateMutable(_ allocator: CFAllocator!, _ capacity: CFIndex, _ callBacks: UnsafePointer<CFArrayCallBacks>!) -> CFMutableArray! {
    NSMutableArray(capacity: max(0, capacity))
}

/// Adds the object at `value` to the end of an array.
public func CFArrayAppendValue(_ theArray: CFMutableArray!, _ value: UnsafeRawPointer!) {
    theArray.add(Unmanaged<AnyObject>.fromOpaque(value).takeUnretainedValue())
}

// MARK: - Dictionaries

/// Returns the number of entries in a dictionary.
@discardableResult
public func CFDictionaryGetCount(_ theDict: CFDictionary!) -> CFIndex { theDict.count }

/// Returns the value for the key object at `key`, as a pointer to its object, or nil when the
/// dictionary has none; the pointer is valid while the dictionary holds the value.
@discardableResult
public func CFDictionaryGetValue(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> UnsafeRawPointer! {
    guard let key else { return nil }
    let keyObject = Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue()
    guard let value = theDict.object(forKey: keyObject) else { return nil }
    return HeldObjects.shared.pointer(to: value, at: keyObject as? NSObject, in: theDict)
}

/// Returns whether a dictionary has a value for the key object at `key`, and the value through `value`.
@discardableResult
public func CFDictionaryGetValueIfPresent(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!, _ value: UnsafeMutablePointer<UnsafeRawPointer?>!) -> Bool {
    guard let found = CFDictionaryGetValue(theDict, key) else { return false }
    value?.pointee = found
    return true
}

/// Returns whether a dictionary has a value for the key object at `key`.
@discardableResult
public func CFDictionaryContainsKey(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> Bool {
    guard let key else { return false }
    return theDict.object(forKey: Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue()) != nil
}

/// Creates an empty mutable dictionary.
public func CFDictionaryCreateMutable(
    _ allocator: CFAllocator!, _ capacity: CFIndex, _ keyCallBacks: UnsafePointer<CFDictionaryKeyCallBacks>!,
    _ valueCallBacks: UnsafePointer<CFDictionaryValueCallBacks>!
) -> CFMutableDictionary! {
    NSMutableDictionary(capacity: max(0, capacity))
}

/// Sets the value for a key: both pointers to objects, which the dictionary retains.
public func CFDictionarySetValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!, _ value: UnsafeRawPointer!) {
    guard let key, let value, let keyObject = Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue() as? NSObject else { return }
    theDict.setObject(Unmanaged<AnyObject>.fromOpaque(value).takeUnretainedValue(), forKey: keyObject)
}

/// Removes the value for the key object at `key`.
public func CFDictionaryRemoveValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!) {
    guard let key else { return }
    theDict.removeObject(forKey: Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue())
}

/// The objects handed out by pointer for values a Foundation collection gives back as Swift
/// values (a string, a nested dictionary or array): each is bridged to its Foundation object
/// once and kept while the collection lives, so that the pointer stays valid as Core Foundation's
/// "Get" functions promise. Values that are objects already are handed out as they are.
/// Thread-safe.
final class HeldObjects: @unchecked Sendable {
    static let shared = HeldObjects()

    private struct Held {
        weak var owner: AnyObject?
        var objects: [AnyHashable: AnyObject]
    }
    private let lock = NSLock()
    private var held: [ObjectIdentifier: Held] = [:]

    /// A pointer to `value` as an object, kept for `slot` (a key or an index) of `owner`.
    func pointer(to value: Any, at slot: AnyHashable?, in owner: AnyObject) -> UnsafeRawPointer {
        if type(of: value) is AnyClass { return Self.pointer(value as AnyObject) }
        let object = value as AnyObject
        let slot = slot ?? AnyHashable(ObjectIdentifier(object))
        return lock.withLock {
            let id = ObjectIdentifier(owner)
            if held[id]?.owner !== owner {
                // A collection seen for the first time (or one at the address of another that has gone).
                held = held.filter { $0.value.owner != nil }
                held[id] = Held(owner: owner, objects: [:])
            }
            if let existing = held[id]?.objects[slot], (existing as? NSObject)?.isEqual(object) == true { return Self.pointer(existing) }
            held[id]?.objects[slot] = object
            return Self.pointer(object)
        }
    }

    /// How many collections have values kept for them.
    var collectionCount: Int { lock.withLock { held.count } }

    private static func pointer(_ object: AnyObject) -> UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) }
}
