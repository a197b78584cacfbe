// Combine: publishers, subscribers and operators, with the schedulers and publishers Apple's
// Foundation adds to Dispatch and Foundation's types.
//
// Publishers, subscribers, subjects, operators, `ObservableObject` and `@Published` are
// OpenCombine's, re-exported. The rest of this module is what Apple's Foundation overlay adds when
// Combine is present: `DispatchQueue`, `RunLoop` and `OperationQueue` as schedulers,
// `Timer.publish`, `NotificationCenter`'s publisher, and JSON's top-level coders.
//
// OpenCombine compiles its own versions of these only where no module named Combine can be
// imported, which stops being true for it once this module has been built beside it (a rebuild
// with other flags, a second configuration): they are written here instead, once, and the two
// that OpenCombine's core keeps behind that test (`Optional.publisher`, `Result.publisher`) are
// declared here too, shadowing OpenCombine's where both exist.
@_exported import OpenCombine
