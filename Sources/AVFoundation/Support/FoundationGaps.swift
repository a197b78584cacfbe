import Foundation

/// A pointer through which a method returns an error, as Apple's Foundation spells it
/// (Foundation on Linux does not declare it); pass `&error` for a `var error: NSError?`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
