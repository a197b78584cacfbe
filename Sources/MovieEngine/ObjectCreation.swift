import CObjectCreation
import Foundation

/// Makes an instance of an `NSObject` subclass from its class object, as Objective-C's
/// `[[cls alloc] init]` does for Apple's APIs that take a class (`customVideoCompositorClass`).
///
/// Swift allows `type.init()` only for `required` initializers, and `NSObject`'s is not; every
/// subclass's `init()` still has its entry in the class's table of methods, at the place
/// `NSObject`'s has. That place is found once by comparing `NSObject`'s table with those of two
/// subclasses that override only `init()`, and the entry is called with Swift's convention.
///
/// What it assumes of the toolchain, which `CustomCompositorTests` checks on every run: Swift's
/// class metadata on Linux (no Objective-C runtime) has the class's size and address point as two
/// 32-bit words four pointers in, its method table from the eighth pointer on, and an allocating
/// initializer that takes the class object in the Swift context register and returns +1.
package enum ObjectCreation {
    /// Two subclasses whose tables differ from each other only in `init()` (each has its own);
    /// from `NSObject`'s they differ there and in entries a subclass in another module cannot
    /// share, which are the same in both.
    private final class Probe: NSObject {
        override init() { super.init() }
    }
    private final class OtherProbe: NSObject {
        override init() { super.init() }
    }

    /// Where `init()`'s entry is in a class's metadata, in pointers from its address point; nil
    /// when the two tables do not differ in exactly one place.
    package static let initializerSlot: Int? = {
        // Linux class metadata: kind, superclass, flags, instance size, then the class's size and
        // address point (two 32-bit words), description, ivar destroyer, and then the methods.
        let base = unsafeBitCast(NSObject.self as AnyClass, to: UnsafePointer<UnsafeRawPointer?>.self)
        let probe = unsafeBitCast(Probe.self as AnyClass, to: UnsafePointer<UnsafeRawPointer?>.self)
        let other = unsafeBitCast(OtherProbe.self as AnyClass, to: UnsafePointer<UnsafeRawPointer?>.self)
        func words(_ metadata: UnsafePointer<UnsafeRawPointer?>) -> Int {
            let sizes = UnsafeRawPointer(metadata + 4).loadUnaligned(as: (UInt32, UInt32).self)
            return (Int(sizes.0) - Int(sizes.1)) / MemoryLayout<UnsafeRawPointer>.size
        }
        let first = 7, last = min(words(base), words(probe), words(other))
        guard last > first else { return nil }
        let differing = (first..<last).filter { base[$0] != probe[$0] && probe[$0] != other[$0] && base[$0] != other[$0] }
        return differing.count == 1 ? differing[0] : nil
    }()

    /// A new instance of `type`, made by its `init()`; nil when `type` is not an `NSObject` subclass.
    package static func instance(of type: AnyClass) -> NSObject? {
        guard type is NSObject.Type, let slot = initializerSlot else { return nil }
        let metadata = unsafeBitCast(type, to: UnsafePointer<UnsafeRawPointer?>.self)
        guard let initializer = metadata[slot], let object = coc_call_allocating_init(initializer, UnsafeRawPointer(metadata)) else { return nil }
        return Unmanaged<NSObject>.fromOpaque(object).takeRetainedValue()
    }
}
