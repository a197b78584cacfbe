import Foundation

/// A request to create, delete, change metadata for, or edit the content of a Photos asset, for use in a photo library change block.
public class PHAssetChangeRequest: NSObject, @unchecked Sendable {
    /// A placeholder for the asset the request creates; its identifier is the asset's once the change block finishes.
    public internal(set) var placeholderForCreatedAsset: PHObjectPlaceholder?
    /// The date and time of the asset's creation.
    public var creationDate: Date?
    /// Whether the asset is a favorite.
    public var isFavorite = false
    /// Whether the asset is hidden.
    public var isHidden = false

    /// The resources the asset is made of, in the order they were added.
    var resources: [PendingResource] = []
    /// The albums the asset is added to, in order: its files go into the first one's folders.
    var albums: [PHAssetCollectionChangeRequest] = []

    /// Creates a request for adding a new image asset from the file at `fileURL`.
    @discardableResult
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
        let request = self.init(method: "+[PHAssetChangeRequest creationRequestForAssetFromImageAtFileURL:]")
        request.resources.append(PendingResource(type: .photo, source: .file(fileURL), options: nil))
        return request
    }

    /// Creates a request for adding a new video asset from the file at `fileURL`.
    @discardableResult
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
        let request = self.init(method: "+[PHAssetChangeRequest creationRequestForAssetFromVideoAtFileURL:]")
        request.resources.append(PendingResource(type: .video, source: .file(fileURL), options: nil))
        return request
    }

    /// Creates a request inside the running change block; `method` names the caller in the trap outside one.
    required init(method: String) {
        super.init()
        guard let change = PHPhotoLibrary.currentChange else {
            fatalError(
                "\(method) This method can only be called from inside of -[PHPhotoLibrary performChanges:completionHandler:] or -[PHPhotoLibrary performChangesAndWait:error:]"
            )
        }
        placeholderForCreatedAsset = PHObjectPlaceholder(localIdentifier: "")
        change.add(self)
    }
}

/// One resource of an asset being created: its kind, where its bytes come from, and its options.
struct PendingResource {
    enum Source {
        case data(Data)
        case file(URL)
    }
    let type: PHAssetResourceType
    let source: Source
    let options: PHAssetResourceCreationOptions?
}
