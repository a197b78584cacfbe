/// The kinds of asset collection.
public enum PHAssetCollectionType: Int, @unchecked Sendable {
    /// An album the user made (on Linux, a folder in the Pictures or Videos folder).
    case album = 1
    /// A smart album the library keeps by itself.
    case smartAlbum = 2
    /// A moment (deprecated by Apple).
    case moment = 3
}

/// The subtypes of asset collection.
public enum PHAssetCollectionSubtype: Int, @unchecked Sendable {
    /// An album made in the Photos app or by an app.
    case albumRegular = 2
    /// An event synced from a computer.
    case albumSyncedEvent = 3
    /// A faces album synced from a computer.
    case albumSyncedFaces = 4
    /// An album synced from a computer.
    case albumSyncedAlbum = 5
    /// An album imported from a camera or storage.
    case albumImported = 6
    /// The user's photo stream.
    case albumMyPhotoStream = 100
    /// A shared album.
    case albumCloudShared = 101
    /// A smart album of no particular kind.
    case smartAlbumGeneric = 200
    /// Panoramas.
    case smartAlbumPanoramas = 201
    /// Videos.
    case smartAlbumVideos = 202
    /// Favorites.
    case smartAlbumFavorites = 203
    /// Time-lapse videos.
    case smartAlbumTimelapses = 204
    /// Hidden assets.
    case smartAlbumAllHidden = 205
    /// Assets recently added.
    case smartAlbumRecentlyAdded = 206
    /// Bursts.
    case smartAlbumBursts = 207
    /// Slow-motion videos.
    case smartAlbumSlomoVideos = 208
    /// The user's whole library.
    case smartAlbumUserLibrary = 209
    /// Photos taken with the front camera.
    case smartAlbumSelfPortraits = 210
    /// Screenshots.
    case smartAlbumScreenshots = 211
    /// Photos with depth effects.
    case smartAlbumDepthEffect = 212
    /// Live Photos.
    case smartAlbumLivePhotos = 213
    /// Animated images.
    case smartAlbumAnimated = 214
    /// Long exposures.
    case smartAlbumLongExposures = 215
    /// Assets that could not be uploaded.
    case smartAlbumUnableToUpload = 216
    /// RAW photos.
    case smartAlbumRAW = 217
    /// Cinematic videos.
    case smartAlbumCinematic = 218
    /// Any subtype.
    case any = 9_223_372_036_854_775_807
}
