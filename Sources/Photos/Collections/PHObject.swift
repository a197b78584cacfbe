import Foundation

/// The abstract superclass of the photo library's objects: assets and collections.
open class PHObject: NSObject, @unchecked Sendable {
    /// A unique string that persistently identifies the object: on Linux, the path of its file or folder.
    open internal(set) var localIdentifier: String

    init(localIdentifier: String) {
        self.localIdentifier = localIdentifier
        super.init()
    }

    /// Objects are equal when they identify the same thing (a placeholder not yet made, only itself).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHObject else { return false }
        return other === self || (!localIdentifier.isEmpty && other.localIdentifier == localIdentifier)
    }

    /// The hash of the identifier.
    open override var hash: Int { localIdentifier.hashValue }
}

/// The abstract superclass of asset collections and collection lists.
open class PHCollection: PHObject, @unchecked Sendable {
    /// The collection's name, as the user sees it.
    open var localizedTitle: String? { nil }
    /// Whether the collection can hold assets.
    open var canContainAssets: Bool { false }
    /// Whether the collection can hold other collections.
    open var canContainCollections: Bool { false }
}
