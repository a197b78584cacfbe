import Foundation

/// Options that filter a fetch of the photo library's objects.
open class PHFetchOptions: NSObject, @unchecked Sendable {
    /// Which objects to fetch: a predicate on their properties (for collections, `title`,
    /// `localizedTitle`, `localIdentifier` and `estimatedAssetCount`).
    open var predicate: NSPredicate?
    /// The most objects to fetch; 0 for no limit.
    open var fetchLimit: Int = 0
    /// Whether hidden assets are fetched.
    open var includeHiddenAssets = false
    /// Whether every photo of a burst is fetched.
    open var includeAllBurstAssets = false

    /// Creates options that fetch everything.
    public override init() { super.init() }
}
