import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Counts the Swift heap allocations (objects, closures' contexts, arrays', strings' and boxes'
/// storage) one thread makes, through the Swift runtime's allocation hook, the one Instruments uses.
/// Allocations made by C code are not seen.
public enum SwiftAllocations {
    private typealias AllocateObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    /// The runtime's own allocation function, and the thread counted (atomics: the hook runs on every thread).
    private static let original = Atomic<UInt>(0)
    private static let counted = Atomic<UInt>(0)
    private static let count = Atomic(0)
    private static let lock = NSLock()

    /// The Swift heap allocations the calling thread makes while `body` runs (other threads' are not counted).
    public static func made(by body: () throws -> Void) rethrows -> Int {
        guard let hookAddress = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_swift_allocObject"),
            let switchAddress = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
        else { preconditionFailure("SwiftAllocations: the Swift runtime has no allocation hook") }
        lock.lock()
        defer { lock.unlock() }
        let hook = hookAddress.assumingMemoryBound(to: AllocateObject.self)
        let enabled = switchAddress.assumingMemoryBound(to: Bool.self)
        let runtime = hook.pointee
        original.store(UInt(bitPattern: unsafeBitCast(runtime, to: Int.self)), ordering: .releasing)
        counted.store(UInt(pthread_self()), ordering: .releasing)
        count.store(0, ordering: .relaxed)
        hook.pointee = { metadata, size, alignment in
            if UInt(pthread_self()) == SwiftAllocations.counted.load(ordering: .acquiring) { SwiftAllocations.count.add(1, ordering: .relaxed) }
            let allocate = unsafeBitCast(Int(bitPattern: SwiftAllocations.original.load(ordering: .acquiring)), to: AllocateObject.self)
            return allocate(metadata, size, alignment)
        }
        enabled.pointee = true
        defer {
            enabled.pointee = false
            hook.pointee = runtime
        }
        try body()
        return count.load(ordering: .relaxed)
    }
}
