import Foundation

/// A request to create an album, rename it, or add assets to it, for use in a photo library change block.
///
/// On Linux an album is a folder of the Pictures and Videos folders (see `PHAssetCollection`):
/// creating one makes its folder in the Pictures folder, and an asset added to it is written into
/// the album's folder in the Pictures or Videos folder instead of the folder itself (hard-linked
/// into any further album it is added to). Assets are added by the placeholders of assets the same
/// change block creates.
public class PHAssetCollectionChangeRequest: NSObject, @unchecked Sendable {
    /// The album's title, as it is and as the change leaves it.
    let originalTitle: String
    /// Whether the request creates the album.
    let creates: Bool
    /// What was added that is not an asset the change block creates.
    private(set) var unknownAssets = 0

    /// The album's title; setting it renames the album.
    public var title: String

    /// A placeholder for the album the request creates; its identifier is the album's once the change is made.
    public let placeholderForCreatedAssetCollection: PHObjectPlaceholder

    /// Creates a request for adding a new album with a title.
    @discardableResult
    public class func creationRequestForAssetCollection(withTitle title: String) -> Self {
        self.init(title: title, creates: true, method: "+[PHAssetCollectionChangeRequest creationRequestForAssetCollectionWithTitle:]")
    }

    /// Creates a request for changing an album; nil for a collection that is not an album.
    public convenience init?(for assetCollection: PHAssetCollection) {
        guard assetCollection.assetCollectionType == .album, let title = assetCollection.localizedTitle else { return nil }
        self.init(title: title, creates: false, method: "-[PHAssetCollectionChangeRequest initWithAssetCollection:]")
    }

    /// Creates a request inside the running change block; `method` names the caller in the trap outside one.
    required init(title: String, creates: Bool, method: String) {
        originalTitle = title
        self.title = title
        self.creates = creates
        placeholderForCreatedAssetCollection = PHObjectPlaceholder(localIdentifier: "")
        super.init()
        guard let change = PHPhotoLibrary.currentChange else {
            fatalError(
                "\(method) This method can only be called from inside of -[PHPhotoLibrary performChanges:completionHandler:] or -[PHPhotoLibrary performChangesAndWait:error:]"
            )
        }
        change.add(self)
    }

    /// Adds assets to the album: placeholders of assets the change block creates.
    public func addAssets(_ assets: NSArray) {
        for asset in assets { add(asset) }
    }

    /// Adds assets to the album: placeholders of assets the change block creates.
    public func addAssets<Assets: Sequence>(_ assets: Assets) where Assets.Element: PHObject {
        for asset in assets { add(asset) }
    }

    private func add(_ asset: Any) {
        guard let placeholder = asset as? PHObjectPlaceholder,
            let request = PHPhotoLibrary.currentChange?.requests.first(where: { $0.placeholderForCreatedAsset === placeholder })
        else {
            unknownAssets += 1
            return
        }
        request.albums.append(self)
    }
}
