import Foundation
import Photos

/// An album of the app's own in the photo library, as camera apps keep one: found by title,
/// made when missing, and each recording saved into it.
public final class CustomPhotoAlbum: @unchecked Sendable {
    /// The album's name.
    public let albumName: String

    /// An album of a name.
    public init(albumName: String) { self.albumName = albumName }

    /// The album, if the library has it.
    public func fetchAssetCollectionForAlbum() -> PHAssetCollection? {
        let fetchOptions = PHFetchOptions()
        fetchOptions.predicate = NSPredicate(format: "title = %@", albumName)
        let collection = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: fetchOptions)
        if let _: AnyObject = collection.firstObject {
            return collection.firstObject
        }
        return nil
    }

    /// Saves a movie file into the album, making the album first when it is missing.
    public func save(videoAt url: URL, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        if fetchAssetCollectionForAlbum() == nil {
            PHPhotoLibrary.shared().performChanges({
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: self.albumName)
            }) { success, error in
                guard success else { return completion(false, error) }
                self.save(videoAt: url, completion: completion)
            }
            return
        }
        PHPhotoLibrary.shared().performChanges(
            {
                guard let assetCollection = self.fetchAssetCollectionForAlbum() else { return }
                let assetChangeRequest = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url)
                let assetPlaceholder = assetChangeRequest?.placeholderForCreatedAsset
                let albumChangeRequest = PHAssetCollectionChangeRequest(for: assetCollection)
                let enumeration: NSArray = [assetPlaceholder!]
                albumChangeRequest?.addAssets(enumeration)
            }, completionHandler: completion)
    }
}
