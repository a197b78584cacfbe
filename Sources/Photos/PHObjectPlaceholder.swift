import Foundation

/// A read-only proxy for an asset a change block creates, whose identifier is known once the change is made.
open class PHObjectPlaceholder: NSObject, @unchecked Sendable {
    /// A unique string that persistently identifies the object: on Linux, the path of its first file.
    open internal(set) var localIdentifier: String

    init(localIdentifier: String) {
        self.localIdentifier = localIdentifier
        super.init()
    }
}
