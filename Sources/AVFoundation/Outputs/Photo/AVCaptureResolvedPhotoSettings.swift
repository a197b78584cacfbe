import Foundation

/// A description of the features and settings in use for an in-progress or complete photo capture request.
open class AVCaptureResolvedPhotoSettings: NSObject, @unchecked Sendable {
    /// The unique identifier of the settings the capture was requested with.
    public let uniqueID: Int64
    /// The dimensions of the photo.
    public let photoDimensions: CMVideoDimensions
    /// Whether the flash fires for the photo.
    public let isFlashEnabled: Bool
    /// The dimensions of the preview image, or zero for none.
    public let previewDimensions: CMVideoDimensions
    /// The dimensions of the embedded thumbnail, or zero for none.
    public let embeddedThumbnailDimensions: CMVideoDimensions
    /// The dimensions of the Live Photo's movie, or zero for a still photo.
    public let livePhotoMovieDimensions: CMVideoDimensions
    /// How many photos the capture delivers.
    public let expectedPhotoCount: Int
    /// How long the photo is expected to take to process, from the moment of capture.
    public let photoProcessingTimeRange: CMTimeRange
    /// The dimensions of the deferred photo proxy, or zero when the photo is not deferred.
    public let deferredPhotoProxyDimensions: CMVideoDimensions

    init(
        uniqueID: Int64, photoDimensions: CMVideoDimensions, isFlashEnabled: Bool, previewDimensions: CMVideoDimensions,
        livePhotoMovieDimensions: CMVideoDimensions, embeddedThumbnailDimensions: CMVideoDimensions, photoProcessingTimeRange: CMTimeRange,
        deferredPhotoProxyDimensions: CMVideoDimensions = CMVideoDimensions()
    ) {
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        self.isFlashEnabled = isFlashEnabled
        self.previewDimensions = previewDimensions
        self.embeddedThumbnailDimensions = embeddedThumbnailDimensions
        self.livePhotoMovieDimensions = livePhotoMovieDimensions
        expectedPhotoCount = 1
        self.photoProcessingTimeRange = photoProcessingTimeRange
        self.deferredPhotoProxyDimensions = deferredPhotoProxyDimensions
        super.init()
    }
}
