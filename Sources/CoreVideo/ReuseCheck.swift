import Synchronization

/// Whether the caller holds the only reference to `object`, so that a pool may reuse it, with
/// the ordering that reuse needs.
///
/// A client lets go of a pooled object by releasing its reference: the runtime's decrement is a
/// release, so everything the client did with the object comes before it. The runtime's
/// uniqueness check, though, is a relaxed load on ARM64 (a consume elsewhere), which orders
/// nothing after it: the acquire fence that follows a true answer makes the client's release
/// synchronize with it, so the pool's reads and writes of the object come after the client's,
/// on x86-64 and on ARM64 alike. ThreadSanitizer cannot see the runtime's reference counting,
/// so it reports these reuses as races: `scripts/tsan-suppressions.txt` names them.
@inline(__always)
package func isOnlyReferencedByPool<Object: AnyObject>(_ object: inout Object) -> Bool {
    guard isKnownUniquelyReferenced(&object) else { return false }
    atomicMemoryFence(ordering: .acquiring)
    return true
}
