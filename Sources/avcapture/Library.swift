import Foundation
import Photos

/// Saving into the user's photo library (their XDG Pictures and Videos folders) with PhotoKit's API.
enum Library {
    /// Saves `data` as a new asset's one resource; the path of the file it became.
    static func save(_ data: Data, type: PHAssetResourceType) throws -> String {
        try save { request in request.addResource(with: type, data: data, options: nil) }
    }

    /// Moves the file at `url` into the library as a new video; the path of the file it became.
    static func saveVideo(movingFileAt url: URL) throws -> String {
        try save { request in
            let options = PHAssetResourceCreationOptions()
            options.shouldMoveFile = true
            options.originalFilename = url.lastPathComponent
            request.addResource(with: .video, fileURL: url, options: options)
        }
    }

    /// Saves a Live Photo: the still and its movie (moved) under one name; the path of the still.
    static func saveLivePhoto(_ still: Data, movingMovieAt movie: URL) throws -> String {
        try save { request in
            request.addResource(with: .photo, data: still, options: nil)
            let options = PHAssetResourceCreationOptions()
            options.shouldMoveFile = true
            request.addResource(with: .pairedVideo, fileURL: movie, options: options)
        }
    }

    private static func save(_ addResources: @escaping (PHAssetCreationRequest) -> Void) throws -> String {
        var placeholder: PHObjectPlaceholder?
        do {
            try PHPhotoLibrary.shared().performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                addResources(request)
                placeholder = request.placeholderForCreatedAsset
            }
        } catch {
            throw CommandFailure("Cannot save into the photo library: \(error.localizedDescription)")
        }
        return placeholder?.localIdentifier ?? "the photo library"
    }
}
