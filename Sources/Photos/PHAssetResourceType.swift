/// Options for the kind of data a resource of an asset holds.
@frozen
public enum PHAssetResourceType: Int, Sendable {
    /// The resource provides the original photo data.
    case photo = 1
    /// The resource provides the original video data.
    case video = 2
    /// The resource provides the original audio data.
    case audio = 3
    /// The resource provides an alternate format of the photo.
    case alternatePhoto = 4
    /// The resource provides the current photo data, with edits.
    case fullSizePhoto = 5
    /// The resource provides the current video data, with edits.
    case fullSizeVideo = 6
    /// The resource provides data for recreating edits.
    case adjustmentData = 7
    /// The resource provides an unaltered version of an edited photo.
    case adjustmentBasePhoto = 8
    /// The resource provides the original video data of a Live Photo.
    case pairedVideo = 9
    /// The resource provides the current video data of a Live Photo, with edits.
    case fullSizePairedVideo = 10
    /// The resource provides an unaltered version of an edited Live Photo's video.
    case adjustmentBasePairedVideo = 11
    /// The resource provides an unaltered version of an edited video.
    case adjustmentBaseVideo = 12
    /// The resource provides a proxy photo to process later.
    case photoProxy = 19
}
