import XCTest
@testable import CoreGraphics

/// Core Foundation's types as classes and its C functions over them.
final class CoreFoundationFunctionsTests: XCTestCase {
    // Keys passed by pointer are kept alive by the test, as constants are.
    private let key: CFString = "PixelWidth"
    private let equalKey = NSString(string: "PixelWidth")
    private let nestedKey: CFString = "Nested"
    private let missingKey: CFString = "Missing"

    func testTypesBridgeAsOnApplesPlatforms() {
        let string: String = key as String
        XCTAssertEqual(string, "PixelWidth")
        XCTAssertEqual("PixelWidth" as CFString, key)
        let attributes = [key: 640, "Name" as CFString: "front"] as CFDictionary
        let swift = attributes as? [String: Any]
        XCTAssertEqual(swift?["PixelWidth"] as? Int, 640, "a dictionary keyed by CFStrings reads under Swift strings")
        XCTAssertEqual(swift?["Name"] as? String, "front")
        XCTAssertEqual(attributes[key as String] as? Int, 640)
        let built: [String: Any] = ["PixelWidth": 320]
        XCTAssertEqual((built as CFDictionary)[key] as? Int, 320, "and the other way round")
        XCTAssertEqual((["a", "b"] as CFArray) as? [String], ["a", "b"])
        XCTAssertEqual((Data([1, 2, 3]) as CFData) as Data, Data([1, 2, 3]))
        XCTAssertEqual((URL(fileURLWithPath: "/tmp") as CFURL) as URL, URL(fileURLWithPath: "/tmp"))
    }

    func testUnmanagedStringsAndBitCastsReachTheSameObject() {
        let unmanaged: Unmanaged<CFString> = Unmanaged.passUnretained(key)
        let raw = unmanaged.toOpaque()
        XCTAssertTrue(Unmanaged<CFString>.fromOpaque(raw).takeUnretainedValue() === key)
        XCTAssertTrue(unsafeBitCast(raw, to: CFString.self) === key)
        let retained = Unmanaged.passRetained("made" as CFString)
        XCTAssertEqual(retained.takeRetainedValue() as String, "made")
    }

