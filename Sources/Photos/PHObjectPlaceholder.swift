import Foundation

/// A read-only proxy for an asset or collection a change block creates, whose identifier is known once the change is made.
open class PHObjectPlaceholder: PHObject, @unchecked Sendable {
    override init(localIdentifier: String) { super.init(localIdentifier: localIdentifier) }
}
