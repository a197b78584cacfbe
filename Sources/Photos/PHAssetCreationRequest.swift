import Foundation

/// A request to create a new Photos asset from underlying data resources, for use in a photo library change block.
public class PHAssetCreationRequest: PHAssetChangeRequest, @unchecked Sendable {
    /// Creates a request for constructing a new asset from data resources.
    public class func forAsset() -> Self {
        self.init(method: "+[PHAssetCreationRequest creationRequestForAsset]")
    }

    /// Returns whether an asset can be made of the given resource types (numbers of `PHAssetResourceType`).
    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.compactMap { PHAssetResourceType(rawValue: $0.intValue) }
        guard kinds.count == types.count else { return false }
        // A proxy stands for the photo it will be finished into.
        let photos = kinds.filter { $0 == .photo || $0 == .photoProxy }.count, videos = kinds.filter { $0 == .video }.count
        let paired = kinds.filter { $0 == .pairedVideo }.count
        let others = kinds.count - photos - videos - paired
        return others == 0 && ((photos == 1 && videos == 0 && paired <= 1) || (videos == 1 && photos == 0 && paired == 0))
    }

    /// Adds a resource to the asset from data in memory.
    public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        resources.append(PendingResource(type: type, source: .data(data), options: options?.copy() as? PHAssetResourceCreationOptions))
    }

    /// Adds a resource to the asset from the file at `fileURL`.
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        resources.append(PendingResource(type: type, source: .file(fileURL), options: options?.copy() as? PHAssetResourceCreationOptions))
    }
}