    func testTypeIdentifiersTellValuesApart() {
        XCTAssertEqual(CFGetTypeID(key), CFStringGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSNumber(value: 3)), CFNumberGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSNumber(value: 2.5)), CFNumberGetTypeID())
        XCTAssertEqual(CFGetTypeID(kCFBooleanTrue), CFBooleanGetTypeID())
        XCTAssertEqual(CFGetTypeID(true as NSNumber), CFBooleanGetTypeID(), "a Swift Bool bridges to the Boolean, not a number")
        XCTAssertEqual(CFGetTypeID(NSDictionary()), CFDictionaryGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSMutableDictionary()), CFDictionaryGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSArray()), CFArrayGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSData()), CFDataGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSURL(fileURLWithPath: "/")), CFURLGetTypeID())
        XCTAssertEqual(CFGetTypeID(kCFNull), CFNullGetTypeID())
        let identifiers = [
            CFStringGetTypeID(), CFNumberGetTypeID(), CFBooleanGetTypeID(), CFDictionaryGetTypeID(), CFArrayGetTypeID(), CFDataGetTypeID(),
            CFURLGetTypeID(), CFDateGetTypeID(), CFNullGetTypeID(),
        ]
        XCTAssertEqual(Set(identifiers).count, identifiers.count)
        let space = CGColorSpaceCreateDeviceRGB()
        XCTAssertEqual(CFGetTypeID(space), CFGetTypeID(CGColorSpaceCreateDeviceGray()), "one identifier a class")
        XCTAssertFalse(identifiers.contains(CFGetTypeID(space)))
    }

    func testNumbersAreReadAsTheTypeAskedForAndSayWhenTheyLoseSomething() {
        var int32: Int32 = 0
        XCTAssertTrue(CFNumberGetValue(NSNumber(value: 640), .sInt32Type, &int32))
        XCTAssertEqual(int32, 640)
        var int8: Int8 = 0
        XCTAssertFalse(CFNumberGetValue(NSNumber(value: 300), .sInt8Type, &int8), "300 does not fit in 8 bits")
        var truncated: Int = 0
        XCTAssertFalse(CFNumberGetValue(NSNumber(value: 3.75), .longType, &truncated), "a fraction is lost")
        XCTAssertEqual(truncated, 3)
        XCTAssertFalse(CFNumberGetValue(NSNumber(value: Double.nan), .intType, &int32))
        XCTAssertFalse(CFNumberGetValue(NSNumber(value: 1e300), .sInt64Type, &truncated), "too large")
        var double = 0.0
        XCTAssertTrue(CFNumberGetValue(NSNumber(value: 7), .float64Type, &double))
        XCTAssertEqual(double, 7)
        var float: Float = 0
        XCTAssertTrue(CFNumberGetValue(NSNumber(value: 0.5), .float32Type, &float))
        XCTAssertFalse(CFNumberGetValue(NSNumber(value: 0.1), .float32Type, &float), "0.1 is not a Float exactly")
        XCTAssertTrue(CFNumberIsFloatType(NSNumber(value: 0.5)))
        XCTAssertFalse(CFNumberIsFloatType(NSNumber(value: 5)))
        var value: Int16 = -1234
        let made = CFNumberCreate(nil, .sInt16Type, &value)!
        XCTAssertEqual(made.intValue, -1234)
        XCTAssertEqual(CFNumberGetType(made), .sInt16Type)
        XCTAssertTrue(CFBooleanGetValue(kCFBooleanTrue))
        XCTAssertFalse(CFBooleanGetValue(kCFBooleanFalse))
    }

    func testAValueGotByPointerStaysTheSameObjectWhileItsDictionaryLives() throws {
        let dictionary = ["PixelWidth" as CFString: "wide", "Nested" as CFString: ["a": 1]] as CFDictionary
        let first = try XCTUnwrap(CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque()))
        let again = try XCTUnwrap(CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque()))
        XCTAssertEqual(first, again, "a Swift string value is bridged once and kept")
        _ = (0..<100).map { _ in NSMutableData(length: 64) }  // memory a freed box would be reused for
        XCTAssertEqual(unsafeBitCast(first, to: CFString.self) as String, "wide")
        let nested = try XCTUnwrap(CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(nestedKey).toOpaque()))
        XCTAssertEqual(CFGetTypeID(Unmanaged<CFTypeRef>.fromOpaque(nested).takeUnretainedValue()), CFDictionaryGetTypeID())
        XCTAssertEqual(CFDictionaryGetCount(unsafeBitCast(nested, to: CFDictionary.self)), 1)
        XCTAssertNil(CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(missingKey).toOpaque()))
        XCTAssertTrue(CFDictionaryContainsKey(dictionary, Unmanaged.passUnretained(key).toOpaque()))
        var found: UnsafeRawPointer?
        XCTAssertTrue(CFDictionaryGetValueIfPresent(dictionary, Unmanaged.passUnretained(key).toOpaque(), &found))
        XCTAssertEqual(found, first)
    }

    func testThreadsGettingOneValueAtOnceGetOneObject() {
        // Read-only from every thread, as Core Foundation's immutable collections may be.
        nonisolated(unsafe) let dictionary = ["PixelWidth" as CFString: "wide"] as CFDictionary
        let keyAddress = UInt(bitPattern: Unmanaged.passUnretained(key).toOpaque())
        let pointers = LockedPointers()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            pointers.append(UInt(bitPattern: CFDictionaryGetValue(dictionary, UnsafeRawPointer(bitPattern: keyAddress))))
        }
        XCTAssertEqual(pointers.distinct, 1, "the value is bridged once, whichever thread asks first")
    }

    func testBridgedValuesAreLetGoWithTheirCollections() {
        for _ in 0..<50 {
            let dictionary = ["PixelWidth" as CFString: "wide"] as CFDictionary
            _ = CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque())
        }
        XCTAssertLessThan(HeldObjects.shared.collectionCount, 10, "the values of dictionaries that have gone are not kept")
    }

    func testAMutableDictionaryIsFilledAndEmptiedThroughPointers() {
        let dictionary = CFDictionaryCreateMutable(nil, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks)!
        CFDictionarySetValue(dictionary, Unmanaged.passUnretained(key).toOpaque(), Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        XCTAssertEqual(CFDictionaryGetCount(dictionary), 1)
        let value = CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(equalKey).toOpaque())
        XCTAssertTrue(CFBooleanGetValue(unsafeBitCast(value, to: CFBoolean.self)), "found under an equal key")
        XCTAssertEqual((dictionary as? [String: Any])?["PixelWidth"] as? Bool, true)
        let replaced: CFString = "narrow"
        CFDictionarySetValue(dictionary, Unmanaged.passUnretained(key).toOpaque(), Unmanaged.passUnretained(replaced).toOpaque())
        XCTAssertEqual(unsafeBitCast(CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque()), to: CFString.self), replaced)
        CFDictionaryRemoveValue(dictionary, Unmanaged.passUnretained(key).toOpaque())
        XCTAssertEqual(CFDictionaryGetCount(dictionary), 0)
    }

    func testArraysAndDataThroughTheirFunctions() {
        let array = ["front", "back"] as CFArray
        XCTAssertEqual(CFArrayGetCount(array), 2)
        XCTAssertEqual(unsafeBitCast(CFArrayGetValueAtIndex(array, 1), to: CFString.self) as String, "back")
        XCTAssertEqual(CFArrayGetValueAtIndex(array, 0), CFArrayGetValueAtIndex(array, 0))
        XCTAssertNil(CFArrayGetValueAtIndex(array, 2), "past the end")
        let mutable = CFArrayCreateMutable(nil, 0, &kCFTypeArrayCallBacks)!
        CFArrayAppendValue(mutable, Unmanaged.passUnretained(key).toOpaque())
        XCTAssertEqual(mutable as? [String], ["PixelWidth"])

        let bytes: [UInt8] = [9, 8, 7]
        let data = CFDataCreate(nil, bytes, 3)!
        XCTAssertEqual(CFDataGetLength(data), 3)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: CFDataGetBytePtr(data), count: 3)), bytes)
        let growing = CFDataCreateMutable(nil, 0)!
        CFDataAppendBytes(growing, bytes, 2)
        XCTAssertEqual(growing as Data, Data([9, 8]))
    }

    func testStringsAndObjects() {
        let made = "héllo".withCString { CFStringCreateWithCString(nil, $0, CFStringBuiltInEncodings.UTF8.rawValue) }
        XCTAssertEqual(made.map { $0 as String }, "héllo")
        XCTAssertEqual(CFStringGetLength(made), 5)
        XCTAssertTrue(CFEqual(made, "héllo" as CFString))
        XCTAssertFalse(CFEqual(made, key))
        XCTAssertEqual(CFHash(made), CFHash("héllo" as CFString))
        XCTAssertEqual(CFCopyDescription(key) as String, "PixelWidth")
    }

    func testTheWallClockAndBridgingRetains() {
        let before = Date().timeIntervalSince1970
        let now = CFAbsoluteTimeGetCurrent()
        XCTAssertEqual(now + kCFAbsoluteTimeIntervalSince1970, before, accuracy: 5, "seconds since 2001, as Date counts them")
        weak var watched: NSMutableData?
        var retained: CFTypeRef?
        do {
            let data = NSMutableData(length: 8)!
            watched = data
            retained = CFBridgingRetain(data)
        }
        XCTAssertNotNil(watched, "the extra retain keeps the object while Core Foundation code holds it")
        do {
            let back = CFBridgingRelease(retained) as? NSMutableData
            retained = nil
            XCTAssertEqual(back?.length, 8)
        }
        XCTAssertNil(watched, "the release balances the retain: the object goes with its last reference")
        XCTAssertNil(CFBridgingRetain(nil))
    }
}

/// Addresses gathered from several threads.
private final class LockedPointers: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<UInt> = []
    func append(_ address: UInt) { lock.withLock { _ = seen.insert(address) } }
    var distinct: Int { lock.withLock { seen.count } }
}
