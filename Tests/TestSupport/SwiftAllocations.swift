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

    nonisolated(unsafe) private static var original: AllocateObject?
    nonisolated(unsafe) private static var counted: pthread_t = pthread_self()
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
        original = hook.pointee
        counted = pthread_self()
        count.store(0, ordering: .relaxed)
        hook.pointee = { metadata, size, alignment in
            if pthread_equal(pthread_self(), SwiftAllocations.counted) != 0 { SwiftAllocations.count.add(1, ordering: .relaxed) }
            return SwiftAllocations.original!(metadata, size, alignment)
        }
        enabled.pointee = true
        defer {
            enabled.pointee = false
            hook.pointee = original!
        }
        try body()
        return count.load(ordering: .relaxed)
    }
}
