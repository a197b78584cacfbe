import Photos

// What a file importing only Photos uses, as Apple's module brings it: AVFoundation's assets and
// media types, and Foundation.
enum PhotosBrings {
    static func saveVideo(at url: URL) async throws -> (AVAsset, AVMediaType) {
        try await PHPhotoLibrary.shared().performChanges { PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url) }
        return (AVURLAsset(url: url), .video)
    }
}
